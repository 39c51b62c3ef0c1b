package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/bench/internal/experiment"
)

// resultTable is one table of a report, printed as aligned text for the
// terminal and as Markdown for the results folder.
type resultTable struct {
	title  string
	header []string
	rows   [][]string
	left   int // leading columns aligned left
	notes  []string
}

func (t *resultTable) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *resultTable) widths() []int {
	w := make([]int, len(t.header))
	for i, h := range t.header {
		w[i] = utf8.RuneCountInString(h)
	}
	for _, r := range t.rows {
		for i, c := range r {
			w[i] = max(w[i], utf8.RuneCountInString(c))
		}
	}
	return w
}

func pad(s string, n int, left bool) string {
	fill := strings.Repeat(" ", max(0, n-utf8.RuneCountInString(s)))
	if left {
		return s + fill
	}
	return fill + s
}

func (t *resultTable) writeText(w io.Writer) {
	if t.title != "" {
		fmt.Fprintln(w, t.title)
	}
	if len(t.header) > 0 {
		wd := t.widths()
		line := func(cells []string) {
			var b strings.Builder
			for i, c := range cells {
				if i > 0 {
					b.WriteString("  ")
				}
				b.WriteString(pad(c, wd[i], i < t.left))
			}
			fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
		}
		line(t.header)
		for _, r := range t.rows {
			line(r)
		}
	}
	for _, n := range t.notes {
		fmt.Fprintf(w, "  %s\n", n)
	}
}

func (t *resultTable) writeMarkdown(w io.Writer) {
	fmt.Fprintf(w, "### %s\n\n", t.title)
	if len(t.header) > 0 {
		cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
		var b strings.Builder
		b.WriteString("|")
		for _, h := range t.header {
			b.WriteString(" " + cell(h) + " |")
		}
		b.WriteString("\n|")
		for i := range t.header {
			if i < t.left {
				b.WriteString(" :--- |")
			} else {
				b.WriteString(" ---: |")
			}
		}
		b.WriteString("\n")
		for _, r := range t.rows {
			b.WriteString("|")
			for _, c := range r {
				b.WriteString(" " + cell(c) + " |")
			}
			b.WriteString("\n")
		}
		fmt.Fprintf(w, "%s\n", b.String())
	}
	for _, n := range t.notes {
		fmt.Fprintf(w, "- %s\n", n)
	}
	if len(t.notes) > 0 {
		fmt.Fprintln(w)
	}
}

// printReport prints the report as the terminal shows it: its tables,
// then the balancer's warnings.
func printReport(w io.Writer, r *experiment.Report) {
	for _, t := range reportTables(r) {
		t.writeText(w)
		fmt.Fprintln(w)
	}
	if len(r.Warnings) > 0 {
		fmt.Fprintln(w, "balancer warnings:")
		for _, m := range r.Warnings {
			fmt.Fprintf(w, "  %s\n", m)
		}
	}
}

// reportTables lays the report out as the paper's tables.
func reportTables(r *experiment.Report) []*resultTable {
	return []*resultTable{table1(r), table2(r), table3(r), table4(r), costTable(r), headlineTable(r), imagesTable(r)}
}

func table1(r *experiment.Report) *resultTable {
	t := &resultTable{title: "Table 1: maximum and average workload (scan conversion: scanlines per triangle; z-buffer: pixels per span)",
		header: []string{"view", "balanced scan max", "avg", "z max", "avg", "unbalanced scan max", "avg", "z max", "avg"}, left: 1}
	n := len(r.Views())
	for i := 0; i < n; i++ {
		b, u := r.Table1[balancedSet*n+i], r.Table1[unbalancedSet*n+i]
		t.add(b.View, fmt.Sprint(b.ScanMax), fmt.Sprintf("%.1f", b.ScanAvg), fmt.Sprint(b.ZMax), fmt.Sprintf("%.1f", b.ZAvg),
			fmt.Sprint(u.ScanMax), fmt.Sprintf("%.1f", u.ScanAvg), fmt.Sprint(u.ZMax), fmt.Sprintf("%.1f", u.ZAvg))
	}
	t.notes = append(t.notes, "averages over each loop's processors: set-up triangles for scan conversion, spans for the z-buffer",
		"paper (its perforator, CM-5): balanced (0,0) 8 5 7 1, M(45,45) 21 1 21 3; unbalanced (0,0) 231 6 9 1, M(0,0) 512 8 14 1, M(45,45) 468 4 119 2")
	return t
}

func table2(r *experiment.Report) *resultTable {
	t := timeTable(r, unbalancedSet, "Table 2: rendering the unbalanced set")
	if sp, ok := r.Summary.UnbalancedSpeedup["LB"]; ok {
		t.notes = append(t.notes, fmt.Sprintf("LB is %.1fx (%s) to %.1fx (%s) faster than OR on the unbalanced set (paper: 8 to 33x)", sp.Min, sp.MinAt, sp.Max, sp.MaxAt))
	}
	if sp, ok := r.Summary.UnbalancedSpeedup["Bounded"]; ok {
		t.notes = append(t.notes, fmt.Sprintf("Bounded: %.1fx (%s) to %.1fx (%s)", sp.Min, sp.MinAt, sp.Max, sp.MaxAt))
	}
	t.notes = append(t.notes, fmt.Sprintf("LB on the unbalanced set takes at most %.2fx the time of OR on the balanced set (%s; paper: within 1.7x)",
		r.Summary.LBVsBalancedOR.Max, r.Summary.LBVsBalancedOR.MaxAt))
	return t
}

func table3(r *experiment.Report) *resultTable {
	t := timeTable(r, balancedSet, "Table 3: rendering the balanced set")
	if l, ok := r.Summary.BalancedLoss["LB"]; ok {
		t.notes = append(t.notes, fmt.Sprintf("LB's worst loss against OR on the balanced set: %s (%s; paper: 27%%); best: %s (%s)", fmtLoss(l.Max), l.MaxAt, fmtLoss(l.Min), l.MinAt))
	}
	if l, ok := r.Summary.BalancedLoss["Bounded"]; ok {
		t.notes = append(t.notes, fmt.Sprintf("Bounded's worst loss: %s (%s); best: %s (%s)", fmtLoss(l.Max), l.MaxAt, fmtLoss(l.Min), l.MinAt))
	}
	bs := r.Summary.BalancedSet
	if bs.FramesBalanced == 0 {
		t.notes = append(t.notes, fmt.Sprintf("LB did not balance the balanced set in any of its %d frames: MAX(workload) - avg, which bounds what a redistribution can save, was at most %d iterations, "+
			"never above the costs (%.1f, %.1f); LB's loss is its %d information gatherings",
			bs.Frames, bs.MaxSavingBound, r.Costs[0].Cost, r.Costs[1].Cost, bs.Gathers))
	} else {
		t.notes = append(t.notes, fmt.Sprintf("LB balanced the balanced set in %d of its %d frames, each time because the savings exceeded the cost:", bs.FramesBalanced, bs.Frames))
		for _, s := range bs.Balanced {
			t.notes = append(t.notes, "  "+s)
		}
	}
	return t
}

var fmtLoss = experiment.FmtLoss

func fmtX(x float64) string { return fmt.Sprintf("%.1fx", x) }

// table4 is the phase times of LB's loops. The z-buffer's solution column
// is the paper's loop's; the primitive-id pass of drivers without 64-bit
// atomics, which the paper's machine did not need, is a column of its own.
func table4(r *experiment.Report) *resultTable {
	t := &resultTable{title: fmt.Sprintf("Table 4: phase times of LB's loops on the unbalanced set, lanes %s, all views, ms", r.Table4.Lanes),
		header: []string{"", "scan gather", "redistribution", "solution", "z-buffer gather", "redistribution", "solution"}, left: 1}
	ids := r.Table4.IDPassSolve
	if ids != nil {
		t.header = append(t.header, "z-buffer id pass")
	}
	l4 := r.Table4.Loops
	for _, row := range []struct {
		name string
		get  func(experiment.Phase) string
	}{
		{"minimum", func(p experiment.Phase) string { return fmt.Sprintf("%.4f", p.MinMs) }},
		{"maximum", func(p experiment.Phase) string { return fmt.Sprintf("%.4f", p.MaxMs) }},
		{"average", func(p experiment.Phase) string { return fmt.Sprintf("%.4f", p.AvgMs) }},
		{"count", func(p experiment.Phase) string { return fmt.Sprint(p.N) }},
	} {
		cells := []string{row.name, row.get(l4[0].Gather), row.get(l4[0].Redistribute), row.get(l4[0].Solve), row.get(l4[1].Gather), row.get(l4[1].Redistribute), row.get(l4[1].Solve)}
		if ids != nil {
			cells = append(cells, row.get(*ids))
		}
		t.add(cells...)
	}
	t.notes = append(t.notes, "each phase lasts from its first GPU timestamp to the next phase's, so a gathering includes the read-back and the decision on the host")
	if ids != nil {
		t.notes = append(t.notes, "the z-buffer's solution is its depth pass alone, the paper's loop; where a batch's keys outgrew a storage block, each pixel's lowest primitive id at its depth "+
			"was found by a second pass over all tasks by load-balancing search (no gathering, no redistribution), timed in the id pass column")
	}
	t.notes = append(t.notes, "paper (512 CM-5 processors, ms): scan 0.2-6.4 / 58-70 / 9.8-310, z-buffer 1.1-9.3 / 59-70 / 3.0-46")
	return t
}

// costTable is §4.1's check of the overestimates: per dataset, the
// paper's rule, and per iteration, the balancer's warning.
func costTable(r *experiment.Report) *resultTable {
	t := &resultTable{title: "Cost overestimates (§4.1), in iterations of the solution phase",
		header: []string{"loop", "cost", "paper", "from", "largest dataset cost", "where", "datasets over / gathered", "largest iteration cost", "frames over / gathered"}, left: 1}
	for i, cc := range r.CostCheck {
		t.add(cc.Loop, fmt.Sprintf("%.1f", cc.Cost), fmt.Sprint(cc.Paper), r.Costs[i].Source, fmt.Sprintf("%.1f", cc.DatasetCost), orDash(cc.DatasetAt),
			fmt.Sprintf("%d / %d", cc.DatasetsOver, cc.Datasets), fmt.Sprintf("%.1f", cc.MaxCost), fmt.Sprintf("%d / %d", cc.Over, cc.Gathered))
	}
	t.notes = append(t.notes, "a dataset is a set at a view and Lanes value under LB and Bounded; its cost is the paper's: (longest gathering + longest redistribution) / shortest solution phase "+
		"over its iterations, the median over the repetitions as in the calibration; an iteration's cost is its own gathering and redistribution over its solution phase, "+
		"which the balancer warns of")
	for i, cc := range r.CostCheck {
		t.notes = append(t.notes, costNotes(cc, r.Costs[i])...)
	}
	return t
}

func costNotes(cc experiment.CostCheck, lc experiment.LoopCost) []string {
	var notes []string
	switch {
	case cc.Exceeded:
		notes = append(notes, fmt.Sprintf("%s: %d of %d datasets cost more than the overestimate %.1f, at most %.1f iterations (%s): recalibrate with `bench calibrate`",
			cc.Loop, cc.DatasetsOver, cc.Datasets, cc.Cost, cc.DatasetCost, cc.DatasetAt))
	case cc.Datasets > 0:
		notes = append(notes, fmt.Sprintf("%s: no dataset cost more than the overestimate", cc.Loop))
	}
	if cc.IterationExceeded {
		notes = append(notes, fmt.Sprintf("%s: an iteration cost %.1f iterations, more than the overestimate %.1f (%s; the balancer warned)", cc.Loop, cc.MaxCost, cc.Cost, cc.At))
	}
	if cc.CannotPay {
		notes = append(notes, fmt.Sprintf("%s: WARNING: the overestimate %.1f is at least this run's longest loop (%d iterations), so balancing could never pay and LB and Bounded ran as Figure 1: the data are too small for balancing, or the calibration (%s) is stale or was measured under load (-calibrate measures it again)", cc.Loop, cc.Cost, cc.Longest, lc.Source))
	}
	if d := lc.Detail; d.Runs > 0 {
		notes = append(notes, fmt.Sprintf("%s calibration: (gathering %s + redistribution %s ms) / solution %s ms + %g, in the calibration run that set it", cc.Loop,
			fmtMs(nsDur(d.MaxGatherNs)), fmtMs(nsDur(d.MaxRedistributeNs)), fmtMs(nsDur(d.MinSolveNs)), d.Margin))
	}
	return notes
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func headlineTable(r *experiment.Report) *resultTable {
	t := &resultTable{title: "The paper's headline figures and ours", header: []string{"", "paper", "this run"}, left: 3}
	for _, h := range r.Headline {
		t.add(h.What, h.Paper, h.Ours)
	}
	return t
}

func imagesTable(r *experiment.Report) *resultTable {
	t := &resultTable{title: "Images"}
	if r.Images.Identical {
		t.notes = append(t.notes, fmt.Sprintf("every policy and Lanes value drew the same image and primitive ids: %d frames compared over %d images (%d sets x %d views)",
			r.Images.Compared, r.Images.Images, len(setNames), len(r.Views())))
	} else {
		t.notes = append(t.notes, "THE IMAGES DIFFER between policies or Lanes values:")
		t.notes = append(t.notes, r.Images.Differ...)
	}
	return t
}

// timeTable is Table 2 or 3: frame time per view and Lanes value under
// each policy.
func timeTable(r *experiment.Report, set int, title string) *resultTable {
	t := &resultTable{title: fmt.Sprintf("%s, frame time in ms: GPU (wall), median of %d", title, r.Params.Reps), header: []string{"view", "lanes"}, left: 2}
	for _, pol := range r.Policies() {
		t.header = append(t.header, policyLabel(pol))
	}
	for _, pol := range r.Policies() {
		if pol != balancer.Never {
			t.header = append(t.header, policyLabel(pol)+" speedup")
		}
	}
	hasBounded := slices.Contains(r.Policies(), balancer.Bounded)
	t.header = append(t.header, "iterations OR", "iterations LB", "balances LB")
	if hasBounded {
		t.header = append(t.header, "gathers LB / Bounded")
	}
	var raised []string
	for _, v := range r.Views() {
		for li, l := range r.Lanes() {
			name := v.Name
			if li > 0 {
				name = ""
			}
			t.add(timeRow(r, set, v.Name, l, name, hasBounded, &raised)...)
		}
	}
	t.notes = append(t.notes, "iterations and balances: scan conversion / z-buffer"+passNote(r))
	if r.Params.Reps > 1 {
		spread := 0.0
		for _, fr := range r.Runs() {
			if fr.Set == set {
				spread = max(spread, fr.Time.Spread())
			}
		}
		t.notes = append(t.notes, fmt.Sprintf("the repetitions of a frame spread by up to %.0f%% of their median ((max-min)/median, in table%d.csv): smaller differences are noise", 100*spread, 2+set))
	}
	if len(raised) > 0 {
		t.notes = append(t.notes, "the balancer raised Lanes (software renderer: at most 4096 processors a lane): "+strings.Join(raised, "; "))
	}
	return t
}

// timeRow is one view and Lanes value of Table 2 or 3; raised collects
// where the balancer raised Lanes.
func timeRow(r *experiment.Report, set int, view string, l int, name string, hasBounded bool, raised *[]string) []string {
	row := []string{name, lanesLabel(l)}
	or := r.Frame(set, view, l, balancer.Never)
	for _, pol := range r.Policies() {
		fr := r.Frame(set, view, l, pol)
		row = append(row, fmt.Sprintf("%s (%s)", fmtMs(fr.Time.Median), fmtMs(fr.Time.Wall)))
		if s := fr.LanesRan(); s != "" && pol == balancer.Never {
			*raised = append(*raised, fmt.Sprintf("%s lanes %s: %s", view, lanesLabel(l), s))
		}
	}
	for _, pol := range r.Policies() {
		if pol != balancer.Never {
			row = append(row, fmtX(ratio(or.Time.Median, r.Frame(set, view, l, pol).Time.Median)))
		}
	}
	lb := r.Frame(set, view, l, balancer.CostEffective)
	row = append(row, fmt.Sprintf("%d / %d", or.Scan.Iterations, or.Z.Iterations), fmt.Sprintf("%d / %d", lb.Scan.Iterations, lb.Z.Iterations),
		fmt.Sprintf("%d / %d", lb.Scan.Balances, lb.Z.Balances))
	if hasBounded {
		b := r.Frame(set, view, l, balancer.Bounded)
		row = append(row, fmt.Sprintf("%d / %d", lb.Scan.Gathers+lb.Z.Gathers, b.Scan.Gathers+b.Z.Gathers))
	}
	return row
}

func passNote(r *experiment.Report) string {
	if r.Params.Visibility == experiment.Visibility32 {
		return " (without 64-bit atomics the depth test keeps each pixel's least (depth, primitive id) in 32-bit words: a depth filter, then the key of a test that passes it swapped in by compare-and-swap; one pass)"
	}
	return ""
}
