package experiment

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/view"
)

// The paper's calibrated overestimates on the CM-5 (§4.1).
const (
	PaperScanCost = rasterizer.PaperScanConversionCost
	PaperZCost    = rasterizer.PaperZBufferCost
)

// LoopNames are the renderer's two loops, as the calibration file keys
// them: scan conversion first, as everywhere in this package.
var LoopNames = [2]string{rasterizer.ScanConversionLoop, rasterizer.ZBufferLoop}

// paperCosts are the paper's costs by loop.
var paperCosts = [2]float64{PaperScanCost, PaperZCost}

// LoopCost is one loop's cost as an experiment uses it, with where it came
// from.
type LoopCost struct {
	Loop   string            `json:"loop"`
	Cost   float64           `json:"costIterations"`
	Source string            `json:"source"` // "calibrated now", "file", "default"
	Detail balancer.LoopCost `json:"calibration"`
	Note   string            `json:"note,omitempty"`
}

// Progress, when not nil, is told that n more steps are done, what.
type Progress func(n int, what string)

func (p Progress) step(n int, what string) {
	if p != nil {
		p(n, what)
	}
}

// Calibration says where the loops' costs come from and how they are
// calibrated when the file lacks them.
type Calibration struct {
	Path        string  // the calibration file
	Recalibrate bool    // calibrate even if the file has costs for this renderer
	Margin      float64 // added to the largest measured cost
	Views       []view.View
	Lanes       []int
	Warmup      int // at least one frame is not counted in any case
	Reps        int
}

// Steps is the number of progress steps a calibration takes.
func (c *Calibration) Steps() int { return len(c.Lanes) * len(c.Views) }

// CalibrateLoops measures each loop's cost with rasterizer.Calibrate: the
// unbalanced set at every view and Lanes value, max(Warmup, 1) frames
// uncounted and reps counted each, the frame of median cost counting (so
// that one phase delayed by another process on a shared machine does not
// set the estimate; with one repetition this is the paper's rule), the
// largest cost over the views and Lanes values plus the margin. errs says
// why a loop was not calibrated; err is a frame that failed.
func (e *Experiment) CalibrateLoops(c *Calibration, reps int, pr Progress) (measured [2]balancer.LoopCost, errs [2]error, err error) {
	var scenes []rasterizer.Scene
	for _, v := range c.Views {
		scenes = append(scenes, rasterizer.Scene{Mesh: e.Sets[Unbalanced], Camera: e.Camera(v)})
	}
	cs, err := rasterizer.Calibrate(e.Renderer, scenes, rasterizer.CalibrateOptions{Lanes: c.Lanes, Warmup: max(c.Warmup, 1), Reps: reps, Margin: c.Margin,
		Progress: func(scene, lanes int) {
			pr.step(1, fmt.Sprintf("calibrating at %s, lanes %s", c.Views[scene].Name, LanesLabel(lanes)))
		}})
	errs[0], errs[1] = rasterizer.LoopErrors(err)
	if errs[0] != nil && errs[0] == errs[1] {
		return measured, errs, err // a frame failed
	}
	return [2]balancer.LoopCost{cs.ScanConversion, cs.ZBuffer}, errs, nil
}

// OpenCalibration loads the calibration file, failing (before anything is
// measured) when it is not a dpgl calibration file, which is never
// replaced. Unreadable entries are reported in notes and kept.
func OpenCalibration(path string) (*balancer.Calibration, []string, error) {
	cal, err := balancer.LoadCalibration(path)
	var ce *balancer.CalibrationError
	switch {
	case errors.As(err, &ce) && ce.Foreign:
		return nil, nil, fmt.Errorf("-calibration %s: %w", path, err)
	case err != nil:
		return cal, []string{err.Error()}, nil
	}
	return cal, nil, nil
}

// LoadOrCalibrate returns the two loops' costs: from the calibration file
// for this GL renderer (rasterizer.LoadCosts), or calibrated now (and
// saved) for a loop the file lacks, or both when c.Recalibrate is set. The
// lines it returns say which, and why.
//
// A recalibration replaces only the loops it measured: a loop the file
// holds keeps its entry. An entry that cannot be read is kept as it is
// (reported, and measured again for this run only) unless c.Recalibrate
// asks for new costs; and a measurement of fewer runs than the file's
// entry does not replace it.
func (e *Experiment) LoadOrCalibrate(c *Calibration, pr Progress) ([2]LoopCost, []string, error) {
	var lc [2]LoopCost
	renderer := e.Context.Caps().Renderer
	cal, notes, err := OpenCalibration(c.Path)
	if err != nil {
		return lc, nil, err
	}
	var need [2]string // why loop i is calibrated now; "" when it is not
	var old [2]balancer.LoopCost
	for i, name := range LoopNames {
		got, err := cal.Lookup(renderer, name)
		var ee *balancer.EntryError
		switch {
		case c.Recalibrate:
			need[i], old[i] = "-calibrate", got
		case errors.As(err, &ee):
			need[i] = "its entry in the file cannot be read, and is kept as it is; this run's calibration is not saved over it"
		case err != nil || got.CostIterations == 0:
			need[i] = "the file has none for this renderer"
		}
		if need[i] != "" {
			continue
		}
		lc[i] = LoopCost{Loop: name, Cost: got.CostIterations, Source: "file", Detail: got, Note: got.Warning()}
		if lc[i].Note != "" {
			notes = append(notes, fmt.Sprintf("%s (from %s): %s", name, c.Path, lc[i].Note))
		}
	}
	if need == [2]string{} {
		notes = append(notes, fmt.Sprintf("costs from %s (calibrated %s; `bench calibrate` or -calibrate measures them again)", c.Path, lc[0].Detail.Date))
		return lc, notes, nil
	}
	return e.calibrateAndSave(c, cal, lc, need, old, notes, pr)
}

// calibrateAndSave is LoadOrCalibrate's calibration of the loops whose
// need is set (lc holds the others'): a loop that cannot be calibrated
// takes the paper's cost; the others are saved, except over an unreadable
// entry or a file's entry of more runs (old).
func (e *Experiment) calibrateAndSave(c *Calibration, cal *balancer.Calibration, lc [2]LoopCost, need [2]string, old [2]balancer.LoopCost,
	notes []string, pr Progress) ([2]LoopCost, []string, error) {
	// Three repetitions give a median; more only lengthen the first run.
	measured, errs, err := e.CalibrateLoops(c, min(c.Reps, 3), pr)
	if err != nil {
		return lc, notes, err
	}
	var save rasterizer.Costs
	saved := false
	for i, name := range LoopNames {
		if need[i] == "" {
			continue
		}
		if errs[i] != nil {
			lc[i] = LoopCost{Loop: name, Cost: paperCosts[i], Source: "default",
				Note: fmt.Sprintf("calibration failed (%v): the paper's cost of %g iterations, as rasterizer.DefaultOptions", errs[i], paperCosts[i])}
			notes = append(notes, fmt.Sprintf("%s: %s", name, lc[i].Note))
			continue
		}
		measured[i].Date = time.Now().UTC().Format(time.RFC3339)
		lc[i] = LoopCost{Loop: name, Cost: measured[i].CostIterations, Source: "calibrated now", Detail: measured[i], Note: measured[i].Warning()}
		if lc[i].Note != "" {
			notes = append(notes, fmt.Sprintf("%s: %s", name, lc[i].Note))
		}
		keep := ""
		switch {
		case strings.HasPrefix(need[i], "its entry"):
			keep = need[i]
		case old[i].Runs > measured[i].Runs:
			keep = fmt.Sprintf("the file's calibration of %d runs is kept: this one measured %d", old[i].Runs, measured[i].Runs)
		}
		notes = append(notes, fmt.Sprintf("%s: cost calibrated now (%s): Always on the unbalanced set at %d views x %d Lanes values", name, need[i], len(c.Views), len(c.Lanes)))
		if keep != "" {
			if keep != need[i] {
				notes = append(notes, fmt.Sprintf("%s: not saved to %s: %s", name, c.Path, keep))
			}
			continue
		}
		if i == 0 {
			save.ScanConversion = measured[i]
		} else {
			save.ZBuffer = measured[i]
		}
		saved = true
	}
	if saved {
		save.Save(cal, e.Context.Caps().Renderer)
		if err := cal.Save(); err != nil {
			return lc, notes, err
		}
		notes = append(notes, fmt.Sprintf("saved to %s", c.Path))
	}
	return lc, notes, nil
}
