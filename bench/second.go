package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/bench/internal/experiment"
	"github.com/dpgl/dpgl/internal/fileio"
)

// secondFlagHelp is the paper command's -second flag.
const secondFlagHelp = "also run the paper's second experiment after the first: three more polygon sets (two outputs of a fluid-dynamics " +
	"simulation, one of a particle simulation; dataset.SecondExperiment) at -res, with the first experiment's costs; prints it and writes second.json"

// secondConfig is the second experiment of the paper command's flags.
func secondConfig(f *expFlags) experiment.SecondConfig {
	return experiment.SecondConfig{Resolution: f.res, Views: f.viewList, Lanes: f.lanesList, Policies: f.policyList, Warmup: f.warmup, Reps: f.reps}
}

// printSecond prints the second experiment's report: its sets, its frames,
// §4.1's costs, and the paper's figures beside ours.
func printSecond(w io.Writer, r *experiment.SecondReport, policies []balancer.Policy) {
	for _, t := range []*resultTable{secondIntro(r), secondFrames(r, policies), secondCosts(r), secondHeadline(r)} {
		t.writeText(w)
		fmt.Fprintln(w)
	}
}

func secondIntro(r *experiment.SecondReport) *resultTable {
	t := &resultTable{title: fmt.Sprintf("The paper's second experiment: three more polygon sets at %d^3, with the first experiment's costs (%.1f, %.1f iterations)",
		r.Resolution, r.Costs[0], r.Costs[1])}
	for _, s := range r.Sets {
		t.notes = append(t.notes, fmt.Sprintf("%s (%s), %s, %d triangles: %s", s.Name, s.Kind, s.Class, s.Triangles, s.Description))
	}
	t.notes = append(t.notes, fmt.Sprintf("(built in %.1f s)", r.DatasetSeconds))
	return t
}

// secondFrames is one row per set, view and Lanes value: the workloads,
// every policy's time and speedup over OR, and LB's balancing operations.
func secondFrames(r *experiment.SecondReport, policies []balancer.Policy) *resultTable {
	t := &resultTable{title: "Second experiment: frame time in ms (GPU median), speedup over OR", left: 4,
		header: []string{"set", "class", "view", "lanes", "scan max/avg", "z max/avg"}}
	var labels, others []string // every policy's; all but OR's
	for _, pol := range policies {
		labels = append(labels, policyLabel(pol))
		if pol != balancer.Never {
			others = append(others, policyLabel(pol))
		}
	}
	t.header = append(t.header, labels...)
	for _, l := range others {
		t.header = append(t.header, l+" speedup")
	}
	t.header = append(t.header, "balances LB")
	type key struct{ set, view, lanes string }
	byKey := map[key]map[string]experiment.SecondFrame{}
	var order []key
	for _, fr := range r.Frames {
		k := key{fr.Set, fr.View, fr.Lanes}
		if byKey[k] == nil {
			byKey[k] = map[string]experiment.SecondFrame{}
			order = append(order, k)
		}
		byKey[k][fr.Renderer] = fr
	}
	for i, k := range order {
		m := byKey[k]
		or := m["OR"]
		set, class, view := k.set, or.Class, k.view
		if i > 0 && order[i-1].set == k.set {
			set, class = "", ""
			if order[i-1].view == k.view {
				view = ""
			}
		}
		row := []string{set, class, view, k.lanes, fmt.Sprintf("%d/%.1f", or.ScanMax, or.ScanAvg), fmt.Sprintf("%d/%.1f", or.ZMax, or.ZAvg)}
		for _, l := range labels {
			row = append(row, fmt.Sprintf("%.1f", m[l].GPUMs))
		}
		for _, l := range others {
			row = append(row, fmtX(m[l].SpeedupOR))
		}
		lb := m["LB"]
		row = append(row, fmt.Sprintf("%d / %d", lb.Balances[0], lb.Balances[1]))
		t.add(row...)
	}
	return t
}

func secondCosts(r *experiment.SecondReport) *resultTable {
	t := &resultTable{title: "§4.1's costs of the second experiment's sets, iterations: the largest over its datasets (views and Lanes values) of\n" +
		"max gathering + max redistribution over min solution, LB's and Bounded's frames",
		left: 2, header: []string{"set", "loop", "cost", "overestimate", "datasets above", "at"}}
	for _, c := range r.CostCheck {
		v := fmt.Sprintf("%.1f", c.Cost)
		if c.Datasets == 0 {
			v = "- (no gathering)"
		}
		t.add(c.Set, c.Loop, v, fmt.Sprintf("%.1f", c.Overestimate), fmt.Sprintf("%d of %d", c.Over, c.Datasets), orDash(c.At))
	}
	t.notes = append(t.notes, `the paper: "These cost values were all less than the overestimates."`)
	return t
}

func secondHeadline(r *experiment.SecondReport) *resultTable {
	t := &resultTable{title: "The paper's second experiment and ours", left: 4, header: []string{"", "paper (CM-5)", "this run", "where"}}
	check := []string{"§4.1 costs against the overestimates", "all below", "all below", ""}
	if below, worst := r.CostsBelow(); !below {
		check[2] = "not all"
		check[3] = fmt.Sprintf("most: %s, %s, %.1f of %.1f", worst.Set, worst.Loop, worst.Cost, worst.Overestimate)
	}
	t.add(check...)
	for _, s := range r.Summary {
		paperSp, paperLoss := "-", "-"
		if s.Renderer == "LB" {
			paperSp = fmt.Sprintf("%g-%gx", r.Paper.SpeedupMin, r.Paper.SpeedupMax)
			paperLoss = fmt.Sprintf("%.0f%%", 100*r.Paper.WorstLoss)
		}
		t.add(s.Renderer+" speedup over OR, unbalanced set", paperSp, fmt.Sprintf("%.1f-%.1fx", s.Speedup.Min, s.Speedup.Max),
			fmt.Sprintf("%s to %s", s.Speedup.MinAt, s.Speedup.MaxAt))
		t.add(s.Renderer+"'s worst loss against OR, balanced sets", paperLoss, fmtLoss(s.Loss.Max), s.Loss.MaxAt)
	}
	if r.Images.Identical {
		t.notes = append(t.notes, fmt.Sprintf("every policy and Lanes value drew the same image and primitive ids: %d frames compared over %d images",
			r.Images.Compared, r.Images.Images))
	} else {
		t.notes = append(t.notes, "THE POLICIES DREW DIFFERENT IMAGES: "+strings.Join(r.Images.Differ, "; "))
	}
	t.notes = append(t.notes, fmt.Sprintf("(second experiment: %d frames in %.1f s, datasets included)", len(r.Frames)*(r.Reps+r.Warmup), r.WallSeconds))
	return t
}

// writeSecond writes second.json to dir.
func writeSecond(dir string, r *experiment.SecondReport) ([]string, error) {
	out, err := fileio.NewBatch(dir)
	if err != nil {
		return nil, fmt.Errorf("bench: -out %s: %w", dir, err)
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	var files []string
	if err := writeFile(out, "second.json", append(data, '\n'), &files); err != nil {
		return nil, err
	}
	if err := out.Commit(); err != nil {
		return nil, fmt.Errorf("bench: writing results: %w", err)
	}
	return files, nil
}
