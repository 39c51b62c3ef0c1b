package experiment

import (
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/dpgl/dpgl/balancer"
)

// Report analyses the run.
func (p *PaperRun) Report() *Report {
	f, e := &p.cfg, p.e
	r := &Report{Costs: p.costs, CostNotes: p.notes, Warnings: e.Warnings(), Dataset: e.Describe(),
		runs: p.frames, index: p.index, views: f.Views, lanes: f.Lanes, policies: f.Policies, ic: &p.ic}
	r.Meta = Meta{Command: f.Command, Renderer: p.caps.Renderer, Vendor: p.caps.Vendor,
		Driver: p.caps.Version, GLSL: p.caps.GLSLVersion, Platform: p.caps.Platform, Software: p.caps.Software, Atomic64: p.caps.Atomic64,
		Date: p.date.UTC().Format(time.RFC3339), GoVersion: runtime.Version(), Reduced: f.Reduced, WallSeconds: p.wall.Seconds()}
	pair := e.Pair
	r.Params = Params{Dataset: pair.Name, Source: f.Source, Resolution: f.Resolution, Iso: pair.Iso, Reduction: f.Reduction,
		BalancedTriangles: pair.Balanced.Len(), UnbalancedTriangles: pair.Unbalanced.Len(), DatasetSeconds: e.Options.BuildTime.Seconds(),
		Width: e.Width, Height: e.Height, Reps: f.Reps, Warmup: f.Warmup, Calibration: f.Calibration.Path, Visibility: Visibility32,
		Lockstep: e.Options.Lockstep}
	if e.Renderer.Visibility64() {
		r.Params.Visibility = "64-bit atomicMin"
	}
	r.analyse()
	return r
}

// analyse fills the tables and figures from the frames and parameters.
func (r *Report) analyse() {
	for _, v := range r.views {
		r.Params.Views = append(r.Params.Views, v.Name)
	}
	for _, l := range r.lanes {
		r.Params.Lanes = append(r.Params.Lanes, LanesLabel(l))
	}
	for _, pol := range r.policies {
		r.Params.Policies = append(r.Params.Policies, pol.String())
	}
	r.table1()
	r.frameRows()
	r.table4()
	r.CostCheck = costChecks(r.runs, r.Costs, r.Table1)
	r.summary()
	r.balancedSet()
	r.images()
	r.headline()
}

// table1 is the workloads as the loops saw them (OR's first Lanes value:
// the counts do not depend on the policy).
func (r *Report) table1() {
	for set := range SetNames {
		for _, v := range r.views {
			fr := r.Frame(set, v.Name, r.lanes[0], balancer.Never)
			r.Table1 = append(r.Table1, Table1Row{Set: SetNames[set], View: v.Name,
				ScanMax: fr.Scan.Start.MaxWorkload, ScanAvg: fr.Scan.StartAvg(), ZMax: fr.Z.Start.MaxWorkload, ZAvg: fr.Z.StartAvg(),
				ScanProcessors: fr.Scan.Processors, ZProcessors: fr.Z.Processors})
		}
	}
}

// frameRows are the frames, each with its speedup over OR at the same
// set, view and Lanes value.
func (r *Report) frameRows() {
	for _, fr := range r.runs {
		or := r.Frame(fr.Set, fr.View.Name, fr.Lanes, balancer.Never)
		fj := FrameRow{Set: SetNames[fr.Set], View: fr.View.Name, Policy: fr.Policy.String(), Renderer: PolicyLabel(fr.Policy), Lanes: LanesLabel(fr.Lanes),
			GPUMs: Ms(fr.Time.Median), GPUMinMs: Ms(fr.Time.Min), GPUMaxMs: Ms(fr.Time.Max), WallMs: Ms(fr.Time.Wall), Spread: fr.Time.Spread(), Reps: fr.Time.Reps,
			SpeedupOR: Ratio(or.Time.Median, fr.Time.Median), Spans: fr.Spans, Pixels: fr.Pixels,
			Scan: loopOf(&fr.Scan), Z: loopOf(&fr.Z), SameImage: fr.Same, DiffPixels: fr.Differ, LanesRaised: fr.LanesRan()}
		if fr.IDs.Passes > 0 {
			ids := loopOf(&fr.IDs)
			fj.IDPass = &ids
		}
		for i, d := range fr.Stages {
			fj.StagesMs[i] = Ms(d)
		}
		r.Frames = append(r.Frames, fj)
		r.Summary.MaxSpread = max(r.Summary.MaxSpread, fr.Time.Spread())
	}
}

// MostLanes is the largest Lanes value of the run, "all" (0) above any
// number: the paper's 512 processors, where Table 4 is taken.
func (r *Report) MostLanes() int {
	most := r.lanes[0]
	for _, l := range r.lanes {
		if l == 0 || (most != 0 && l > most) {
			most = l
		}
	}
	return most
}

// table4 is LB's phases on the unbalanced set at the most lanes, all
// views. The z-buffer's solution phase is the paper's loop's alone; the
// primitive-id pass of drivers without 64-bit atomics is its own figure.
func (r *Report) table4() {
	most := r.MostLanes()
	r.Table4 = Table4{Set: SetNames[Unbalanced], Policy: balancer.CostEffective.String(), Lanes: LanesLabel(most)}
	var agg [3]LoopRun
	for _, v := range r.views {
		fr := r.Frame(Unbalanced, v.Name, most, balancer.CostEffective)
		for i, l := range []*LoopRun{&fr.Scan, &fr.Z, &fr.IDs} {
			agg[i].Gather.Merge(l.Gather)
			agg[i].Redistribute.Merge(l.Redistribute)
			agg[i].Solve.Merge(l.Solve)
		}
	}
	for i := range r.Table4.Loops {
		r.Table4.Loops[i] = LoopPhases{Loop: LoopNames[i], Gather: phaseOf(agg[i].Gather), Redistribute: phaseOf(agg[i].Redistribute), Solve: phaseOf(agg[i].Solve)}
	}
	if agg[2].Solve.N > 0 {
		ids := phaseOf(agg[2].Solve)
		r.Table4.IDPassSolve = &ids
	}
}

// savingsBound is MAX(workload) - ceil(avg) at the start: no
// redistribution can save more iterations than that.
func savingsBound(l *LoopRun) uint32 {
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
func (r *Report) ratios(fn func(view string, lanes int) float64) RatioRange {
	rr := RatioRange{Min: math.Inf(1), Max: math.Inf(-1)}
	for _, v := range r.views {
		for _, l := range r.lanes {
			x := fn(v.Name, l)
			if math.IsNaN(x) || math.IsInf(x, 0) {
				continue
			}
			at := fmt.Sprintf("%s, lanes %s", v.Name, LanesLabel(l))
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

// summary is the speedups and losses.
func (r *Report) summary() {
	r.Summary.UnbalancedSpeedup = map[string]RatioRange{}
	r.Summary.BalancedLoss = map[string]RatioRange{}
	for _, pol := range r.policies {
		if pol == balancer.Never {
			continue
		}
		r.Summary.UnbalancedSpeedup[PolicyLabel(pol)] = r.ratios(func(v string, l int) float64 {
			or, x := r.Frame(Unbalanced, v, l, balancer.Never), r.Frame(Unbalanced, v, l, pol)
			return Ratio(or.Time.Median, x.Time.Median)
		})
		r.Summary.BalancedLoss[PolicyLabel(pol)] = r.ratios(func(v string, l int) float64 {
			or, x := r.Frame(Balanced, v, l, balancer.Never), r.Frame(Balanced, v, l, pol)
			return Ratio(x.Time.Median, or.Time.Median) - 1
		})
	}
	r.Summary.LBVsBalancedOR = r.ratios(func(v string, l int) float64 {
		lb, or := r.Frame(Unbalanced, v, l, balancer.CostEffective), r.Frame(Balanced, v, l, balancer.Never)
		return Ratio(lb.Time.Median, or.Time.Median)
	})
}

// balancedSet says whether CostEffective balanced the balanced set, and
// whether it could have paid.
func (r *Report) balancedSet() {
	bs := &r.Summary.BalancedSet
	for _, v := range r.views {
		for _, l := range r.lanes {
			fr := r.Frame(Balanced, v.Name, l, balancer.CostEffective)
			or := r.Frame(Balanced, v.Name, l, balancer.Never)
			bs.Frames++
			bs.ScanBalances += fr.Scan.Balances
			bs.ZBalances += fr.Z.Balances
			bs.Gathers += fr.Scan.Gathers + fr.Z.Gathers
			for _, lr := range []*LoopRun{&fr.Scan, &fr.Z} {
				bs.MaxSavingBound = max(bs.MaxSavingBound, savingsBound(lr))
			}
			if fr.Scan.Balances+fr.Z.Balances == 0 {
				continue
			}
			bs.FramesBalanced++
			paid := "it paid"
			if fr.Time.Median >= or.Time.Median {
				paid = "it did not pay"
			}
			bs.Balanced = append(bs.Balanced, fmt.Sprintf("%s, lanes %s: scan %d balances saving %d iterations (cost %.1f), z-buffer %d saving %d (cost %.1f); LB %s vs OR %s: %s",
				v.Name, LanesLabel(l), fr.Scan.Balances, fr.Scan.Savings, fr.Scan.CostIterations, fr.Z.Balances, fr.Z.Savings, fr.Z.CostIterations,
				FmtMs(fr.Time.Median), FmtMs(or.Time.Median), paid))
		}
	}
}

// images is the image-equality check over the frames that were compared.
func (r *Report) images() {
	r.Images.Identical = true
	seen := map[[2]string]bool{}
	for _, fr := range r.runs {
		if !fr.Captured {
			continue
		}
		r.Images.Compared++
		seen[[2]string{SetNames[fr.Set], fr.View.Name}] = true
		if !fr.Same {
			r.Images.Identical = false
			r.Images.Differ = append(r.Images.Differ, fmt.Sprintf("%s set at %s, lanes %s, %v: %d pixels differ from the first frame's",
				SetNames[fr.Set], fr.View.Name, LanesLabel(fr.Lanes), fr.Policy, fr.Differ))
		}
	}
	r.Images.Images = len(seen)
}
