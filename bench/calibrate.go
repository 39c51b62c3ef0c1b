package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/rasterizer"
)

func init() {
	commands["calibrate"] = command{runCalibrate, "measure the renderer loops' overestimated costs (the paper's §4.1) and save them"}
}

// The paper's calibrated overestimates on the CM-5 (§4.1).
const (
	paperScanCost = rasterizer.PaperScanConversionCost
	paperZCost    = rasterizer.PaperZBufferCost
)

// loopNames are the renderer's two loops, as the calibration file keys them.
var loopNames = [2]string{rasterizer.ScanConversionLoop, rasterizer.ZBufferLoop}

// loopCost is one loop's cost as an experiment uses it, with where it came
// from.
type loopCost struct {
	Loop   string            `json:"loop"`
	Cost   float64           `json:"costIterations"`
	Source string            `json:"source"` // "calibrated now", "file", "default"
	Detail balancer.LoopCost `json:"calibration"`
	Note   string            `json:"note,omitempty"`
}

// calibrateLoops measures each loop's cost with rasterizer.Calibrate: the
// unbalanced set at every view and Lanes value, max(-warmup, 1) frames
// uncounted and reps counted each, the frame of median cost counting (so
// that one phase delayed by another process on a shared machine does not
// set the estimate; with one repetition this is the paper's rule), the
// largest cost over the views and Lanes values plus -margin.
func calibrateLoops(e *experiment, f *expFlags, reps int, pr *progress) ([2]balancer.LoopCost, [2]error, error) {
	var scenes []rasterizer.Scene
	for _, v := range f.viewList {
		scenes = append(scenes, rasterizer.Scene{Mesh: e.sets[unbalancedSet], Camera: e.camera(v)})
	}
	cs, err := rasterizer.Calibrate(e.r, scenes, rasterizer.CalibrateOptions{Lanes: f.lanesList, Warmup: max(f.warmup, 1), Reps: reps, Margin: f.margin,
		Progress: func(scene, lanes int) {
			pr.step(fmt.Sprintf("calibrating at %s, lanes %s", f.viewList[scene].Name, lanesLabel(lanes)))
		}})
	var errs [2]error
	errs[0], errs[1] = rasterizer.LoopErrors(err)
	if errs[0] != nil && errs[0] == errs[1] {
		return [2]balancer.LoopCost{}, errs, err // a frame failed
	}
	return [2]balancer.LoopCost{cs.ScanConversion, cs.ZBuffer}, errs, nil
}

// openCalibration loads the calibration file, failing (before anything is
// measured) when it is not a dpgl calibration file, which is never
// replaced. Unreadable entries are reported in notes and kept.
func openCalibration(path string) (*balancer.Calibration, []string, error) {
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

// calibrationSteps is the number of progress steps calibrateLoops takes.
func calibrationSteps(f *expFlags) int { return len(f.lanesList) * len(f.viewList) }

// loadOrCalibrate returns the two loops' costs: from the calibration file
// for this GL renderer, or calibrated now (and saved) when the file has none
// or -calibrate is given. The lines it returns say which.
func loadOrCalibrate(e *experiment, f *expFlags, pr *progress) ([2]loopCost, []string, error) {
	var lc [2]loopCost
	renderer := e.c.Caps().Renderer
	cal, notes, err := openCalibration(f.calPath)
	if err != nil {
		return lc, nil, err
	}
	need := f.recalibrate
	for i, name := range loopNames {
		c, err := cal.Lookup(renderer, name)
		if err != nil {
			need = true
			continue
		}
		lc[i] = loopCost{Loop: name, Cost: c.CostIterations, Source: "file", Detail: c, Note: c.Warning()}
		if lc[i].Note != "" && !f.recalibrate {
			notes = append(notes, fmt.Sprintf("%s (from %s): %s", name, f.calPath, lc[i].Note))
		}
	}
	if !need {
		notes = append(notes, fmt.Sprintf("costs from %s (calibrated %s; `bench calibrate` or -calibrate measures them again)", f.calPath, lc[0].Detail.Date))
		return lc, notes, nil
	}
	why := "the file has none for this renderer"
	if f.recalibrate {
		why = "-calibrate"
	}
	// Three repetitions give a median; more only lengthen the first run.
	measured, errs, err := calibrateLoops(e, f, min(f.reps, 3), pr)
	if err != nil {
		return lc, notes, err
	}
	saved := false
	for i, name := range loopNames {
		if errs[i] != nil {
			paper := []int{paperScanCost, paperZCost}[i]
			lc[i] = loopCost{Loop: name, Cost: float64(paper), Source: "default",
				Note: fmt.Sprintf("calibration failed (%v): the paper's cost of %d iterations, as rasterizer.DefaultOptions", errs[i], paper)}
			notes = append(notes, fmt.Sprintf("%s: %s", name, lc[i].Note))
			continue
		}
		measured[i].Date = time.Now().UTC().Format(time.RFC3339)
		cal.Set(renderer, name, measured[i])
		lc[i] = loopCost{Loop: name, Cost: measured[i].CostIterations, Source: "calibrated now", Detail: measured[i], Note: measured[i].Warning()}
		if lc[i].Note != "" {
			notes = append(notes, fmt.Sprintf("%s: %s", name, lc[i].Note))
		}
		saved = true
	}
	if saved {
		if err := cal.Save(); err != nil {
			return lc, notes, err
		}
	}
	notes = append(notes, fmt.Sprintf("costs calibrated now (%s): Always on the unbalanced set at %d views x %d Lanes values, saved to %s",
		why, len(f.viewList), len(f.lanesList), f.calPath))
	return lc, notes, nil
}

var calibrateDefaults = expDefaults{
	lanes: paperDefaults.lanes, policies: "Always", out: "", warmup: 1, reps: 3,
	softRes: paperDefaults.softRes, softSize: paperDefaults.softSize, softWarmup: 1, softReps: 3, softLanes: paperDefaults.softLanes,
}

func runCalibrate(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("calibrate", flag.ContinueOnError)
	f := addExpFlags(fs, "calibrate", calibrateDefaults)
	fs.Usage = usageFor(fs, "calibrate", "Calibrates the overestimated cost, in iterations of the solution phase, of load balancing each of the\n"+
		"renderer's two loops, the paper's way (§2.1, §4.1), with rasterizer.Calibrate: the unbalanced polygon set is\n"+
		"rendered at every view and Lanes value with the Always policy (so that it redistributes), after at least one\n"+
		"uncounted frame (-warmup: a first frame pays one-time costs); the cost of a run is its longest information\n"+
		"gathering plus its longest redistribution over its shortest solution phase; the estimate is the largest cost\n"+
		"plus -margin. The costs are saved in -calibration under this GL renderer's name, where `bench paper` and\n"+
		"`bench render` find them. -policies, -out are not used.")
	if err := parseExp(fs, f, args); err != nil {
		return err
	}
	// A file that is not a calibration fails now, not after the measuring.
	cal, notes, err := openCalibration(f.calPath)
	if err != nil {
		return err
	}
	c, reduced, err := openExp(f, calibrateDefaults)
	if err != nil {
		return err
	}
	defer c.Delete()
	fmt.Fprintf(w, "calibrating the renderer's loops on %s (%s)\n", c.Caps().Renderer, c.Caps().Version)
	printReductions(w, c.Caps().Renderer, reduced)
	e, err := newExperiment(c, f)
	if err != nil {
		return err
	}
	defer e.delete()
	fmt.Fprintf(w, "dataset: %s\nimage %dx%d, views %s, lanes %s, %d repetitions each after %d warm-up\n\n", e.describe(), e.w, e.h,
		strings.Join(viewNamesOf(f), " "), f.lanes, f.reps, max(f.warmup, 1))
	pr := newProgress("calibrate", calibrationSteps(f))
	measured, errs, err := calibrateLoops(e, f, f.reps, pr)
	pr.clear()
	if err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	fmt.Fprintf(w, "%-16s %10s %8s %14s %16s %14s %5s %12s\n", "loop", "cost", "paper", "max gathering", "max redistrib.", "min solution", "runs", "longest run")
	saved := 0
	var warnings []string
	for i, name := range loopNames {
		paper := []int{paperScanCost, paperZCost}[i]
		if errs[i] != nil {
			fmt.Fprintf(w, "%-16s %10s %8d  not calibrated: %v\n", name, "-", paper, errs[i])
			continue
		}
		m := measured[i]
		fmt.Fprintf(w, "%-16s %10.1f %8d %14s %16s %14s %5d %12d\n", name, m.CostIterations, paper,
			fmtDur(time.Duration(m.MaxGatherNs)), fmtDur(time.Duration(m.MaxRedistributeNs)), fmtDur(time.Duration(m.MinSolveNs)), m.Runs, m.LongestRun)
		if w := m.Warning(); w != "" {
			warnings = append(warnings, name+": "+w)
		}
		cal.Set(c.Caps().Renderer, name, m)
		saved++
	}
	fmt.Fprintf(w, "(cost in iterations = (max gathering + max redistribution) / min solution + %g, of the run that sets the estimate:\n"+
		" the largest over the views and Lanes values of the median over %d repetitions, each after %d warm-up frames;\n"+
		" runs: the frames counted; longest run: the largest MAX(workload), the iterations of the longest as Figure 1)\n", f.margin, f.reps, max(f.warmup, 1))
	for _, m := range warnings {
		fmt.Fprintln(w, "warning:", m)
	}
	if saved == 0 {
		return errors.New("bench calibrate: no loop redistributed, so nothing was calibrated (is the unbalanced set unbalanced at these views?)")
	}
	if err := cal.Save(); err != nil {
		return err
	}
	fmt.Fprintf(w, "saved under %q in %s\n", c.Caps().Renderer, f.calPath)
	return nil
}

func viewNamesOf(f *expFlags) []string {
	var out []string
	for _, v := range f.viewList {
		out = append(out, v.Name)
	}
	return out
}
