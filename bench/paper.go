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
	"github.com/dpgl/dpgl/gpu"
)

func init() {
	commands["paper"] = command{runPaper, "the paper's experiment: Tables 1-4 for the balanced and unbalanced sets of a dataset, original vs load-balanced renderer"}
}

// paperDefaults: on a GPU the Lanes sweep runs from a few SMs' worth of
// invocations to one per processor (the paper's 32…512 CM-5 nodes); on a
// software renderer the experiment shrinks to finish in well under a minute on
// two cores.
var paperDefaults = expDefaults{
	lanes: "512,2048,8192,32768,all", policies: "Never,CostEffective,Bounded", out: "results", warmup: 1, reps: 5,
	softRes: 64, softSize: 256, softWarmup: 0, softReps: 3, softLanes: "256,all",
}

// frameKey names one measured configuration.
type frameKey struct {
	set    int
	view   string
	lanes  int
	policy balancer.Policy
}

// paperRun is one run of the experiment and everything its report needs.
type paperRun struct {
	f       *expFlags
	e       *experiment
	caps    gpu.Caps
	date    time.Time
	args    []string
	reduced []string
	costs   [2]loopCost
	notes   []string // where the costs came from

	frames []*frameResult
	index  map[frameKey]*frameResult
	ic     imageCheck
	wall   time.Duration
	files  []string
}

func (p *paperRun) frame(set int, v string, lanes int, pol balancer.Policy) *frameResult {
	return p.index[frameKey{set, v, lanes, pol}]
}

func (p *paperRun) has(pol balancer.Policy) bool { return slices.Contains(p.f.policyList, pol) }

func runPaper(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("paper", flag.ContinueOnError)
	f := addExpFlags(fs, "paper", paperDefaults)
	fs.Usage = usageFor(fs, "paper", "Re-runs the experiment of Ahrens & Hansen's §4 on the GPU: the balanced and unbalanced polygon sets of one\n"+
		"surface (default: the embedded perforator-jet field; no files needed) rendered at the paper's four views by the\n"+
		"original renderer (OR: Never in both loops), the load-balanced one (LB: CostEffective) and the improved policy\n"+
		"(Bounded), over a sweep of Lanes (the paper's 32…512 processors). Prints Table 1 (workloads), Tables 2 and 3 (frame\n"+
		"times, unbalanced and balanced, with LB's speedup and worst loss), Table 4 (phase times), the calibrated costs and\n"+
		"whether any iteration exceeded them, and the paper's headline figures beside ours; checks that every policy draws\n"+
		"the same image. Writes the tables (Markdown, CSV), paper.json, one PNG per set and view, and plots to -out.\n"+
		"The costs come from -calibration, or are calibrated first (see `bench calibrate`). On a software renderer\n"+
		"(llvmpipe) the defaults shrink to finish in well under a minute; the output says what was reduced.")
	if err := parseExp(fs, f, args); err != nil {
		return err
	}
	if !slices.Contains(f.policyList, balancer.Never) || !slices.Contains(f.policyList, balancer.CostEffective) {
		return f.errorf("policies", f.policies, "the experiment compares Never (OR) with CostEffective (LB): name both")
	}
	start := time.Now()
	c, reduced, err := openExp(f, paperDefaults)
	if err != nil {
		return err
	}
	defer c.Delete()
	p := &paperRun{f: f, caps: *c.Caps(), date: time.Now(), args: args, index: map[frameKey]*frameResult{}, reduced: reduced}
	fmt.Fprintf(w, "The paper's experiment (Ahrens & Hansen 1995, §4) on %s\n  (%s, %s; %s)\n", p.caps.Renderer, p.caps.Version, p.caps.Vendor, p.date.Format("2006-01-02 15:04 MST"))
	printReductions(w, p.caps.Renderer, p.reduced)
	if p.e, err = newExperiment(c, f); err != nil {
		return err
	}
	defer p.e.delete()
	fmt.Fprintf(w, "dataset: %s\n", p.e.describe())

	total := len(setNames) * len(f.viewList) * len(f.lanesList) * len(f.policyList)
	calSteps := 0
	if _, err := os.Stat(f.calPath); err != nil || f.recalibrate {
		calSteps = calibrationSteps(f) // a guess: the file may lack this renderer too
	}
	pr := newProgress("paper", total+calSteps)
	if p.costs, p.notes, err = loadOrCalibrate(p.e, f, pr); err != nil {
		pr.clear()
		return err
	}
	pr.total = pr.done + total
	cost := costs{Scan: p.costs[0].Cost, Z: p.costs[1].Cost}
	fmt.Fprintf(w, "image %dx%d; views %s; lanes %s; %s; median of %d after %d warm-up\n",
		p.e.w, p.e.h, strings.Join(viewNamesOf(f), " "), f.lanes, policiesLine(f.policyList), f.reps, f.warmup)
	fmt.Fprintf(w, "costs: scan conversion %.1f, z-buffer %.1f iterations (the paper's: %d and %d on the CM-5)\n", cost.Scan, cost.Z, paperScanCost, paperZCost)
	for _, n := range p.notes {
		fmt.Fprintf(w, "  %s\n", n)
	}
	fmt.Fprintln(w)

	if err := p.e.warmUp(f.viewList[0], f.lanesList[0], cost); err != nil {
		pr.clear()
		return err
	}
	for set := range setNames {
		for _, v := range f.viewList {
			for _, lanes := range f.lanesList {
				frs, err := p.e.measure(set, v, lanes, f.policyList, cost, f.warmup, f.reps, &p.ic)
				if err != nil {
					pr.clear()
					return err
				}
				for i := range frs {
					fr := &frs[i]
					p.frames = append(p.frames, fr)
					p.index[frameKey{set, v.Name, lanes, fr.Policy}] = fr
				}
				pr.stepN(len(frs), fmt.Sprintf("%s %s lanes %s", setNames[set], v.Name, lanesLabel(lanes)))
			}
		}
	}
	pr.clear()
	p.wall = time.Since(start)

	rep := p.report()
	rep.writeText(w)
	if f.out != "" {
		files, err := p.writeFiles(rep)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "\nwrote %d files to %s: %s\n", len(files), f.out, strings.Join(files, ", "))
	}
	fmt.Fprintf(w, "(%d frames in %s, dataset and calibration included)\n", len(p.frames)*(f.reps+f.warmup), fmtDur(time.Since(start)))
	if !rep.Images.Identical {
		return errors.New("bench paper: the policies drew different images (see above): the renderer is wrong")
	}
	return nil
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
