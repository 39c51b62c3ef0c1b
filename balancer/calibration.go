package balancer

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"sort"
	"time"
)

// DefaultMargin is the constant, in iterations, that a calibration adds to
// the largest measured cost so that it stays an overestimate (§2.1: "to
// this initial estimate a constant is added").
const DefaultMargin = 4

// NoMargin, as CalibrateOptions.Margin, adds no margin at all (a zero
// Margin means DefaultMargin). Any negative Margin means the same.
const NoMargin = -1

// Calibrator computes a loop kind's overestimated cost the paper's way
// (§2.1, §4.1): for each calibration run (a dataset), the longest gathering
// plus the longest redistribution over the shortest solution phase; the
// largest of these over all runs, plus a margin constant.
//
// Runs should balance (the Always policy does whenever it can), since a run
// without a redistribution measures only the gathering; and they should be
// warmed up: a Loop's first run pays for compiling kernels and touching
// memory for the first time, which on llvmpipe makes its gathering and
// redistribution up to ten times slower than later ones, so that its cost
// (hundreds of iterations where the true cost is tens) would keep
// CostEffective from ever balancing. Add therefore does not count first
// runs (Stats.FirstRun). Calibrate does all of this for one loop.
type Calibrator struct {
	// SolveFloor, when set, is the paper's floor on the solution phase's
	// minimum time (§2.2): shorter solution phases count as SolveFloor, so
	// that a few nearly empty iterations cannot inflate the estimate. The
	// paper pads such iterations with a delay; a GPU has no cheap way to
	// idle for a set time, so here the floor is a bet that the solution
	// phases that savings are counted in take at least that long. Runs
	// whose iterations are shorter show up in the over-cost warning.
	//
	// Leave it 0 unless the estimate comes out above the calibration
	// runs' MAX(workload) (LoopCost.Warning) because their last
	// iterations, with a handful of processors left, are nearly free: then
	// a floor of the solution phase's time at the fewest active processors
	// balancing would still pay at (Stats.Solve of such a run, or a
	// fraction of Stats.Solve.Avg) keeps those iterations from setting the
	// cost.
	SolveFloor time.Duration

	Runs            int
	FirstRuns       int           // runs not counted because they were their loop's first
	Cost            float64       // the largest per-run cost so far, without the margin
	MaxGather       time.Duration // over all runs
	MaxRedistribute time.Duration
	MinSolve        time.Duration
	// LongestRun is the largest MAX(workload) at the start of a counted
	// run: the iterations that run takes as Figure 1.
	LongestRun uint32
}

// Add accounts one run's times. Runs that did not gather or did not solve
// count for nothing, and a loop's first run (Stats.FirstRun) only counts
// in FirstRuns.
func (c *Calibrator) Add(s *Stats) {
	if s.Gather.N == 0 || s.Solve.N == 0 {
		return
	}
	if s.FirstRun {
		c.FirstRuns++
		return
	}
	soln := max(s.Solve.Min, c.SolveFloor)
	c.Cost = max(c.Cost, c.runCost(s))
	c.MaxGather = max(c.MaxGather, s.Gather.Max)
	c.MaxRedistribute = max(c.MaxRedistribute, s.Redistribute.Max)
	if c.Runs == 0 || soln < c.MinSolve {
		c.MinSolve = soln
	}
	c.LongestRun = max(c.LongestRun, s.Start.MaxWorkload)
	c.Runs++
}

// runCost is the paper's cost of one run.
func (c *Calibrator) runCost(s *Stats) float64 {
	return costOf(s.Gather.Max, s.Redistribute.Max, max(s.Solve.Min, c.SolveFloor))
}

// AddMedian accounts repetitions of one calibration run (the same dataset
// run again): only the repetition of median cost counts, so that one phase
// delayed by another process on a shared machine does not set the
// estimate. With one repetition it is Add. First runs and runs that did
// not gather are left out before the median is taken.
func (c *Calibrator) AddMedian(reps []Stats) {
	var ok []*Stats
	for i := range reps {
		s := &reps[i]
		switch {
		case s.Gather.N == 0 || s.Solve.N == 0:
		case s.FirstRun:
			c.FirstRuns++
		default:
			ok = append(ok, s)
		}
	}
	if len(ok) == 0 {
		return
	}
	sort.SliceStable(ok, func(a, b int) bool { return c.runCost(ok[a]) < c.runCost(ok[b]) })
	c.Add(ok[len(ok)/2])
}

// Estimate returns the overestimate: the largest cost plus margin. It fails
// when no run was counted (with a word on first runs when only those were
// added) or none redistributed.
func (c *Calibrator) Estimate(margin float64) (LoopCost, error) {
	if c.Runs == 0 && c.FirstRuns > 0 {
		return LoopCost{}, fmt.Errorf("balancer: Calibrator.Estimate: the %d runs added were each their loop's first, whose gathering and redistribution include one-time costs "+
			"(kernel compilation, first use of memory) and would overestimate the cost many times over; run each loop once before calibrating (Calibrate does)", c.FirstRuns)
	}
	if c.Runs == 0 {
		return LoopCost{}, errors.New("balancer: Calibrator.Estimate: no run gathered information")
	}
	if c.MaxRedistribute == 0 {
		return LoopCost{}, errors.New("balancer: Calibrator.Estimate: no run redistributed (calibrate with the Always policy on unbalanced data)")
	}
	if !(margin >= 0) || math.IsInf(margin, 0) {
		panic(fmt.Sprintf("balancer: Calibrator.Estimate: margin %v is not a nonnegative number", margin))
	}
	return LoopCost{
		CostIterations:    c.Cost + margin,
		Margin:            margin,
		MaxGatherNs:       int64(c.MaxGather),
		MaxRedistributeNs: int64(c.MaxRedistribute),
		MinSolveNs:        int64(c.MinSolve),
		SolveFloorNs:      int64(c.SolveFloor),
		Runs:              c.Runs,
		LongestRun:        c.LongestRun,
	}, nil
}

// CalibrateOptions say how Calibrate measures.
type CalibrateOptions struct {
	// Warmup is the number of runs of each dataset made and not counted
	// before its measured runs (0: one). A loop's first run is never
	// counted in any case.
	Warmup int
	// Reps is the number of measured runs of each dataset, of which the
	// run of median cost counts (0: three).
	Reps int
	// Margin is the constant added to the largest cost (0:
	// DefaultMargin, as zero Warmup and Reps mean their defaults; NoMargin
	// adds nothing).
	Margin float64
	// SolveFloor is Calibrator.SolveFloor.
	SolveFloor time.Duration
}

// Calibrate measures the overestimated cost of l's loop kind the paper's
// way (§4.1) on warmed-up runs. For each of the datasets, load(i) writes
// the loop's processor arrays (Load, or a kernel of the caller's followed
// by gpu.BarrierStorage); Calibrate runs it under Always, so that it
// redistributes, Warmup times uncounted and Reps times counted (loading
// before every run), keeps the run of median cost, and returns the largest
// cost over the datasets plus the margin, as Calibrator does. The loop's
// configuration is restored afterwards.
//
// Calibrate with datasets like the ones the loop will balance: the cost is
// in iterations of the solution phase, which are shorter with fewer or
// lighter processors. The estimate's Warning says when the cost exceeds
// what balancing could save in the calibration runs themselves.
func Calibrate[T any](l *Loop[T], sol Solution, datasets int, load func(dataset int) error, o CalibrateOptions) (LoopCost, error) {
	if datasets < 1 {
		panic(fmt.Sprintf("balancer: Calibrate: %d datasets", datasets))
	}
	if o.Warmup < 0 || o.Reps < 0 {
		panic(fmt.Sprintf("balancer: Calibrate: Warmup %d, Reps %d: want >= 0", o.Warmup, o.Reps))
	}
	warmup, reps := cmp.Or(o.Warmup, 1), cmp.Or(o.Reps, 3)
	saved := l.Config()
	cfg := saved
	cfg.Policy, cfg.Strategy = Always, Paper
	if err := l.SetConfig(cfg); err != nil {
		return LoopCost{}, err
	}
	defer l.SetConfig(saved)
	cal := Calibrator{SolveFloor: o.SolveFloor}
	for d := 0; d < datasets; d++ {
		var runs []Stats
		for k := 0; k < warmup+reps; k++ {
			if err := load(d); err != nil {
				return LoopCost{}, fmt.Errorf("balancer: Calibrate: loading dataset %d: %w", d, err)
			}
			st, err := l.Run(sol)
			if err != nil {
				return LoopCost{}, fmt.Errorf("balancer: Calibrate: dataset %d: %w", d, err)
			}
			if k >= warmup {
				runs = append(runs, st)
			}
		}
		cal.AddMedian(runs)
	}
	return cal.Estimate(calibrateMargin(o.Margin))
}

// calibrateMargin is the margin CalibrateOptions.Margin m asks for: the
// default for 0, none for a negative m. NaN and infinities pass through
// for Estimate to refuse.
func calibrateMargin(m float64) float64 {
	switch {
	case m == 0:
		return DefaultMargin
	case m < 0 && !math.IsInf(m, -1):
		return 0
	}
	return m
}

// LoopCost is the calibrated overestimate of one loop kind on one renderer.
type LoopCost struct {
	CostIterations    float64 `json:"costIterations"` // what Config.CostIterations takes
	Margin            float64 `json:"margin"`
	MaxGatherNs       int64   `json:"maxGatherNs"`
	MaxRedistributeNs int64   `json:"maxRedistributeNs"`
	MinSolveNs        int64   `json:"minSolveNs"`
	SolveFloorNs      int64   `json:"solveFloorNs,omitempty"`
	Runs              int     `json:"runs"`
	// LongestRun is the largest MAX(workload) of the calibration runs: the
	// iterations the longest one takes as Figure 1.
	LongestRun uint32 `json:"longestRunIterations,omitempty"`
	Date       string `json:"date,omitempty"` // when it was measured, RFC 3339
}

// Warning says, with the numbers, when the estimate is not to be trusted
// as it is: a cost of at least the calibration runs' own MAX(workload) - 1
// means that no redistribution could have paid in any of them (savings are
// below MAX(workload)), so the estimate measured nothing that balancing
// decides on. Usually the runs were too short, or their gathering and
// redistribution included one-time costs. "" when there is nothing to say.
func (lc LoopCost) Warning() string {
	if lc.LongestRun == 0 || lc.CostIterations < float64(lc.LongestRun)-1 {
		return ""
	}
	return fmt.Sprintf("the cost of %.1f iterations ((gathering %v + redistribution %v) / solution %v + %g) is not below the %d iterations of the longest calibration run, "+
		"so balancing could not have paid in any of them: calibrate on larger workloads, after warm-up runs",
		lc.CostIterations, time.Duration(lc.MaxGatherNs), time.Duration(lc.MaxRedistributeNs), time.Duration(lc.MinSolveNs), lc.Margin, lc.LongestRun)
}

func (lc LoopCost) check() error {
	if math.IsNaN(lc.CostIterations) || math.IsInf(lc.CostIterations, 0) || lc.CostIterations <= 0 {
		return fmt.Errorf("costIterations %v is not a positive number", lc.CostIterations)
	}
	if lc.MaxGatherNs < 0 || lc.MaxRedistributeNs < 0 || lc.MinSolveNs < 0 || lc.SolveFloorNs < 0 || lc.Runs < 1 {
		return fmt.Errorf("negative times or no runs")
	}
	return nil
}
