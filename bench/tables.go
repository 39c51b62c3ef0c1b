package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/dpgl/dpgl/balancer"
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

// buildTables lays the report out as the paper's tables.
func (r *paperReport) buildTables() {
	p := r.p
	f := p.f

	t1 := &resultTable{title: "Table 1: maximum and average workload (scan conversion: scanlines per triangle; z-buffer: pixels per span)",
		header: []string{"view", "balanced scan max", "avg", "z max", "avg", "unbalanced scan max", "avg", "z max", "avg"}, left: 1}
	n := len(f.viewList)
	for i := 0; i < n; i++ {
		b, u := r.Table1[balancedSet*n+i], r.Table1[unbalancedSet*n+i]
		t1.add(b.View, fmt.Sprint(b.ScanMax), fmt.Sprintf("%.1f", b.ScanAvg), fmt.Sprint(b.ZMax), fmt.Sprintf("%.1f", b.ZAvg),
			fmt.Sprint(u.ScanMax), fmt.Sprintf("%.1f", u.ScanAvg), fmt.Sprint(u.ZMax), fmt.Sprintf("%.1f", u.ZAvg))
	}
	t1.notes = append(t1.notes, "averages over each loop's processors: set-up triangles for scan conversion, spans for the z-buffer",
		"paper (its perforator, CM-5): balanced (0,0) 8 5 7 1, M(45,45) 21 1 21 3; unbalanced (0,0) 231 6 9 1, M(0,0) 512 8 14 1, M(45,45) 468 4 119 2")

	t2 := r.timeTable(unbalancedSet, "Table 2: rendering the unbalanced set")
	if sp, ok := r.Summary.UnbalancedSpeedup["LB"]; ok {
		t2.notes = append(t2.notes, fmt.Sprintf("LB is %.1fx (%s) to %.1fx (%s) faster than OR on the unbalanced set (paper: 8 to 33x)", sp.Min, sp.MinAt, sp.Max, sp.MaxAt))
	}
	if sp, ok := r.Summary.UnbalancedSpeedup["Bounded"]; ok {
		t2.notes = append(t2.notes, fmt.Sprintf("Bounded: %.1fx (%s) to %.1fx (%s)", sp.Min, sp.MinAt, sp.Max, sp.MaxAt))
	}
	t2.notes = append(t2.notes, fmt.Sprintf("LB on the unbalanced set takes at most %.2fx the time of OR on the balanced set (%s; paper: within 1.7x)",
		r.Summary.LBVsBalancedOR.Max, r.Summary.LBVsBalancedOR.MaxAt))

	t3 := r.timeTable(balancedSet, "Table 3: rendering the balanced set")
	if l, ok := r.Summary.BalancedLoss["LB"]; ok {
		t3.notes = append(t3.notes, fmt.Sprintf("LB's worst loss against OR on the balanced set: %s (%s; paper: 27%%); best: %s (%s)", fmtLoss(l.Max), l.MaxAt, fmtLoss(l.Min), l.MinAt))
	}
	if l, ok := r.Summary.BalancedLoss["Bounded"]; ok {
		t3.notes = append(t3.notes, fmt.Sprintf("Bounded's worst loss: %s (%s); best: %s (%s)", fmtLoss(l.Max), l.MaxAt, fmtLoss(l.Min), l.MinAt))
	}
	bs := r.Summary.BalancedSet
	if bs.FramesBalanced == 0 {
		t3.notes = append(t3.notes, fmt.Sprintf("LB did not balance the balanced set in any of its %d frames: MAX(workload) - avg, which bounds what a redistribution can save, was at most %d iterations, "+
			"never above the costs (%.1f, %.1f); LB's loss is its %d information gatherings",
			bs.Frames, bs.MaxSavingBound, r.Costs[0].Cost, r.Costs[1].Cost, bs.Gathers))
	} else {
		t3.notes = append(t3.notes, fmt.Sprintf("LB balanced the balanced set in %d of its %d frames, each time because the savings exceeded the cost:", bs.FramesBalanced, bs.Frames))
		for _, s := range bs.Balanced {
			t3.notes = append(t3.notes, "  "+s)
		}
	}

	t4 := &resultTable{title: fmt.Sprintf("Table 4: phase times of LB's loops on the unbalanced set, lanes %s, all views, ms", r.Table4.Lanes),
		header: []string{"", "scan gather", "redistribution", "solution", "z-buffer gather", "redistribution", "solution"}, left: 1}
	l4 := r.Table4.Loops
	for _, row := range []struct {
		name string
		get  func(phaseJSON) string
	}{
		{"minimum", func(p phaseJSON) string { return fmt.Sprintf("%.4f", p.MinMs) }},
		{"maximum", func(p phaseJSON) string { return fmt.Sprintf("%.4f", p.MaxMs) }},
		{"average", func(p phaseJSON) string { return fmt.Sprintf("%.4f", p.AvgMs) }},
		{"count", func(p phaseJSON) string { return fmt.Sprint(p.N) }},
	} {
		t4.add(row.name, row.get(l4[0].Gather), row.get(l4[0].Redistribute), row.get(l4[0].Solve), row.get(l4[1].Gather), row.get(l4[1].Redistribute), row.get(l4[1].Solve))
	}
	t4.notes = append(t4.notes, "each phase lasts from its first GPU timestamp to the next phase's, so a gathering includes the read-back and the decision on the host",
		"paper (512 CM-5 processors, ms): scan 0.2-6.4 / 58-70 / 9.8-310, z-buffer 1.1-9.3 / 59-70 / 3.0-46")

	tc := &resultTable{title: "Cost overestimates (§4.1), in iterations of the solution phase",
		header: []string{"loop", "cost", "paper", "from", "largest measured", "where", "frames over / gathered"}, left: 1}
	for i, cc := range r.CostCheck {
		where := cc.At
		if where == "" {
			where = "-"
		}
		tc.add(cc.Loop, fmt.Sprintf("%.1f", cc.Cost), fmt.Sprint(cc.Paper), r.Costs[i].Source, fmt.Sprintf("%.1f", cc.MaxCost), where, fmt.Sprintf("%d / %d", cc.Over, cc.Gathered))
	}
	for i, cc := range r.CostCheck {
		if cc.Exceeded {
			tc.notes = append(tc.notes, fmt.Sprintf("%s: an iteration cost %.1f iterations, more than the overestimate %.1f (the balancer warned): recalibrate with `bench calibrate`", cc.Loop, cc.MaxCost, cc.Cost))
		} else if cc.Gathered > 0 {
			tc.notes = append(tc.notes, fmt.Sprintf("%s: no iteration cost more than the overestimate", cc.Loop))
		}
		if cc.CannotPay {
			tc.notes = append(tc.notes, fmt.Sprintf("%s: WARNING: the overestimate %.1f is at least this run's longest loop (%d iterations), so balancing could never pay and LB and Bounded ran as Figure 1: the data are too small for balancing, or the calibration (%s) is stale or was measured under load (-calibrate measures it again)", cc.Loop, cc.Cost, cc.Longest, r.Costs[i].Source))
		}
		if d := r.Costs[i].Detail; d.Runs > 0 {
			tc.notes = append(tc.notes, fmt.Sprintf("%s calibration: (gathering %s + redistribution %s ms) / solution %s ms + %g, in the calibration run that set it", cc.Loop,
				fmtMs(nsDur(d.MaxGatherNs)), fmtMs(nsDur(d.MaxRedistributeNs)), fmtMs(nsDur(d.MinSolveNs)), d.Margin))
		}
	}

	th := &resultTable{title: "The paper's headline figures and ours", header: []string{"", "paper", "this run"}, left: 3}
	for _, h := range r.Headline {
		th.add(h.What, h.Paper, h.Ours)
	}

	ti := &resultTable{title: "Images"}
	if r.Images.Identical {
		ti.notes = append(ti.notes, fmt.Sprintf("every policy and Lanes value drew the same image and primitive ids: %d frames compared over %d images (%d sets x %d views)",
			r.Images.Compared, r.Images.Images, len(setNames), len(f.viewList)))
	} else {
		ti.notes = append(ti.notes, "THE IMAGES DIFFER between policies or Lanes values:")
		ti.notes = append(ti.notes, r.Images.Differ...)
	}
	r.tables = []*resultTable{t1, t2, t3, t4, tc, th, ti}
}

// timeTable is Table 2 or 3: frame time per view and Lanes value under
// each policy.
func (r *paperReport) timeTable(set int, title string) *resultTable {
	p := r.p
	f := p.f
	t := &resultTable{title: fmt.Sprintf("%s, frame time in ms: GPU (wall), median of %d", title, f.reps), header: []string{"view", "lanes"}, left: 2}
	for _, pol := range f.policyList {
		t.header = append(t.header, policyLabel(pol))
	}
	for _, pol := range f.policyList {
		if pol != balancer.Never {
			t.header = append(t.header, policyLabel(pol)+" speedup")
		}
	}
	hasBounded := p.has(balancer.Bounded)
	t.header = append(t.header, "iterations OR", "iterations LB", "balances LB")
	if hasBounded {
		t.header = append(t.header, "gathers LB / Bounded")
	}
	var raised []string
	for _, v := range f.viewList {
		for li, l := range f.lanesList {
			name := v.Name
			if li > 0 {
				name = ""
			}
			row := []string{name, lanesLabel(l)}
			or := p.frame(set, v.Name, l, balancer.Never)
			for _, pol := range f.policyList {
				fr := p.frame(set, v.Name, l, pol)
				row = append(row, fmt.Sprintf("%s (%s)", fmtMs(fr.Time.Median), fmtMs(fr.Time.Wall)))
				if s := lanesRan(fr); s != "" && pol == balancer.Never {
					raised = append(raised, fmt.Sprintf("%s lanes %s: %s", v.Name, lanesLabel(l), s))
				}
			}
			for _, pol := range f.policyList {
				if pol != balancer.Never {
					row = append(row, fmtX(ratio(or.Time.Median, p.frame(set, v.Name, l, pol).Time.Median)))
				}
			}
			lb := p.frame(set, v.Name, l, balancer.CostEffective)
			row = append(row, fmt.Sprintf("%d / %d", or.Scan.Iterations, or.Z.Iterations), fmt.Sprintf("%d / %d", lb.Scan.Iterations, lb.Z.Iterations),
				fmt.Sprintf("%d / %d", lb.Scan.Balances, lb.Z.Balances))
			if hasBounded {
				b := p.frame(set, v.Name, l, balancer.Bounded)
				row = append(row, fmt.Sprintf("%d / %d", lb.Scan.Gathers+lb.Z.Gathers, b.Scan.Gathers+b.Z.Gathers))
			}
			t.add(row...)
		}
	}
	t.notes = append(t.notes, "iterations and balances: scan conversion / z-buffer"+r.passNote())
	if f.reps > 1 {
		spread := 0.0
		for _, fr := range p.frames {
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

// visibility32 names the z-buffer scheme of drivers without 64-bit atomics.
const visibility32 = "32-bit: depths, then ids by search"

func (r *paperReport) passNote() string {
	if r.Params.Visibility == visibility32 {
		return " (without 64-bit atomics the z-buffer's tasks run a second time, once over all tasks by load-balancing search, to keep each pixel's lowest primitive id at its depth: the counts are the loop's, its time includes both)"
	}
	return ""
}
