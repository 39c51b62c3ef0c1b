package balancer

import (
	"fmt"
	"strings"
	"time"
)

// Phase names the parts of a loop that are timed.
type Phase int

const (
	// PhaseCount is the first pass of information gathering alone: the
	// reduction that finds MAX(workload) for Figure 1, and the counts that
	// Bounded checks its bounds with.
	PhaseCount Phase = iota
	// PhaseGather is a full information gathering phase (steps 1–5).
	PhaseGather
	// PhaseRedistribute is a redistribution phase.
	PhaseRedistribute
	// PhaseSolve is one iteration of the solution phase.
	PhaseSolve
	// PhaseSchedule is a strategy's own work before and after its
	// dispatches (Stats.Schedule): the exclusive scan of the workloads and
	// its state at the start, the retirement of the processor arrays and
	// the read-back of its counts at the end.
	PhaseSchedule
)

func (p Phase) String() string {
	switch p {
	case PhaseCount:
		return "count"
	case PhaseGather:
		return "gather"
	case PhaseRedistribute:
		return "redistribute"
	case PhaseSolve:
		return "solve"
	case PhaseSchedule:
		return "schedule"
	}
	return fmt.Sprintf("Phase(%d)", int(p))
}

// PhaseTimes summarizes the durations of one phase over a run, as the
// paper's Table 4 does, and keeps them for their distribution.
type PhaseTimes struct {
	N               int
	Min, Max, Total time.Duration
	All             []time.Duration // every duration, in the order the phases ran
}

// Merge adds u's durations to t, as if t's phases had also run u's (the
// renderer's batches, or a benchmark's frames, summed into one record).
func (t *PhaseTimes) Merge(u PhaseTimes) {
	if u.N == 0 {
		return
	}
	if t.N == 0 || u.Min < t.Min {
		t.Min = u.Min
	}
	t.Max = max(t.Max, u.Max)
	t.Total += u.Total
	t.N += u.N
	t.All = append(t.All, u.All...)
}

func (t *PhaseTimes) add(d time.Duration) {
	if t.N == 0 || d < t.Min {
		t.Min = d
	}
	t.Max = max(t.Max, d)
	t.Total += d
	t.N++
	t.All = append(t.All, d)
}

// Avg is the mean duration (0 when the phase never ran).
func (t PhaseTimes) Avg() time.Duration {
	if t.N == 0 {
		return 0
	}
	return t.Total / time.Duration(t.N)
}

func (t PhaseTimes) String() string {
	if t.N == 0 {
		return "-"
	}
	return fmt.Sprintf("%d× min %v avg %v max %v", t.N, t.Min, t.Avg(), t.Max)
}

// Stats describe one run of a loop.
type Stats struct {
	Name       string
	Strategy   Strategy
	Policy     Policy
	Variant    Variant
	Processors int
	Lanes      int

	// Start is the first count or gathering: MAX(workload), the tasks and
	// the idle processors at the start.
	Start Info
	// CostIterations is the overestimated cost the decisions used.
	CostIterations float64
	// FirstRun is set on a Loop's first Run, whose phases include one-time
	// costs (the driver compiling kernels at their first dispatch, memory
	// touched for the first time): up to ten times the later runs' on
	// llvmpipe. A calibration does not count such a run (Calibrator.Add),
	// and the over-cost warning is not given for it.
	FirstRun bool

	// Iterations is the number of iterations of the solution phase: for
	// Paper one per task of the busiest processor left, for
	// LeftRightHandoff the rounds in which some lane solved a task, for
	// LeftRightHandoffRace the most rounds one lane ran (in one
	// dispatch), for the other strategies 1.
	Iterations int
	// Handoffs counts LeftRightHandoffRace's races that moved tasks.
	Handoffs int
	Balances int    // redistribution phases
	Gathers  int    // full information gathering phases
	Counts   int    // first-pass-only reductions (PhaseCount)
	Savings  uint64 // iterations the redistributions saved, Σ savings

	// The phases' times. Solve has one duration per iteration: a batched
	// dispatch's (Config.Batch) shared equally among its iterations.
	Count, Gather, Redistribute, Solve PhaseTimes
	Schedule                           PhaseTimes // strategies only
	// Dispatches is the number of dispatches of the solution kernel:
	// Iterations for the paper's loop run one iteration a dispatch, fewer
	// where it batches them (Config.Batch).
	Dispatches int

	// Tasks is S, the sum of the workloads at the start. CriticalPath is
	// the run's length in tasks: the sum over its dispatches of the most
	// tasks one lane solved in the dispatch. For Paper that is Iterations
	// times ceil(Processors/Lanes) (exact with one lane per processor; a
	// bound otherwise); for a strategy it is counted on the GPU. See
	// Imbalance.
	Tasks, CriticalPath uint64
	// Chunk is the work pool's chunk or Left-Right Handoff's quota used.
	Chunk int

	// MaxCost is the largest measured cost, in iterations, of an iteration
	// that gathered: (its gathering + its redistribution) / its solution
	// phase. Above CostIterations the overestimate was not one. Only an
	// iteration whose solution phase ran in a dispatch of its own counts,
	// as the calibration measures them (every one with Config.Batch 1): a
	// batch's share is no iteration's time.
	MaxCost   float64
	MaxCostAt int // the iteration of MaxCost

	Time time.Duration // GPU time of all phases
	Wall time.Duration // host time of the run
}

// Imbalance is CriticalPath over the perfectly balanced length S/Lanes:
// 1 when every lane solved the same number of tasks in every dispatch, and
// for the paper's Figure 1 with one lane per processor MAX(workload) over
// the average workload. 0 when there were no tasks.
func (s *Stats) Imbalance() float64 {
	if s.Tasks == 0 || s.Lanes == 0 {
		return 0
	}
	return float64(s.CriticalPath) * float64(s.Lanes) / float64(s.Tasks)
}

// paperCriticalPath sets Tasks and CriticalPath of a run of the paper's
// loop: each iteration, a lane solves one task of each of its processors
// with work, at most ceil(P/Lanes).
func (s *Stats) paperCriticalPath() {
	s.Tasks = s.Start.SumWorkload
	if s.Lanes > 0 {
		s.CriticalPath = uint64(s.Iterations) * uint64((s.Processors+s.Lanes-1)/s.Lanes)
	}
}

// StartAvg is the average workload at the start (the paper's Table 1).
func (s *Stats) StartAvg() float64 {
	if s.Start.Processors == 0 {
		return 0
	}
	return float64(s.Start.SumWorkload) / float64(s.Start.Processors)
}

func (s *Stats) String() string {
	var b strings.Builder
	if s.Strategy != Paper {
		fmt.Fprintf(&b, "%s: %v", s.Name, s.Strategy)
	} else {
		fmt.Fprintf(&b, "%s: %v", s.Name, s.Policy)
	}
	fmt.Fprintf(&b, ", %d processors (%d lanes), start max %d avg %.1f", s.Processors, s.Lanes, s.Start.MaxWorkload, s.StartAvg())
	fmt.Fprintf(&b, ": %d iterations, %d balances, %d gathers, %d counts, time %v", s.Iterations, s.Balances, s.Gathers, s.Counts, s.Time)
	return b.String()
}

// span is one timed phase of a run.
type span struct {
	phase Phase
	iter  int // the iteration the phase belongs to (a gathering belongs to the iteration it precedes)
	n     int // the iterations it spans, from iter: 1 but for a batched solution phase
	dur   time.Duration
}

// account fills the phase times and MaxCost of s from the spans of a run.
func (s *Stats) account(spans []span) {
	type iterCost struct {
		gathered     bool
		info, redis  time.Duration
		solve        time.Duration
		solveCounted bool
	}
	per := map[int]*iterCost{}
	at := func(i int) *iterCost {
		c := per[i]
		if c == nil {
			c = &iterCost{}
			per[i] = c
		}
		return c
	}
	for _, sp := range spans {
		s.Time += sp.dur
		switch sp.phase {
		case PhaseCount:
			s.Count.add(sp.dur)
		case PhaseGather:
			s.Gather.add(sp.dur)
			c := at(sp.iter)
			c.gathered, c.info = true, c.info+sp.dur
		case PhaseRedistribute:
			s.Redistribute.add(sp.dur)
			at(sp.iter).redis += sp.dur
		case PhaseSchedule:
			s.Schedule.add(sp.dur)
		case PhaseSolve:
			s.Dispatches++
			// A batched dispatch's iterations share its time equally.
			n := max(sp.n, 1)
			for k := range n {
				d := sp.dur / time.Duration(n)
				if k < int(sp.dur%time.Duration(n)) {
					d++ // the remainder, so that the parts add up to the whole
				}
				s.Solve.add(d)
				if c := per[sp.iter+k]; c != nil && !c.solveCounted && n == 1 {
					c.solve, c.solveCounted = d, true
				}
			}
		}
	}
	for i, c := range per {
		if !c.gathered || !c.solveCounted {
			continue
		}
		cost := costOf(c.info, c.redis, c.solve)
		if cost > s.MaxCost || cost == s.MaxCost && i < s.MaxCostAt {
			s.MaxCost, s.MaxCostAt = cost, i
		}
	}
}

// costOf is the paper's cost in iterations: (time_info + time_redis) /
// time_soln. A solution phase measured as 0 (a clock too coarse) counts as
// 1 ns, so the cost is large rather than undefined.
func costOf(info, redis, soln time.Duration) float64 {
	return float64(info+redis) / float64(max(soln, 1))
}
