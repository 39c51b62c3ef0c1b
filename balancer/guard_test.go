package balancer

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
)

// pareto is the workload of the backfire report (issue 16): p processors,
// a Pareto(1, 1.2) workload each (mean about 4) capped at top, one of them
// at top.
func pareto(r *rand.Rand, p int, top uint32) []uint32 {
	w := make([]uint32, p)
	for i := range w {
		x := math.Floor(math.Pow(1-r.Float64(), -1/1.2))
		w[i] = uint32(min(x, float64(top)))
	}
	w[r.IntN(p)] = top
	return w
}

// gatherBound is the most gatherings CostEffective and Bounded make on a
// run starting at MAX(workload) = top with the cost: after the first, one
// only at an iteration i with MAX - 1 > cost, and MAX <= top - i.
func gatherBound(top uint32, cost float64) int {
	return max(1, int(math.Ceil(float64(top)-1-cost)))
}

// checkGuard checks the promise on one run of a cost-driven policy against
// Never's: no more iterations, gatherings bounded by what is left of the
// loop, every balance saving more than the cost, and with a cost no
// redistribution can beat, Figure 1 after at most one gathering.
func checkGuard(t *testing.T, what string, st, never Stats, cost float64) {
	t.Helper()
	top := never.Start.MaxWorkload
	if st.Iterations > never.Iterations {
		t.Errorf("%s: %d iterations, more than Never's %d", what, st.Iterations, never.Iterations)
	}
	if b := gatherBound(top, cost); st.Gathers > b {
		t.Errorf("%s: %d gatherings, more than the %d that MAX(workload) %d leaves room for at cost %.1f", what, st.Gathers, b, top, cost)
	}
	if st.Balances > 0 && float64(st.Savings) <= cost*float64(st.Balances) {
		t.Errorf("%s: %d balances saved only %d iterations at cost %.1f", what, st.Balances, st.Savings, cost)
	}
	if cost >= float64(top)-1 {
		want := map[Policy]int{CostEffective: 1, Bounded: 0}[st.Policy]
		if st.Gathers != want || st.Balances != 0 || st.Iterations != int(top) {
			t.Errorf("%s: a cost of %.1f no redistribution can beat: %d gatherings, %d balances, %d iterations; want %d, 0, %d",
				what, cost, st.Gathers, st.Balances, st.Iterations, want, top)
		}
	}
}

// On the CPU model, with a clock whose true cost is 10 iterations: at
// every cost estimate the guard holds, and with an overestimate (as a
// calibration gives) the cost-driven policies take at most Never's time
// plus their gatherings.
func TestCostGuardModel(t *testing.T) {
	const g, rd, s = 2 * time.Millisecond, 8 * time.Millisecond, time.Millisecond // true cost (2+8)/1 = 10
	clock := func(p Phase, _ int) time.Duration {
		switch p {
		case PhaseGather:
			return g
		case PhaseRedistribute:
			return rd
		case PhaseSolve:
			return s
		}
		return 0
	}
	r := rand.New(rand.NewPCG(16, 14))
	for trial := 0; trial < 3; trial++ {
		w := pareto(r, 8192, 400)
		run := func(pol Policy, cost float64) Stats {
			m := NewModel(IntegerSteps, w, nil, problems(len(w)))
			return Simulate(m, Config{Policy: pol, CostIterations: cost}, clock, nil)
		}
		never := run(Never, 1)
		for _, cost := range []float64{0.5, 10, 14, 50, 112, 200, 398, 399, 399.8, 1e6} {
			for _, pol := range []Policy{CostEffective, Bounded} {
				st := run(pol, cost)
				checkGuard(t, pol.String(), st, never, cost)
				if cost >= 10 && st.Time > never.Time+time.Duration(st.Gathers)*g {
					t.Errorf("%v at cost %.1f: %v, more than Never's %v plus %d gatherings", pol, cost, st.Time, never.Time, st.Gathers)
				}
			}
		}
	}
}

func TestCalibratorRefusesFirstRuns(t *testing.T) {
	first := Stats{FirstRun: true, Start: Info{MaxWorkload: 400}}
	first.Gather.add(8 * time.Millisecond)
	first.Redistribute.add(20 * time.Millisecond)
	first.Solve.add(100 * time.Microsecond)
	var c Calibrator
	c.Add(&first)
	c.AddMedian([]Stats{first, first})
	if _, err := c.Estimate(DefaultMargin); err == nil || !strings.Contains(err.Error(), "the 3 runs added were each their loop's first") {
		t.Fatalf("an estimate from first runs: %v", err)
	}
	// Warm runs count, the first still does not; the median of three
	// counts, not the slowest.
	warm := func(redis time.Duration) Stats {
		s := first
		s.FirstRun = false
		s.Gather, s.Redistribute, s.Solve = PhaseTimes{}, PhaseTimes{}, PhaseTimes{}
		s.Gather.add(500 * time.Microsecond)
		s.Redistribute.add(redis)
		s.Solve.add(100 * time.Microsecond)
		return s
	}
	c.AddMedian([]Stats{first, warm(3 * time.Millisecond), warm(30 * time.Millisecond), warm(2 * time.Millisecond)})
	lc, err := c.Estimate(0)
	if err != nil || lc.CostIterations != 35 || lc.Runs != 1 || c.FirstRuns != 4 || lc.LongestRun != 400 || lc.Warning() != "" {
		t.Fatalf("estimate %+v (first runs %d), %v; want (0.5+3)/0.1 = 35 from one run", lc, c.FirstRuns, err)
	}
	// A cost no redistribution in the calibration runs could beat is
	// reported with its numbers.
	lc.CostIterations = 399.8
	if w := lc.Warning(); !strings.Contains(w, "399.8 iterations") || !strings.Contains(w, "400 iterations of the longest calibration run") {
		t.Fatalf("warning %q", w)
	}
}

// hashSolution is the synthetic kernel (MODE 1, hashing each task into the
// processor's word of a sink) as a Solution.
type hashSolution struct {
	c    *gpu.Context
	prog *gpu.Program
	sink *gpu.Buffer[uint32]
}

func newSynthetic(t testing.TB, c *gpu.Context, p int) *hashSolution {
	sink, err := gpu.NewBuffer[uint32](c, p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sink.Delete)
	return &hashSolution{c: c, prog: c.MustProgram("balancer/synthetic.comp", map[string]string{"MODE": "1"}), sink: sink}
}

func (s *hashSolution) Solve(it *Iteration) {
	s.c.BindStorage(FirstFreeBinding, s.sink)
	it.Dispatch(s.prog)
}

// The backfire of issue 16, redone: a cost calibrated on a fresh loop's
// first run is refused; whatever cost is used, CostEffective and Bounded
// make no more iterations than Never and at most the gatherings the
// workload leaves room for (their only extra work), and with a cost no
// redistribution can beat they run as Figure 1 after one gathering
// (CostEffective) or none (Bounded). Calibrate on warmed-up runs gives the
// cost that balancing then uses.
func TestBackfireGPU(t *testing.T) {
	c := gputest.Context(t)
	w := pareto(gputest.Rand(t), 8192, 400)
	sol := newSynthetic(t, c, len(w))
	ids := problems(len(w))
	l := newLoop[uint32](t, Config{Name: "pareto", Policy: Always, Lanes: 1024})
	if err := l.Load(w, nil, ids); err != nil {
		t.Fatal(err)
	}
	first, err := l.Run(sol)
	if err != nil {
		t.Fatal(err)
	}
	if !first.FirstRun || first.Balances == 0 {
		t.Fatalf("the first run: FirstRun %v, %d balances", first.FirstRun, first.Balances)
	}
	var cal Calibrator
	cal.Add(&first)
	if _, err := cal.Estimate(DefaultMargin); err == nil || !strings.Contains(err.Error(), "first") {
		t.Fatalf("a calibration from a first run: %v", err)
	}
	firstCost := costOf(first.Gather.Max, first.Redistribute.Max, first.Solve.Min) + DefaultMargin
	warm, err := Calibrate(l, sol, 1, func(int) error { return l.Load(w, nil, ids) }, CalibrateOptions{Margin: DefaultMargin})
	if err != nil {
		t.Fatal(err)
	}
	if l.Config().Policy != Always || warm.Runs != 1 || warm.LongestRun != 400 {
		t.Fatalf("Calibrate: config %+v afterwards, estimate %+v", l.Config(), warm)
	}
	t.Logf("first run: gathering %v redistribution %v solution %v: cost %.1f; warmed up: %+v", first.Gather.Max, first.Redistribute.Max, first.Solve.Min, firstCost, warm)

	run := func(pol Policy, cost float64) Stats {
		t.Helper()
		if err := l.SetConfig(Config{Name: "pareto", Policy: pol, Lanes: 1024, CostIterations: cost, Logf: t.Logf}); err != nil {
			t.Fatal(err)
		}
		if err := l.Load(w, nil, ids); err != nil {
			t.Fatal(err)
		}
		st, err := l.Run(sol)
		if err != nil {
			t.Fatalf("%v at cost %.1f: %v", pol, cost, err)
		}
		return st
	}
	never := run(Never, 1)
	if never.Iterations != 400 {
		t.Fatalf("Never: %d iterations", never.Iterations)
	}
	for _, cost := range []float64{firstCost, warm.CostIterations, 112, 399.8, 1e6} {
		for _, pol := range []Policy{CostEffective, Bounded} {
			st := run(pol, cost)
			checkGuard(t, pol.String(), st, never, cost)
			t.Logf("%-13v cost %6.1f: %3d iterations, %d balances, %3d gatherings, GPU %v (Never %v)", pol, cost, st.Iterations, st.Balances, st.Gathers, st.Time, never.Time)
		}
	}
}
