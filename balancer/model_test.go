package balancer

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dpgl/dpgl/balancer/synthetic"
)

// The paper's worked example (§2.3, §2.3.1), on the model.
func TestModelWorkedExample(t *testing.T) {
	m := NewModel(IntegerSteps, []uint32{100, 19, 0, 0, 0, 0, 0}, []uint32{1, 1, 0, 0, 0, 0, 0},
		[]float32{1.0, 2.0, 0, 0, 0, 0, 0})
	in := m.Gather()
	want := Info{Processors: 7, NumIdle: 5, MaxWorkload: 100, SumWorkload: 119, MinActive: 19, Full: true,
		Avg: 17, NumMasked: 2, MaskedSum: 119, MaxNew: 20, MinNew: 19, TotalAssigned: 6}
	if in != want {
		t.Fatalf("gathering:\n got %+v\nwant %+v", in, want)
	}
	if in.Savings() != 80 {
		t.Fatalf("savings %d, want 80", in.Savings())
	}
	a, v := m.Assignment(in)
	eq(t, "assignment", a, []uint32{5, 1, 0, 0, 0, 0, 0})
	eq(t, "new_workload_values", v, []uint32{20, 19, 0, 0, 0, 0, 0})
	m.Redistribute(in)
	eq(t, "new_workload", m.Workload, []uint32{20, 20, 20, 20, 20, 19, 0})
	eq(t, "parallel_index", m.ParallelIndex, []uint32{1, 21, 41, 61, 81, 1, 0})
	eq(t, "problem_data", m.Problem, []float32{1, 1, 1, 1, 1, 2, 0})
	if got := m.Count(); got != in.afterRedistribution() {
		t.Fatalf("counts after redistribution %+v, predicted %+v", got, in.afterRedistribution())
	}
}

func eq[T any](t *testing.T, what string, got, want []T) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s = %v, want %v", what, got, want)
	}
}

// The remainder rule: the last processor of a block takes what is left, and
// never nothing.
func TestAssignRemainder(t *testing.T) {
	for _, c := range []struct {
		w, idle uint32
		sum     uint64
		a, c    uint32
	}{
		{100, 5, 119, 5, 20},
		{19, 5, 119, 1, 19},
		{5, 3, 5, 3, 2},                 // raw 4 processors: 2+2+2 > 5, so 3 of them: 2 2 1
		{2, 9, 2, 2, 1},                 // raw 10 processors for 2 tasks: capped at 2
		{10, 3, 10, 4, 3},               // 3 3 3 1
		{7, 0, 7, 1, 7},                 // nobody idle
		{1, 100, 1, 1, 1},               // one task
		{9, 3, 9, 3, 3},                 // 4 raw: c = 3, 3 processors suffice
		{0, 5, 10, 0, 0},                // idle
		{4e9, 1 << 31, 4e9, 4e9 / 2, 2}, // w*idle beyond 32 bits
	} {
		a, cc := assign(c.w, true, c.idle, c.sum)
		if a != c.a || cc != c.c {
			t.Errorf("assign(%d, idle %d, sum %d) = %d, %d; want %d, %d", c.w, c.idle, c.sum, a, cc, c.a, c.c)
		}
		if a > 0 && (a-1)*cc >= c.w {
			t.Errorf("assign(%d): the last of %d processors with %d each gets nothing", c.w, a, cc)
		}
	}
}

// optimum is the smallest new maximum any redistribution of whole problems
// to contiguous blocks can reach: the least c with Σ ceil(w/c) <= P.
func optimum(w []uint32) uint32 {
	var hi uint32
	for _, x := range w {
		hi = max(hi, x)
	}
	lo := uint32(1)
	if hi == 0 {
		return 0
	}
	for lo < hi {
		mid := lo + (hi-lo)/2
		n := 0
		for _, x := range w {
			if x > 0 {
				n += int(ceilDiv(x, mid))
			}
		}
		if n <= len(w) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// randomCase draws a workload of a random kind and size, as the property
// tests (CPU and GPU) use them.
type randomCase struct {
	kind synthetic.Kind
	p    int
	max  uint32
	w    []uint32
	pi   []uint32
}

func (c randomCase) String() string {
	return fmt.Sprintf("%v P=%d max=%d", c.kind, c.p, c.max)
}

func drawCase(r *rand.Rand, maxP int, maxW uint32) randomCase {
	c := randomCase{kind: synthetic.Kinds[r.IntN(len(synthetic.Kinds))]}
	switch r.IntN(4) {
	case 0:
		c.p = 1 + r.IntN(8)
	default:
		c.p = 1 + r.IntN(maxP)
	}
	c.max = 1 + uint32(r.Uint64N(uint64(maxW)))
	c.w = synthetic.Workload(c.kind, c.p, c.max, r)
	c.pi = make([]uint32, c.p)
	for i := range c.pi {
		c.pi[i] = uint32(r.Uint64N(1 << 20))
	}
	return c
}

// problems gives each processor its own problem id (its position).
func problems(p int) []uint32 {
	out := make([]uint32, p)
	for i := range out {
		out[i] = uint32(i)
	}
	return out
}

// ledger checks that every (problem, task) pair of a run is solved exactly
// once.
type ledger struct {
	first, count []uint32 // per problem
	solved       [][]uint8
	bad          string
}

func newLedger(w, pi []uint32) *ledger {
	l := &ledger{first: pi, count: w, solved: make([][]uint8, len(w))}
	for i := range w {
		l.solved[i] = make([]uint8, w[i])
	}
	return l
}

func (l *ledger) solve(_ int, problem uint32, task uint32) {
	k := task - l.first[problem]
	if int(problem) >= len(l.count) || k >= l.count[problem] {
		if l.bad == "" {
			l.bad = fmt.Sprintf("task %d of problem %d, which has tasks %d..%d", task, problem, l.first[problem], l.first[problem]+l.count[problem]-1)
		}
		return
	}
	l.solved[problem][k]++
}

func (l *ledger) check() error {
	if l.bad != "" {
		return fmt.Errorf("solved %s", l.bad)
	}
	for p, s := range l.solved {
		for k, n := range s {
			if n != 1 {
				return fmt.Errorf("task %d of problem %d solved %d times", l.first[p]+uint32(k), p, n)
			}
		}
	}
	return nil
}

// Every policy and variant over thousands of random workloads: every task
// solved exactly once, never more iterations than Never, and Bounded making
// exactly CostEffective's decisions with at most its gatherings.
func TestModelProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for i := 0; i < n; i++ {
		c := drawCase(r, 300, 200)
		v := Variant(i % variants)
		cost := float64(1 + r.IntN(40))
		var got [4]Stats
		for _, pol := range Policies {
			m := NewModel(v, c.w, c.pi, problems(c.p))
			l := newLedger(c.w, c.pi)
			got[pol] = Simulate(m, Config{Policy: pol, Variant: v, CostIterations: cost, Logf: t.Logf}, nil, l.solve)
			if err := l.check(); err != nil {
				t.Fatalf("case %d (%v, %v, %v, cost %v): %v", i, c, v, pol, cost, err)
			}
			if w := m.Count(); w.MaxWorkload != 0 {
				t.Fatalf("case %d (%v, %v): workload left %+v", i, c, pol, w)
			}
		}
		never := got[Never].Iterations
		if never != int(got[Never].Start.MaxWorkload) || got[Never].Balances != 0 || got[Never].Gathers != 0 {
			t.Fatalf("case %d (%v): Never ran %+v", i, c, got[Never])
		}
		for _, pol := range Policies[1:] {
			if got[pol].Iterations > never {
				t.Fatalf("case %d (%v): %v ran %d iterations, Never %d", i, c, pol, got[pol].Iterations, never)
			}
		}
		ce, b := got[CostEffective], got[Bounded]
		if b.Iterations != ce.Iterations || b.Balances != ce.Balances || b.Savings != ce.Savings || b.Gathers > ce.Gathers {
			t.Fatalf("case %d (%v, cost %v): Bounded %d iterations %d balances %d gathers; CostEffective %d %d %d",
				i, c, cost, b.Iterations, b.Balances, b.Gathers, ce.Iterations, ce.Balances, ce.Gathers)
		}
	}
}

// Each redistribution reaches the paper's near-optimal balance: the new
// maximum is at most ceil(sum_workload / num_idle) (or the average), so
// within a factor 1 + masked/idle of the best that whole problems on
// contiguous blocks allow; for Footnote1, when its blocks fit, at most
// ceil(2S/P), twice the average (a processor with w*P/S >= 1 gets
// floor(w*P/S) > w*P/(2S) processors, a lighter one keeps w < S/P); and
// the bounds Bounded relies on hold.
func TestModelBalanceAndBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 4000; i++ {
		c := drawCase(r, 200, 300)
		v := Variant(i % variants)
		m := NewModel(v, c.w, c.pi, problems(c.p))
		for step := 0; ; step++ {
			in := m.Gather()
			if in.MaxWorkload == 0 {
				break
			}
			if in.counts() != m.Count() {
				t.Fatalf("case %d: Gather and Count disagree: %+v vs %+v", i, in, m.Count())
			}
			s := uint64(in.Savings())
			if s > in.savingsBound() || s > in.idleBound() {
				t.Fatalf("case %d step %d: savings %d above a bound (%d, %d): %+v", i, step, s, in.savingsBound(), in.idleBound(), in)
			}
			if in.TotalAssigned > in.Processors || in.MinNew == 0 || in.MinNew > in.MaxNew {
				t.Fatalf("case %d step %d: impossible assignment %+v", i, step, in)
			}
			if v == Footnote1 && in.Oversubscribed == 0 {
				p := uint64(in.Processors)
				if bound := (2*in.SumWorkload + p - 1) / p; uint64(in.MaxNew) > bound {
					t.Fatalf("case %d step %d: footnote 1's new maximum %d above ceil(2S/P) %d: %+v", i, step, in.MaxNew, bound, in)
				}
			}
			if in.NumIdle > 0 && v != Footnote1 {
				bound := max(uint64(in.Avg), (in.MaskedSum+uint64(in.NumIdle)-1)/uint64(in.NumIdle))
				if uint64(in.MaxNew) > bound {
					t.Fatalf("case %d step %d: new maximum %d above ceil(sum/idle) %d: %+v", i, step, in.MaxNew, bound, in)
				}
				opt := float64(optimum(m.Workload))
				if float64(in.MaxNew) > opt*(1+float64(in.NumMasked)/float64(in.NumIdle))+1 {
					t.Fatalf("case %d step %d: new maximum %d, optimum %v, %d masked, %d idle", i, step, in.MaxNew, opt, in.NumMasked, in.NumIdle)
				}
			}
			before := in.savingsBound()
			if s > 0 && step%3 != 2 {
				m.Redistribute(in)
				if got := m.Count(); got != in.afterRedistribution() {
					t.Fatalf("case %d step %d: counts after redistribution %+v, predicted %+v", i, step, got, in.afterRedistribution())
				}
				continue
			}
			j := uint32(1 + r.IntN(3))
			for k := uint32(0); k < j; k++ {
				m.Solve(nil)
			}
			got := m.Count()
			if j < in.MinActive && got != in.advance(j) {
				t.Fatalf("case %d step %d: counts after %d iterations %+v, predicted %+v", i, step, j, got, in.advance(j))
			}
			if got.savingsBound() > before {
				t.Fatalf("case %d step %d: savings bound grew from %d to %d", i, step, before, got.savingsBound())
			}
		}
	}
}

// On balanced data Bounded settles the run with the one count that Never
// needs too: no gathering at all.
func TestBoundedSkipsBalancedData(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 50; i++ {
		w := synthetic.Workload(synthetic.Balanced, 1000, 16, r)
		m := NewModel(IntegerSteps, w, nil, problems(len(w)))
		st := Simulate(m, Config{Policy: Bounded, CostIterations: 20}, nil, nil)
		if st.Gathers != 0 || st.Counts != 1 || st.Iterations != 16 {
			t.Fatalf("Bounded on balanced data: %d gathers, %d counts, %d iterations; want 0, 1, 16", st.Gathers, st.Counts, st.Iterations)
		}
		m = NewModel(IntegerSteps, w, nil, problems(len(w)))
		ce := Simulate(m, Config{Policy: CostEffective, CostIterations: 20}, nil, nil)
		// A cost of 20 exceeds MAX(workload) - 1 = 15, the most any
		// redistribution could save: one gathering says so.
		if ce.Gathers != 1 || ce.Balances != 0 || ce.Iterations != 16 {
			t.Fatalf("CostEffective on balanced data: %d gathers %d balances %d iterations, want 1, 0, 16", ce.Gathers, ce.Balances, ce.Iterations)
		}
		// With a cost of 10 it gathers as the paper's loop does until
		// MAX(workload) - 1 <= 10, known without gathering after
		// iteration 4: gatherings before iterations 0..4.
		m = NewModel(IntegerSteps, w, nil, problems(len(w)))
		ce = Simulate(m, Config{Policy: CostEffective, CostIterations: 10}, nil, nil)
		if ce.Gathers != 5 || ce.Balances != 0 || ce.Iterations != 16 {
			t.Fatalf("CostEffective on balanced data at cost 10: %d gathers %d balances %d iterations, want 5, 0, 16", ce.Gathers, ce.Balances, ce.Iterations)
		}
	}
	// The worked example: worth balancing at once.
	m := NewModel(IntegerSteps, []uint32{100, 19, 0, 0, 0, 0, 0}, nil, problems(7))
	st := Simulate(m, Config{Policy: Bounded, CostIterations: 20}, nil, nil)
	if st.Balances < 1 || st.Iterations > 25 {
		t.Fatalf("Bounded on the worked example: %+v", st)
	}
}

func TestDecide(t *testing.T) {
	in := Info{Full: true, MaxWorkload: 100, MaxNew: 80} // savings 20
	for _, c := range []struct {
		p    Policy
		cost float64
		want bool
	}{
		{Never, 0, false}, {Always, 1000, true}, {CostEffective, 19.5, true}, {CostEffective, 20, false},
		{Bounded, 19, true}, {Bounded, 20, false},
	} {
		if got := Decide(c.p, in, c.cost); got != c.want {
			t.Errorf("Decide(%v, savings 20, cost %v) = %v", c.p, c.cost, got)
		}
	}
	if Decide(Always, Info{Full: true, MaxWorkload: 5, MaxNew: 5}, 0) {
		t.Error("Always balanced with no savings")
	}
	if Decide(Always, Info{MaxWorkload: 5}, 0) {
		t.Error("balanced on a count")
	}
}

// Decisions and warnings with injected timings: no real clock.
func TestCostWarningWithInjectedTimings(t *testing.T) {
	clock := func(redis time.Duration) Clock {
		return func(p Phase, active int) time.Duration {
			switch p {
			case PhaseGather:
				return 2 * time.Millisecond
			case PhaseRedistribute:
				return redis
			case PhaseCount:
				return time.Millisecond
			}
			return time.Millisecond // a solution phase
		}
	}
	w := []uint32{100, 19, 0, 0, 0, 0, 0}
	var logs []string
	logf := func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }

	// Redistribution 8 ms + gathering 2 ms over 1 ms: 10 iterations, within
	// an overestimate of 12.
	st := Simulate(NewModel(IntegerSteps, w, nil, problems(7)), Config{Name: "t", Policy: CostEffective, CostIterations: 12, Logf: logf}, clock(8*time.Millisecond), nil)
	if len(logs) != 0 || st.MaxCost != 10 || st.Balances == 0 {
		t.Fatalf("within the overestimate: max cost %v, %d balances, logs %q", st.MaxCost, st.Balances, logs)
	}
	if st.Gather.Min != 2*time.Millisecond || st.Gather.Max != 2*time.Millisecond || st.Solve.Avg() != time.Millisecond ||
		st.Redistribute.N != st.Balances || st.Solve.N != st.Iterations || st.Gather.N != st.Gathers {
		t.Fatalf("phase times %+v %+v %+v", st.Gather, st.Redistribute, st.Solve)
	}
	if want := time.Duration(st.Gathers)*2*time.Millisecond + time.Duration(st.Balances)*8*time.Millisecond + time.Duration(st.Iterations)*time.Millisecond; st.Time != want {
		t.Fatalf("total time %v, want %v", st.Time, want)
	}

	// 30 ms: 32 iterations, above the overestimate: one warning, with the
	// numbers, however many iterations exceed it.
	st = Simulate(NewModel(IntegerSteps, w, nil, problems(7)), Config{Name: "t", Policy: CostEffective, CostIterations: 12, Logf: logf}, clock(30*time.Millisecond), nil)
	if len(logs) != 1 || st.MaxCost != 32 {
		t.Fatalf("above the overestimate: max cost %v, logs %q", st.MaxCost, logs)
	}
	for _, want := range []string{"t: iteration 0 cost 32.0 iterations", "2ms", "30ms", "1ms", "overestimate of 12"} {
		if !strings.Contains(logs[0], want) {
			t.Fatalf("warning %q lacks %q", logs[0], want)
		}
	}

	// Never and Always do not compare with the cost, so they do not warn.
	logs = nil
	Simulate(NewModel(IntegerSteps, w, nil, problems(7)), Config{Policy: Always, Logf: logf}, clock(time.Second), nil)
	if len(logs) != 0 {
		t.Fatalf("Always warned: %q", logs)
	}

	// No cost given: the default, said once.
	st = Simulate(NewModel(IntegerSteps, w, nil, problems(7)), Config{Name: "z", Policy: Bounded, Logf: logf}, nil, nil)
	if st.CostIterations != DefaultCostIterations || len(logs) != 1 || !strings.Contains(logs[0], "z: no calibrated cost") {
		t.Fatalf("default cost %v, logs %q", st.CostIterations, logs)
	}
}

func TestConfigMisuse(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Policy: 9}, "Config.Policy"},
		{Config{Variant: 5}, "Config.Variant"},
		{Config{Lanes: -1}, "Config.Lanes"},
		{Config{CostIterations: -1}, "Config.CostIterations"},
	} {
		func() {
			defer func() {
				if p := fmt.Sprint(recover()); !strings.Contains(p, "balancer: Simulate: "+c.want) {
					t.Errorf("%+v: panic %q, want one naming %s", c.cfg, p, c.want)
				}
			}()
			Simulate(NewModel(c.cfg.Variant, []uint32{1}, nil, []uint32{0}), c.cfg, nil, nil)
		}()
	}
	if p, err := ParsePolicy("costeffective"); err != nil || p != CostEffective {
		t.Fatalf("ParsePolicy: %v %v", p, err)
	}
	if _, err := ParsePolicy("sometimes"); err == nil {
		t.Fatal("ParsePolicy accepted nonsense")
	}
}
