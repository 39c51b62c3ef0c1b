package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/bench/internal/experiment"
)

func init() {
	commands["paper"] = command{runPaper, "the paper's experiment: Tables 1-4 for the balanced and unbalanced sets of a dataset, original vs load-balanced renderer"}
}

// paperDefaults: on a GPU the Lanes sweep runs from a few SMs' worth of
// invocations to one per processor (the paper's 32…512 CM-5 nodes); on a
// software renderer the experiment shrinks to finish in well under a minute on
// two cores.
var paperDefaults = expDefaults{
	lanes: "512,2048,8192,32768,all", policies: "Never,CostEffective,Bounded", out: "results", warmup: 1, reps: 5, lockstep: true,
	softRes: 64, softSize: 256, softWarmup: 0, softReps: 3, softLanes: "256,all",
}

const paperHelp = "Re-runs the experiment of Ahrens & Hansen's §4 on the GPU: the balanced and unbalanced polygon sets of one\n" +
	"surface (default: the embedded perforator-jet field; no files needed) rendered at the paper's four views by the\n" +
	"original renderer (OR: Never in both loops), the load-balanced one (LB: CostEffective) and the improved policy\n" +
	"(Bounded), over a sweep of Lanes (the paper's 32…512 processors). Prints Table 1 (workloads), Tables 2 and 3 (frame\n" +
	"times, unbalanced and balanced, with LB's speedup and worst loss), Table 4 (phase times), the calibrated costs and\n" +
	"whether any dataset's cost exceeded them (§4.1), and the paper's headline figures beside ours; checks that every\n" +
	"policy draws the same image. Writes the tables (Markdown, CSV), paper.json, one PNG per set and view, and plots to\n" +
	"-out. The costs come from -calibration, or are calibrated first (see `bench calibrate`). On a software renderer\n" +
	"(llvmpipe) the defaults shrink to finish in well under a minute; the output says what was reduced."

func runPaper(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("paper", flag.ContinueOnError)
	f := addExpFlags(fs, "paper", paperDefaults)
	fs.Usage = usageFor(fs, "paper", paperHelp)
	withSecond := fs.Bool("second", true, secondFlagHelp)
	if err := parseExp(fs, f, args); err != nil {
		return err
	}
	if !slices.Contains(f.policyList, balancer.Never) || !slices.Contains(f.policyList, balancer.CostEffective) {
		return f.errorf("policies", f.policies, "the experiment compares Never (OR) with CostEffective (LB): name both")
	}
	start := time.Now()
	rep, second, err := paperExperiment(f, args, start, *withSecond, w)
	if err != nil {
		return err
	}
	printReport(w, rep)
	if f.out != "" {
		files, err := writeResults(f.out, rep)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "\nwrote %d files to %s: %s\n", len(files), f.out, strings.Join(files, ", "))
	}
	fmt.Fprintf(w, "(%d frames in %s, dataset and calibration included)\n", len(rep.Runs())*(f.reps+f.warmup),
		fmtDur(time.Duration(rep.Meta.WallSeconds*float64(time.Second))))
	if second != nil {
		fmt.Fprintln(w)
		printSecond(w, second, f.policyList)
		if f.out != "" {
			files, err := writeSecond(f.out, second)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "wrote %s to %s\n", strings.Join(files, ", "), f.out)
		}
	}
	if !rep.Images.Identical {
		return errors.New("bench paper: the policies drew different images (see above): the renderer is wrong")
	}
	if second != nil && !second.Images.Identical {
		return errors.New("bench paper: the policies drew different images in the second experiment (see above): the renderer is wrong")
	}
	return nil
}

// paperExperiment runs the experiment the flags name and returns its
// report, printing what it is about to do as it goes; with second, the
// paper's second experiment too, on the same renderer with its costs.
func paperExperiment(f *expFlags, args []string, start time.Time, second bool, w io.Writer) (*experiment.Report, *experiment.SecondReport, error) {
	c, reduced, err := openExp(f, paperDefaults)
	if err != nil {
		return nil, nil, err
	}
	defer c.Delete()
	caps := c.Caps()
	fmt.Fprintf(w, "The paper's experiment (Ahrens & Hansen 1995, §4) on %s\n  (%s, %s; %s)\n", caps.Renderer, caps.Version, caps.Vendor, start.Format("2006-01-02 15:04 MST"))
	printReductions(w, caps.Renderer, reduced)
	e, err := openExperiment(c, f)
	if err != nil {
		return nil, nil, err
	}
	defer e.Delete()
	fmt.Fprintf(w, "dataset: %s\n", e.Describe())
	for _, m := range e.DatasetWarnings(f.reduction) {
		warnf(w, "%s", m)
	}
	p := experiment.NewPaperRun(e, experiment.PaperConfig{Views: f.viewList, Lanes: f.lanesList, Policies: f.policyList, Warmup: f.warmup, Reps: f.reps,
		Calibration: f.calibration(), Command: strings.TrimSpace("bench paper " + strings.Join(args, " ")), Source: f.source(),
		Resolution: f.res, Reduction: f.reduction, Reduced: reduced, Start: start})

	calSteps := 0
	if _, err := os.Stat(f.calPath); err != nil || f.recalibrate {
		calSteps = len(f.lanesList) * len(f.viewList) // a guess: the file may lack this renderer too
	}
	pr := newProgress("paper", p.Frames()+calSteps)
	defer pr.clear()
	if err := p.LoadCosts(pr.stepN); err != nil {
		return nil, nil, err
	}
	pr.total = pr.done + p.Frames()
	costs, notes := p.Costs()
	fmt.Fprintf(w, "image %dx%d; views %s; lanes %s; %s; median of %d after %d warm-up; %s\n",
		e.Width, e.Height, strings.Join(viewNamesOf(f), " "), f.lanes, policiesLine(f.policyList), f.reps, f.warmup, stepsLine(f.lockstep))
	fmt.Fprintf(w, "costs: scan conversion %.1f, z-buffer %.1f iterations (the paper's: %d and %d on the CM-5)\n",
		costs[0].Cost, costs[1].Cost, experiment.PaperScanCost, experiment.PaperZCost)
	for _, n := range notes {
		fmt.Fprintf(w, "  %s\n", n)
	}
	fmt.Fprintln(w)
	if err := p.Measure(pr.stepN); err != nil {
		return nil, nil, err
	}
	pr.clear()
	rep := p.Report()
	if !second {
		return rep, nil, nil
	}
	cfg := secondConfig(f)
	pr = newProgress("second experiment", cfg.Frames())
	defer pr.clear()
	sr, err := experiment.RunSecond(e, cfg, experiment.Costs{Scan: costs[0].Cost, Z: costs[1].Cost}, pr.stepN)
	return rep, sr, err
}

func policiesLine(ps []balancer.Policy) string {
	var parts []string
	for _, p := range ps {
		if l := policyLabel(p); l != p.String() {
			parts = append(parts, fmt.Sprintf("%s = %v", l, p))
		} else {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, ", ")
}

// stepsLine says how the loops' iterations were dispatched (-lockstep).
func stepsLine(lockstep bool) string {
	if lockstep {
		return "one dispatch an iteration, as the paper's SIMD machine steps (-lockstep)"
	}
	return "iterations batched where the policy decides nothing (-lockstep=false)"
}
