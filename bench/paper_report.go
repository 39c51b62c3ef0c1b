package main

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"time"

	"github.com/dpgl/dpgl/balancer"
)

// paperReport is everything the experiment found, as paper.json holds it;
// the tables are printed from it.
type paperReport struct {
	Meta      reportMeta     `json:"meta"`
	Params    reportParams   `json:"parameters"`
	Costs     [2]loopCost    `json:"costs"`
	CostNotes []string       `json:"costNotes"`
	Table1    []table1Row    `json:"table1"`
	Frames    []frameJSON    `json:"frames"` // Tables 2 (unbalanced) and 3 (balanced)
	Table4    table4         `json:"table4"`
	CostCheck [2]costCheck   `json:"costCheck"`
	Summary   reportSummary  `json:"summary"`
	Headline  []headlineRow  `json:"headline"`
	Images    imageSummary   `json:"images"`
	Warnings  []string       `json:"balancerWarnings"`
	Files     []string       `json:"files"`
	p         *paperRun      // not exported
	tables    []*resultTable // built once, printed as text and Markdown
}

type reportMeta struct {
	Command     string   `json:"command"`
	Renderer    string   `json:"glRenderer"`
	Vendor      string   `json:"glVendor"`
	Driver      string   `json:"glVersion"`
	GLSL        string   `json:"glslVersion"`
	Platform    string   `json:"platform"`
	Software    bool     `json:"softwareRenderer"`
	Atomic64    bool     `json:"atomic64"`
	Date        string   `json:"date"`
	GoVersion   string   `json:"goVersion"`
	Reduced     []string `json:"reducedForSoftware,omitempty"`
	WallSeconds float64  `json:"wallSeconds"`
}

type reportParams struct {
	Dataset             string   `json:"dataset"`
	Source              string   `json:"source"` // field name or volume path
	Resolution          int      `json:"resolution"`
	Iso                 float32  `json:"isovalue"`
	Reduction           int      `json:"reduction"`
	BalancedTriangles   int      `json:"balancedTriangles"`
	UnbalancedTriangles int      `json:"unbalancedTriangles"`
	DatasetSeconds      float64  `json:"datasetSeconds"`
	Width               int      `json:"width"`
	Height              int      `json:"height"`
	Views               []string `json:"views"`
	Lanes               []string `json:"lanes"`
	Policies            []string `json:"policies"`
	Reps                int      `json:"reps"`
	Warmup              int      `json:"warmup"`
	Visibility          string   `json:"visibility"`
	Calibration         string   `json:"calibrationFile"`
}

type table1Row struct {
	Set            string  `json:"set"`
	View           string  `json:"view"`
	ScanMax        uint32  `json:"scanMax"`
	ScanAvg        float64 `json:"scanAvg"`
	ZMax           uint32  `json:"zbufferMax"`
	ZAvg           float64 `json:"zbufferAvg"`
	ScanProcessors int     `json:"scanProcessors"` // set-up triangles
	ZProcessors    int     `json:"zbufferProcessors"`
}

type phaseJSON struct {
	N     int     `json:"n"`
	MinMs float64 `json:"minMs"`
	MaxMs float64 `json:"maxMs"`
	AvgMs float64 `json:"avgMs"`
}

func phaseOf(t balancer.PhaseTimes) phaseJSON {
	return phaseJSON{N: t.N, MinMs: ms(t.Min), MaxMs: ms(t.Max), AvgMs: ms(t.Avg())}
}

type loopJSON struct {
	Processors     int                  `json:"processors"`
	Lanes          int                  `json:"lanes"`
	MaxWorkload    uint32               `json:"maxWorkload"`
	AvgWorkload    float64              `json:"avgWorkload"`
	Iterations     int                  `json:"iterations"`
	Passes         int                  `json:"passes"`
	Balances       int                  `json:"balances"`
	Gathers        int                  `json:"gathers"`
	Counts         int                  `json:"counts"`
	Savings        uint64               `json:"savings"`
	CostIterations float64              `json:"costIterations"`
	MaxCost        float64              `json:"maxMeasuredCost"`
	Phases         map[string]phaseJSON `json:"phases"`
}

func loopOf(l *loopRun) loopJSON {
	return loopJSON{Processors: l.Processors, Lanes: l.Lanes, MaxWorkload: l.Start.MaxWorkload, AvgWorkload: l.StartAvg(),
		Iterations: l.Iterations, Passes: l.Passes, Balances: l.Balances, Gathers: l.Gathers, Counts: l.Counts, Savings: l.Savings,
		CostIterations: l.CostIterations, MaxCost: l.MaxCost,
		Phases: map[string]phaseJSON{"count": phaseOf(l.Count), "gather": phaseOf(l.Gather), "redistribute": phaseOf(l.Redistribute), "solve": phaseOf(l.Solve)}}
}

type frameJSON struct {
	Set         string     `json:"set"`
	View        string     `json:"view"`
	Policy      string     `json:"policy"`
	Renderer    string     `json:"renderer"` // OR, LB, Bounded
	Lanes       string     `json:"lanes"`
	GPUMs       float64    `json:"gpuMedianMs"`
	GPUMinMs    float64    `json:"gpuMinMs"`
	GPUMaxMs    float64    `json:"gpuMaxMs"`
	WallMs      float64    `json:"wallMedianMs"`
	Spread      float64    `json:"spread"`
	Reps        int        `json:"reps"`
	SpeedupOR   float64    `json:"speedupOverOR"`
	StagesMs    [4]float64 `json:"stagesMs"` // setup, scan conversion, z-buffer, shading
	Spans       int64      `json:"spans"`
	Pixels      int64      `json:"pixels"`
	Scan        loopJSON   `json:"scanConversion"`
	Z           loopJSON   `json:"zbuffer"`
	SameImage   bool       `json:"sameImage"`
	DiffPixels  int        `json:"differingPixels"`
	LanesRaised string     `json:"lanesRaised,omitempty"`
}

type table4 struct {
	Set    string       `json:"set"`
	Policy string       `json:"policy"`
	Lanes  string       `json:"lanes"`
	Loops  [2]loopPhase `json:"loops"`
}

type loopPhase struct {
	Loop         string    `json:"loop"`
	Gather       phaseJSON `json:"gather"`
	Redistribute phaseJSON `json:"redistribute"`
	Solve        phaseJSON `json:"solve"`
}

type costCheck struct {
	Loop     string  `json:"loop"`
	Cost     float64 `json:"costIterations"`
	Paper    float64 `json:"paperCost"`
	MaxCost  float64 `json:"maxMeasuredCost"`
	At       string  `json:"at,omitempty"`
	Exceeded bool    `json:"exceeded"`
	Over     int     `json:"framesOver"`
	Gathered int     `json:"framesGathered"`
	// Longest is the largest MAX(workload) of the loop in this run: a
	// redistribution saves less than that, so a cost at or above it means
	// LB and Bounded can never balance and run as Figure 1 (a stale
	// calibration, or one measured under load).
	Longest   uint32 `json:"longestRunIterations"`
	CannotPay bool   `json:"costAboveLongestRun"`
}

type ratioRange struct {
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
	MinAt string  `json:"minAt"`
	MaxAt string  `json:"maxAt"`
}

type reportSummary struct {
	// OR time over each policy's, unbalanced set.
	UnbalancedSpeedup map[string]ratioRange `json:"unbalancedSpeedup"`
	// Each policy's time over OR's, less 1, balanced set: Max is the
	// worst loss.
	BalancedLoss map[string]ratioRange `json:"balancedLoss"`
	// LB on the unbalanced set over OR on the balanced set (paper: within
	// 1.7x).
	LBVsBalancedOR ratioRange `json:"lbUnbalancedOverOrBalanced"`
	// Whether CostEffective balanced the balanced set.
	BalancedSet balancedSetBalancing `json:"balancedSetBalancing"`
	MaxSpread   float64              `json:"maxSpread"`
}

type balancedSetBalancing struct {
	Frames         int      `json:"frames"`
	FramesBalanced int      `json:"framesBalanced"`
	ScanBalances   int      `json:"scanBalances"`
	ZBalances      int      `json:"zbufferBalances"`
	Gathers        int      `json:"gathers"`
	MaxSavingBound uint32   `json:"maxSavingsBound"` // max over frames and loops of MAX(workload) - ceil(avg) at the start
	Balanced       []string `json:"balanced,omitempty"`
}

type headlineRow struct {
	What  string `json:"what"`
	Paper string `json:"paper"`
	Ours  string `json:"ours"`
}

type imageSummary struct {
	Identical bool     `json:"identical"`
	Compared  int      `json:"framesCompared"`
	Images    int      `json:"images"`
	Differ    []string `json:"differ,omitempty"`
}

// report analyses the run.
func (p *paperRun) report() *paperReport {
	f, e := p.f, p.e
	r := &paperReport{p: p, Costs: p.costs, CostNotes: p.notes, Warnings: e.warnings.list()}
	r.Meta = reportMeta{Command: strings.TrimSpace("bench paper " + strings.Join(p.args, " ")), Renderer: p.caps.Renderer, Vendor: p.caps.Vendor,
		Driver: p.caps.Version, GLSL: p.caps.GLSLVersion, Platform: p.caps.Platform, Software: p.caps.Software, Atomic64: p.caps.Atomic64,
		Date: p.date.UTC().Format(time.RFC3339), GoVersion: runtime.Version(), Reduced: p.reduced, WallSeconds: p.wall.Seconds()}
	src := f.field
	if f.volume != "" {
		src = f.volume
	}
	if f.mesh != "" {
		src = f.mesh
	}
	r.Params = reportParams{Dataset: e.pair.Name, Source: src, Resolution: f.res, Iso: e.pair.Iso, Reduction: f.reduction,
		BalancedTriangles: e.pair.Balanced.Len(), UnbalancedTriangles: e.pair.Unbalanced.Len(), DatasetSeconds: e.buildTime.Seconds(),
		Width: e.w, Height: e.h, Views: viewNamesOf(f), Reps: f.reps, Warmup: f.warmup, Calibration: f.calPath}
	for _, l := range f.lanesList {
		r.Params.Lanes = append(r.Params.Lanes, lanesLabel(l))
	}
	for _, pol := range f.policyList {
		r.Params.Policies = append(r.Params.Policies, pol.String())
	}
	if e.r.Visibility64() {
		r.Params.Visibility = "64-bit atomicMin"
	} else {
		r.Params.Visibility = visibility32
	}

	// Table 1: the workloads as the loops saw them (OR's first Lanes value:
	// the counts do not depend on the policy).
	for set := range setNames {
		for _, v := range f.viewList {
			fr := p.frame(set, v.Name, f.lanesList[0], balancer.Never)
			r.Table1 = append(r.Table1, table1Row{Set: setNames[set], View: v.Name,
				ScanMax: fr.Scan.Start.MaxWorkload, ScanAvg: fr.Scan.StartAvg(), ZMax: fr.Z.Start.MaxWorkload, ZAvg: fr.Z.StartAvg(),
				ScanProcessors: fr.Scan.Processors, ZProcessors: fr.Z.Processors})
		}
	}

	// Frames, with each one's speedup over OR at the same set, view, lanes.
	for _, fr := range p.frames {
		or := p.frame(fr.Set, fr.View.Name, fr.Lanes, balancer.Never)
		fj := frameJSON{Set: setNames[fr.Set], View: fr.View.Name, Policy: fr.Policy.String(), Renderer: policyLabel(fr.Policy), Lanes: lanesLabel(fr.Lanes),
			GPUMs: ms(fr.Time.Median), GPUMinMs: ms(fr.Time.Min), GPUMaxMs: ms(fr.Time.Max), WallMs: ms(fr.Time.Wall), Spread: fr.Time.Spread(), Reps: fr.Time.Reps,
			SpeedupOR: ratio(or.Time.Median, fr.Time.Median), Spans: fr.Spans, Pixels: fr.Pixels,
			Scan: loopOf(&fr.Scan), Z: loopOf(&fr.Z), SameImage: fr.Same, DiffPixels: fr.Differ, LanesRaised: lanesRan(fr)}
		for i, d := range fr.Stages {
			fj.StagesMs[i] = ms(d)
		}
		r.Frames = append(r.Frames, fj)
		r.Summary.MaxSpread = max(r.Summary.MaxSpread, fr.Time.Spread())
	}

	// Table 4: LB's phases on the unbalanced set at the most lanes (the
	// paper's 512 processors), all views.
	most := f.lanesList[0]
	for _, l := range f.lanesList {
		if l == 0 || (most != 0 && l > most) {
			most = l
		}
	}
	r.Table4 = table4{Set: setNames[unbalancedSet], Policy: balancer.CostEffective.String(), Lanes: lanesLabel(most)}
	var agg [2]loopRun
	for _, v := range f.viewList {
		fr := p.frame(unbalancedSet, v.Name, most, balancer.CostEffective)
		for i, l := range []*loopRun{&fr.Scan, &fr.Z} {
			for _, pt := range []struct{ dst, src *balancer.PhaseTimes }{{&agg[i].Gather, &l.Gather}, {&agg[i].Redistribute, &l.Redistribute}, {&agg[i].Solve, &l.Solve}} {
				pt.dst.Merge(*pt.src)
			}
		}
	}
	for i := range agg {
		r.Table4.Loops[i] = loopPhase{Loop: loopNames[i], Gather: phaseOf(agg[i].Gather), Redistribute: phaseOf(agg[i].Redistribute), Solve: phaseOf(agg[i].Solve)}
	}

	// §4.1: did any iteration cost more than the overestimate?
	for i := range r.CostCheck {
		r.CostCheck[i] = costCheck{Loop: loopNames[i], Cost: p.costs[i].Cost, Paper: []float64{paperScanCost, paperZCost}[i]}
	}
	for _, fr := range p.frames {
		if fr.Policy != balancer.CostEffective && fr.Policy != balancer.Bounded {
			continue
		}
		for i, l := range []*loopRun{&fr.Scan, &fr.Z} {
			cc := &r.CostCheck[i]
			if l.Gathers == 0 {
				continue
			}
			cc.Gathered++
			if l.MaxCost > cc.Cost {
				cc.Over++
			}
			if l.MaxCost > cc.MaxCost {
				cc.MaxCost = l.MaxCost
				cc.At = fmt.Sprintf("%s set, %s, lanes %s, %s", setNames[fr.Set], fr.View.Name, lanesLabel(fr.Lanes), policyLabel(fr.Policy))
			}
		}
	}
	for _, t := range r.Table1 {
		r.CostCheck[0].Longest = max(r.CostCheck[0].Longest, t.ScanMax)
		r.CostCheck[1].Longest = max(r.CostCheck[1].Longest, t.ZMax)
	}
	for i := range r.CostCheck {
		cc := &r.CostCheck[i]
		cc.Exceeded = cc.Over > 0
		cc.CannotPay = cc.Longest > 0 && cc.Cost >= float64(cc.Longest)
	}

	// Speedups and losses.
	r.Summary.UnbalancedSpeedup = map[string]ratioRange{}
	r.Summary.BalancedLoss = map[string]ratioRange{}
	for _, pol := range f.policyList {
		if pol == balancer.Never {
			continue
		}
		r.Summary.UnbalancedSpeedup[policyLabel(pol)] = p.ratios(func(v string, l int) (float64, bool) {
			or, x := p.frame(unbalancedSet, v, l, balancer.Never), p.frame(unbalancedSet, v, l, pol)
			return ratio(or.Time.Median, x.Time.Median), true
		})
		r.Summary.BalancedLoss[policyLabel(pol)] = p.ratios(func(v string, l int) (float64, bool) {
			or, x := p.frame(balancedSet, v, l, balancer.Never), p.frame(balancedSet, v, l, pol)
			return ratio(x.Time.Median, or.Time.Median) - 1, true
		})
	}
	r.Summary.LBVsBalancedOR = p.ratios(func(v string, l int) (float64, bool) {
		lb, or := p.frame(unbalancedSet, v, l, balancer.CostEffective), p.frame(balancedSet, v, l, balancer.Never)
		return ratio(lb.Time.Median, or.Time.Median), true
	})

	// Did CostEffective balance the balanced set, and could it have paid?
	bs := &r.Summary.BalancedSet
	for _, v := range f.viewList {
		for _, l := range f.lanesList {
			fr := p.frame(balancedSet, v.Name, l, balancer.CostEffective)
			or := p.frame(balancedSet, v.Name, l, balancer.Never)
			bs.Frames++
			bs.ScanBalances += fr.Scan.Balances
			bs.ZBalances += fr.Z.Balances
			bs.Gathers += fr.Scan.Gathers + fr.Z.Gathers
			for _, lr := range []*loopRun{&fr.Scan, &fr.Z} {
				bs.MaxSavingBound = max(bs.MaxSavingBound, savingsBound(lr))
			}
			if fr.Scan.Balances+fr.Z.Balances > 0 {
				bs.FramesBalanced++
				paid := "it paid"
				if fr.Time.Median >= or.Time.Median {
					paid = "it did not pay"
				}
				bs.Balanced = append(bs.Balanced, fmt.Sprintf("%s, lanes %s: scan %d balances saving %d iterations (cost %.1f), z-buffer %d saving %d (cost %.1f); LB %s vs OR %s: %s",
					v.Name, lanesLabel(l), fr.Scan.Balances, fr.Scan.Savings, fr.Scan.CostIterations, fr.Z.Balances, fr.Z.Savings, fr.Z.CostIterations,
					fmtMs(fr.Time.Median), fmtMs(or.Time.Median), paid))
			}
		}
	}

	// Images.
	r.Images.Identical = true
	seen := map[[2]string]bool{}
	for _, fr := range p.frames {
		if !fr.Captured {
			continue
		}
		r.Images.Compared++
		seen[[2]string{setNames[fr.Set], fr.View.Name}] = true
		if !fr.Same {
			r.Images.Identical = false
			r.Images.Differ = append(r.Images.Differ, fmt.Sprintf("%s set at %s, lanes %s, %v: %d pixels differ from the first frame's",
				setNames[fr.Set], fr.View.Name, lanesLabel(fr.Lanes), fr.Policy, fr.Differ))
		}
	}
	r.Images.Images = len(seen)

	r.headline()
	r.buildTables()
	return r
}

// savingsBound is MAX(workload) - ceil(avg) at the loop's start: no
// redistribution can save more (the new maximum is at least the average),
// and without one the bound only shrinks.
func savingsBound(l *loopRun) uint32 {
	if l.Start.Processors == 0 {
		return 0
	}
	avg := uint32((l.Start.SumWorkload + uint64(l.Start.Processors) - 1) / uint64(l.Start.Processors))
	if l.Start.MaxWorkload <= avg {
		return 0
	}
	return l.Start.MaxWorkload - avg
}

// ratios runs fn over the views and lanes and returns the range.
func (p *paperRun) ratios(fn func(view string, lanes int) (float64, bool)) ratioRange {
	rr := ratioRange{Min: math.Inf(1), Max: math.Inf(-1)}
	for _, v := range p.f.viewList {
		for _, l := range p.f.lanesList {
			x, ok := fn(v.Name, l)
			if !ok || math.IsNaN(x) || math.IsInf(x, 0) {
				continue
			}
			at := fmt.Sprintf("%s, lanes %s", v.Name, lanesLabel(l))
			if x < rr.Min {
				rr.Min, rr.MinAt = x, at
			}
			if x > rr.Max {
				rr.Max, rr.MaxAt = x, at
			}
		}
	}
	if math.IsInf(rr.Min, 1) {
		rr.Min, rr.Max = 0, 0
	}
	return rr
}

func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// fmtMs prints a duration in milliseconds with three significant digits.
func fmtMs(d time.Duration) string {
	v := ms(d)
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	case v >= 1:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3f", v)
}

func fmtX(x float64) string { return fmt.Sprintf("%.1fx", x) }

func fmtLoss(x float64) string {
	if x < 0 {
		return fmt.Sprintf("%.0f%% faster", -100*x)
	}
	return fmt.Sprintf("%.0f%%", 100*x)
}

func (r *paperReport) headline() {
	p := r.p
	lanes := strings.Join(r.Params.Lanes, ", ")
	r.Headline = []headlineRow{{"setting", "CM-5, 32-512 processors, 512x512", fmt.Sprintf("%s, lanes %s, %dx%d", p.caps.Renderer, lanes, r.Params.Width, r.Params.Height)}}
	if sp, ok := r.Summary.UnbalancedSpeedup["LB"]; ok {
		r.Headline = append(r.Headline, headlineRow{"LB speedup over OR, unbalanced set", "8-33x", fmt.Sprintf("%.1f-%.1fx", sp.Min, sp.Max)})
	}
	if l, ok := r.Summary.BalancedLoss["LB"]; ok {
		r.Headline = append(r.Headline, headlineRow{"LB's worst loss against OR, balanced set", "27%", fmtLoss(l.Max)})
	}
	r.Headline = append(r.Headline, headlineRow{"LB on unbalanced vs OR on balanced", "within 1.7x", fmt.Sprintf("within %.1fx", r.Summary.LBVsBalancedOR.Max)})
	r.Headline = append(r.Headline, headlineRow{"cost overestimates, scan / z-buffer", "20 / 32 iterations", fmt.Sprintf("%.1f / %.1f iterations", r.Costs[0].Cost, r.Costs[1].Cost)})
	over := "no"
	for _, cc := range r.CostCheck {
		if cc.Exceeded {
			over = fmt.Sprintf("yes (%s: %.1f at %s)", cc.Loop, cc.MaxCost, cc.At)
			break
		}
	}
	r.Headline = append(r.Headline, headlineRow{"an iteration cost more than the overestimate", "no (all below)", over})
	bs := r.Summary.BalancedSet
	r.Headline = append(r.Headline, headlineRow{"LB balanced the balanced set", "-", fmt.Sprintf("in %d of %d frames", bs.FramesBalanced, bs.Frames)})
	if sp, ok := r.Summary.UnbalancedSpeedup["Bounded"]; ok {
		r.Headline = append(r.Headline, headlineRow{"Bounded (improved) speedup, unbalanced set", "-", fmt.Sprintf("%.1f-%.1fx", sp.Min, sp.Max)})
	}
	if l, ok := r.Summary.BalancedLoss["Bounded"]; ok {
		r.Headline = append(r.Headline, headlineRow{"Bounded's worst loss, balanced set", "-", fmtLoss(l.Max)})
	}
}

// writeText prints the report as the terminal shows it.
func (r *paperReport) writeText(w io.Writer) {
	for _, t := range r.tables {
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
