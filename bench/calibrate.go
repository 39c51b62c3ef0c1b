package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
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
	paperScanCost = 20
	paperZCost    = 32
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

// calibrateLoops measures each loop's cost the paper's way (§2.1, §4.1):
// the unbalanced set at every view and Lanes value under Always, so that
// it redistributes; the cost of a run is its longest gathering plus its
// longest redistribution over its shortest solution phase (a
// balancer.Calibrator); the estimate is the largest cost over the views and
// Lanes values, plus the margin. Each view and Lanes value is run reps
// times and the run of median cost counts, so that one phase delayed by
// another process on a shared machine does not set the estimate (with one
// repetition this is the paper's rule). The first frame compiles the
// kernels and is not counted.
func calibrateLoops(e *experiment, f *expFlags, reps int, pr *progress) ([2]balancer.LoopCost, [2]error, error) {
	var out [2]balancer.LoopCost
	var errs [2]error
	var best [2]*balancer.Calibrator // the largest median run
	for i, lanes := range f.lanesList {
		if err := e.configure(balancer.Always, lanes, costs{}); err != nil {
			return out, errs, err
		}
		if i == 0 {
			for k := 0; k < max(f.warmup, 1); k++ {
				if _, err := e.render(unbalancedSet, f.viewList[0]); err != nil {
					return out, errs, err
				}
			}
		}
		for _, v := range f.viewList {
			var runs [2][]*balancer.Calibrator
			for k := 0; k < reps; k++ {
				st, err := e.render(unbalancedSet, v)
				if err != nil {
					return out, errs, err
				}
				// A run is one loop's work in a frame: both z-buffer passes
				// of the 32-bit scheme count as one run.
				var cal [2]balancer.Calibrator
				cal[0].Add(&st.ScanConversion)
				cal[1].Add(&st.ZBuffer)
				if st.ZBufferIDs.Processors > 0 {
					cal[1].Add(&st.ZBufferIDs)
				}
				for l := range cal {
					if cal[l].Runs > 0 && cal[l].MaxRedistribute > 0 {
						runs[l] = append(runs[l], &cal[l])
					}
				}
			}
			for l := range runs {
				if len(runs[l]) == 0 {
					continue
				}
				sort.Slice(runs[l], func(a, b int) bool { return runs[l][a].Cost < runs[l][b].Cost })
				med := runs[l][len(runs[l])/2]
				if best[l] == nil || med.Cost > best[l].Cost {
					best[l] = med
				}
			}
			pr.step(fmt.Sprintf("calibrating at %s, lanes %s", v.Name, lanesLabel(lanes)))
		}
	}
	for l := range best {
		if best[l] == nil {
			errs[l] = errors.New("no run redistributed (is the unbalanced set unbalanced at these views?)")
			continue
		}
		out[l], errs[l] = best[l].Estimate(f.margin)
	}
	return out, errs, nil
}

// calibrationSteps is the number of progress steps calibrateLoops takes.
func calibrationSteps(f *expFlags) int { return len(f.lanesList) * len(f.viewList) }

// loadOrCalibrate returns the two loops' costs: from the calibration file
// for this GL renderer, or calibrated now (and saved) when the file has none
// or -calibrate is given. The lines it returns say which.
func loadOrCalibrate(e *experiment, f *expFlags, pr *progress) ([2]loopCost, []string, error) {
	var lc [2]loopCost
	var notes []string
	renderer := e.c.Caps().Renderer
	cal, err := balancer.LoadCalibration(f.calPath)
	var ce *balancer.CalibrationError
	if errors.As(err, &ce) {
		notes = append(notes, err.Error())
	} else if err != nil {
		return lc, nil, err
	}
	need := f.recalibrate
	for i, name := range loopNames {
		c, err := cal.Lookup(renderer, name)
		if err != nil {
			need = true
			continue
		}
		lc[i] = loopCost{Loop: name, Cost: c.CostIterations, Source: "file", Detail: c}
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
			lc[i] = loopCost{Loop: name, Cost: balancer.DefaultCostIterations, Source: "default",
				Note: fmt.Sprintf("calibration failed (%v): the balancer's default of %d iterations", errs[i], balancer.DefaultCostIterations)}
			notes = append(notes, fmt.Sprintf("%s: %s", name, lc[i].Note))
			continue
		}
		measured[i].Date = time.Now().UTC().Format(time.RFC3339)
		cal.Set(renderer, name, measured[i])
		lc[i] = loopCost{Loop: name, Cost: measured[i].CostIterations, Source: "calibrated now", Detail: measured[i]}
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
		"renderer's two loops, the paper's way (§2.1, §4.1): the unbalanced polygon set is rendered at every view and\n"+
		"Lanes value with the Always policy (so that it redistributes); the cost of a run is its longest information\n"+
		"gathering plus its longest redistribution over its shortest solution phase; the estimate is the largest cost\n"+
		"plus -margin. The costs are saved in -calibration under this GL renderer's name, where `bench paper` and\n"+
		"`bench render` find them. -policies, -out are not used.")
	if err := parseExp(fs, f, args); err != nil {
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
	cal, lerr := balancer.LoadCalibration(f.calPath)
	if lerr != nil {
		fmt.Fprintln(w, lerr)
	}
	fmt.Fprintf(w, "%-16s %10s %8s %14s %16s %14s %5s\n", "loop", "cost", "paper", "max gathering", "max redistrib.", "min solution", "passes")
	saved := 0
	for i, name := range loopNames {
		paper := []int{paperScanCost, paperZCost}[i]
		if errs[i] != nil {
			fmt.Fprintf(w, "%-16s %10s %8d  not calibrated: %v\n", name, "-", paper, errs[i])
			continue
		}
		m := measured[i]
		fmt.Fprintf(w, "%-16s %10.1f %8d %14s %16s %14s %5d\n", name, m.CostIterations, paper,
			fmtDur(time.Duration(m.MaxGatherNs)), fmtDur(time.Duration(m.MaxRedistributeNs)), fmtDur(time.Duration(m.MinSolveNs)), m.Runs)
		cal.Set(c.Caps().Renderer, name, m)
		saved++
	}
	fmt.Fprintf(w, "(cost in iterations = (max gathering + max redistribution) / min solution + %g, of the run that sets the estimate:\n"+
		" the largest over the views and Lanes values of the median over %d repetitions)\n", f.margin, f.reps)
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
