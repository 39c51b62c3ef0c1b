package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/bench/internal/experiment"
	"github.com/dpgl/dpgl/rasterizer"
)

func init() {
	commands["calibrate"] = command{runCalibrate, "measure the renderer loops' overestimated costs (the paper's §4.1) and save them"}
}

var calibrateDefaults = expDefaults{
	lanes: paperDefaults.lanes, policies: "Always", out: "", warmup: 1, reps: 3,
	softRes: paperDefaults.softRes, softSize: paperDefaults.softSize, softWarmup: 1, softReps: 3, softLanes: paperDefaults.softLanes,
}

const calibrateHelp = "Calibrates the overestimated cost, in iterations of the solution phase, of load balancing each of the\n" +
	"renderer's two loops, the paper's way (§2.1, §4.1), with rasterizer.Calibrate: the unbalanced polygon set is\n" +
	"rendered at every view and Lanes value with the Always policy (so that it redistributes), after at least one\n" +
	"uncounted frame (-warmup: a first frame pays one-time costs); the cost of a run is its longest information\n" +
	"gathering plus its longest redistribution over its shortest solution phase; the estimate is the largest cost\n" +
	"plus -margin. The costs are saved in -calibration under this GL renderer's name, where `bench paper` and\n" +
	"`bench render` find them. -policies, -out are not used."

// calibration is what bench calibrate measured: each loop's cost, or why
// it has none.
type calibration struct {
	Renderer string
	Measured [2]balancer.LoopCost
	Errs     [2]error
	Notes    []string // from reading the calibration file
}

func runCalibrate(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("calibrate", flag.ContinueOnError)
	f := addExpFlags(fs, "calibrate", calibrateDefaults)
	fs.Usage = usageFor(fs, "calibrate", calibrateHelp)
	if err := parseExp(fs, f, args); err != nil {
		return err
	}
	// A file that is not a calibration fails now, not after the measuring.
	cal, notes, err := experiment.OpenCalibration(f.calPath)
	if err != nil {
		return err
	}
	res, err := calibrateRenderer(f, w)
	if err != nil {
		return err
	}
	res.Notes = notes
	printCalibration(w, f, res)
	saved := rasterizerCosts(res.Measured)
	if saved.ScanConversion.CostIterations == 0 && saved.ZBuffer.CostIterations == 0 {
		return errors.New("bench calibrate: no loop redistributed, so nothing was calibrated (is the unbalanced set unbalanced at these views?)")
	}
	saved.Save(cal, res.Renderer)
	if err := cal.Save(); err != nil {
		return err
	}
	fmt.Fprintf(w, "saved under %q in %s\n", res.Renderer, f.calPath)
	return nil
}

// calibrateRenderer builds the dataset and measures the loops' costs.
func calibrateRenderer(f *expFlags, w io.Writer) (*calibration, error) {
	c, reduced, err := openExp(f, calibrateDefaults)
	if err != nil {
		return nil, err
	}
	defer c.Delete()
	fmt.Fprintf(w, "calibrating the renderer's loops on %s (%s)\n", c.Caps().Renderer, c.Caps().Version)
	printReductions(w, c.Caps().Renderer, reduced)
	e, err := openExperiment(c, f)
	if err != nil {
		return nil, err
	}
	defer e.Delete()
	for _, m := range e.DatasetWarnings(f.reduction) {
		warnf(w, "%s", m)
	}
	fmt.Fprintf(w, "dataset: %s\nimage %dx%d, views %s, lanes %s, %d repetitions each after %d warm-up\n\n", e.Describe(), e.Width, e.Height,
		strings.Join(viewNamesOf(f), " "), f.lanes, f.reps, max(f.warmup, 1))
	cc := f.calibration()
	pr := newProgress("calibrate", cc.Steps())
	defer pr.clear()
	res := &calibration{Renderer: c.Caps().Renderer}
	if res.Measured, res.Errs, err = e.CalibrateLoops(&cc, f.reps, pr.stepN); err != nil {
		return nil, err
	}
	for i := range res.Measured {
		if res.Errs[i] != nil {
			res.Measured[i] = balancer.LoopCost{}
		}
	}
	return res, nil
}

// printCalibration prints the measured costs as a table.
func printCalibration(w io.Writer, f *expFlags, res *calibration) {
	for _, n := range res.Notes {
		fmt.Fprintln(w, n)
	}
	fmt.Fprintf(w, "%-16s %10s %8s %14s %16s %14s %5s %12s\n", "loop", "cost", "paper", "max gathering", "max redistrib.", "min solution", "runs", "longest run")
	var warnings []string
	for i, name := range experiment.LoopNames {
		paper := []int{experiment.PaperScanCost, experiment.PaperZCost}[i]
		if res.Errs[i] != nil {
			fmt.Fprintf(w, "%-16s %10s %8d  not calibrated: %v\n", name, "-", paper, res.Errs[i])
			continue
		}
		m := res.Measured[i]
		fmt.Fprintf(w, "%-16s %10.1f %8d %14s %16s %14s %5d %12d\n", name, m.CostIterations, paper,
			fmtDur(time.Duration(m.MaxGatherNs)), fmtDur(time.Duration(m.MaxRedistributeNs)), fmtDur(time.Duration(m.MinSolveNs)), m.Runs, m.LongestRun)
		if w := m.Warning(); w != "" {
			warnings = append(warnings, name+": "+w)
		}
	}
	fmt.Fprintf(w, "(cost in iterations = (max gathering + max redistribution) / min solution + %g, of the run that sets the estimate:\n"+
		" the largest over the views and Lanes values of the median over %d repetitions, each after %d warm-up frames;\n"+
		" runs: the frames counted; longest run: the largest MAX(workload), the iterations of the longest as Figure 1)\n", f.margin, f.reps, max(f.warmup, 1))
	for _, m := range warnings {
		fmt.Fprintln(w, "warning:", m)
	}
}

func viewNamesOf(f *expFlags) []string {
	var out []string
	for _, v := range f.viewList {
		out = append(out, v.Name)
	}
	return out
}

// rasterizerCosts are the measured costs, scan conversion first, as the
// renderer's Costs (a loop not calibrated has CostIterations 0).
func rasterizerCosts(m [2]balancer.LoopCost) rasterizer.Costs {
	return rasterizer.Costs{ScanConversion: m[0], ZBuffer: m[1]}
}
