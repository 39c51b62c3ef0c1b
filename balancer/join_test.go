package balancer

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/dpgl/dpgl/gpu/gputest"
)

// callLog is a machine that records its calls.
type callLog struct{ calls []string }

func (c *callLog) count(iter int) Info {
	c.calls = append(c.calls, fmt.Sprint("count ", iter))
	return Info{}
}
func (c *callLog) gather(iter int, _ *Info) Info {
	c.calls = append(c.calls, fmt.Sprint("gather ", iter))
	return Info{}
}
func (c *callLog) redistribute(iter int, _ Info) {
	c.calls = append(c.calls, fmt.Sprint("redistribute ", iter))
}
func (c *callLog) solve(iter, n int) { c.calls = append(c.calls, fmt.Sprint("solve ", iter, n)) }
func (c *callLog) spans() []span     { c.calls = append(c.calls, "spans"); return nil }

// joinSolves joins consecutive solution phases only: every other phase,
// and the end, runs the held ones first, in order.
func TestJoinSolves(t *testing.T) {
	var log callLog
	j := &joinSolves{machine: &log}
	j.solve(0, 1)
	j.solve(1, 3) // joined: 0..3
	j.solve(4, 0) // nothing
	j.gather(4, nil)
	j.solve(4, 1)
	j.solve(6, 2) // not consecutive: its own
	j.redistribute(8, Info{})
	j.solve(8, 1)
	j.count(9)
	j.solve(9, 2)
	j.solve(11, 1)
	j.spans()
	j.solve(12, 5)
	j.flush()
	j.flush()
	want := []string{"solve 0 4", "gather 4", "solve 4 1", "solve 6 2", "redistribute 8", "solve 8 1", "count 9", "solve 9 3", "spans", "solve 12 5"}
	if !slices.Equal(log.calls, want) {
		t.Fatalf("calls\n got %q\nwant %q", log.calls, want)
	}
}

// The loop after a redistribution that no later one can follow runs its
// rest in the dispatch of the redistribution's iteration: the worked
// example's CostEffective run balances once and solves its 20 iterations
// in one dispatch, as Simulate's model runs them.
func TestJoinedAfterRedistributionGPU(t *testing.T) {
	w := []uint32{100, 19, 0, 0, 0, 0, 0}
	sol := newSynthetic(t, scanner(t).Context(), len(w))
	l := newLoop[uint32](t, Config{Policy: CostEffective, CostIterations: 19, Logf: t.Logf})
	if err := l.Load(w, nil, problems(len(w))); err != nil {
		t.Fatal(err)
	}
	st, err := l.Run(sol)
	if err != nil {
		t.Fatal(err)
	}
	m := NewModel(IntegerSteps, w, nil, problems(len(w)))
	ms := Simulate(m, Config{Policy: CostEffective, CostIterations: 19, Logf: t.Logf}, nil, nil)
	if st.Iterations != ms.Iterations || st.Balances != ms.Balances || st.Gathers != ms.Gathers {
		t.Fatalf("GPU %d iterations, %d balances, %d gathers; the model %d, %d, %d", st.Iterations, st.Balances, st.Gathers, ms.Iterations, ms.Balances, ms.Gathers)
	}
	if st.Balances != 1 || st.Gathers != 1 || st.Dispatches != 1 {
		t.Fatalf("%d balances, %d gathers, %d dispatches for %d iterations: want 1, 1 and 1", st.Balances, st.Gathers, st.Dispatches, st.Iterations)
	}
	if st.Solve.N != st.Iterations {
		t.Fatalf("%d solution phases timed for %d iterations", st.Solve.N, st.Iterations)
	}
}

// aheadLog is a callLog that also counts and gathers ahead.
type aheadLog struct{ callLog }

func (a *aheadLog) countAhead(iter, ahead int) Info {
	a.calls = append(a.calls, fmt.Sprint("count ", iter, " ahead ", ahead))
	return Info{}
}

func (a *aheadLog) gatherAhead(iter int, _ *Info, ahead int) Info {
	a.calls = append(a.calls, fmt.Sprint("gather ", iter, " ahead ", ahead))
	return Info{}
}

// With a machine that looks ahead, counts and gatherings that follow the
// held iterations directly see past them and keep them held; only a
// redistribution, a phase of another iteration, or the end runs them.
func TestJoinSolvesAhead(t *testing.T) {
	var log aheadLog
	j := &joinSolves{machine: &log, ahead: &log}
	j.gather(0, nil) // nothing held: the plain phase
	j.solve(0, 1)
	j.gather(1, nil)
	j.solve(1, 1)
	j.count(2)
	j.solve(2, 3)
	j.redistribute(5, Info{})
	j.solve(5, 1)
	j.count(7) // not the next iteration: runs the held one first
	j.solve(7, 2)
	j.flush()
	want := []string{"gather 0", "gather 1 ahead 1", "count 2 ahead 2", "solve 0 5", "redistribute 5", "solve 5 1", "count 7", "solve 7 2"}
	if !slices.Equal(log.calls, want) {
		t.Fatalf("calls\n got %q\nwant %q", log.calls, want)
	}
}

// A loop that gathers or counts between its iterations runs them in one
// dispatch per redistribution and one more: every count and gathering
// looks past the iterations before it, and the run is the model's.
func TestGatherAheadGPU(t *testing.T) {
	for _, cs := range []struct {
		pol  Policy
		w    []uint32
		cost float64
	}{
		{CostEffective, []uint32{40, 38, 39, 40, 37, 0, 1}, 30}, // gathers, never balances
		{Bounded, []uint32{20, 20, 20, 20, 1, 2, 3, 0}, 5},      // counts and gathers, then balances
		{CostEffective, []uint32{20, 20, 20, 20, 1, 2, 3, 0}, 5},
	} {
		cfg := Config{Policy: cs.pol, CostIterations: cs.cost, Logf: t.Logf}
		sol := newSynthetic(t, scanner(t).Context(), len(cs.w))
		l := newLoop[uint32](t, cfg)
		if err := l.Load(cs.w, nil, problems(len(cs.w))); err != nil {
			t.Fatal(err)
		}
		st, err := l.Run(sol)
		if err != nil {
			t.Fatal(err)
		}
		ms := Simulate(NewModel(IntegerSteps, cs.w, nil, problems(len(cs.w))), cfg, nil, nil)
		if st.Iterations != ms.Iterations || st.Balances != ms.Balances || st.Gathers != ms.Gathers || st.Counts != ms.Counts || st.Savings != ms.Savings {
			t.Fatalf("%v %v: GPU %d iterations, %d balances, %d gathers, %d counts; the model %d, %d, %d, %d", cs.pol, cs.w,
				st.Iterations, st.Balances, st.Gathers, st.Counts, ms.Iterations, ms.Balances, ms.Gathers, ms.Counts)
		}
		t.Logf("%v %v: %d iterations, %d balances, %d gathers, %d counts, %d dispatches", cs.pol, cs.w, st.Iterations, st.Balances, st.Gathers, st.Counts, st.Dispatches)
		if st.Gathers+st.Counts < 3 || st.Dispatches > st.Balances+1 {
			t.Fatalf("%v %v: %d balances, %d gathers, %d counts, %d dispatches for %d iterations: want several gatherings or counts, and a dispatch per balance and one more",
				cs.pol, cs.w, st.Balances, st.Gathers, st.Counts, st.Dispatches, st.Iterations)
		}
	}
}

// An iteration that gathered has a cost only where its solution phase ran
// alone: a batch's share is no iteration's time.
func TestCostOfBatchedIteration(t *testing.T) {
	ms := time.Millisecond
	var alone, batched Stats
	alone.account([]span{{PhaseGather, 0, 1, 4 * ms}, {PhaseSolve, 0, 1, 2 * ms}, {PhaseSolve, 1, 3, 3 * ms}})
	batched.account([]span{{PhaseGather, 0, 1, 4 * ms}, {PhaseSolve, 0, 4, 5 * ms}})
	if alone.MaxCost != 2 || alone.MaxCostAt != 0 {
		t.Fatalf("alone: max cost %v at %d, want 2 at 0", alone.MaxCost, alone.MaxCostAt)
	}
	if batched.MaxCost != 0 || batched.Solve.N != 4 || batched.Dispatches != 1 || batched.Gather.N != 1 {
		t.Fatalf("batched: max cost %v, %d solution phases in %d dispatches, %d gatherings; want 0, 4, 1, 1", batched.MaxCost, batched.Solve.N, batched.Dispatches, batched.Gather.N)
	}
}

// A full gathering keeps each processor's assignment where a
// redistribution may follow (its bounds on the savings exceed what the
// policy does not act on), and it is the model's; the redistribution then
// takes it as it is.
func TestGatherKeepsAssignmentGPU(t *testing.T) {
	r := gputest.Rand(t)
	for _, v := range []Variant{IntegerSteps, Unmasked, Footnote1} {
		l := newLoop[uint32](t, Config{Variant: v})
		for _, p := range []int{1, 7, 4097, 70001} {
			w := workloadFor(r, p, 0)
			w[0] = 5000 // a busy processor: savings to be had
			if err := l.Load(w, nil, problems(p)); err != nil {
				t.Fatal(err)
			}
			model := NewModel(v, w, nil, problems(p))
			want := model.Gather()
			bound := min(want.savingsBound(), want.idleBound())
			for _, above := range []uint32{0, uint32(bound) - 1, uint32(bound), 0xFFFFFFFF} {
				m := &gpuMachine[uint32]{l: l, keepAbove: above}
				in := m.gather(3, nil)
				if in != want {
					t.Fatalf("%v P=%d: gathering\n got %+v\nwant %+v", v, p, in, want)
				}
				if keep := uint64(above) < bound; m.assigned != keep || m.assignedIter != 3 {
					t.Fatalf("%v P=%d keepAbove %d, bound %d: assignment kept %v at %d, want %v", v, p, above, bound, m.assigned, m.assignedIter, keep)
				}
				if !m.assigned {
					continue
				}
				got := download[uint32](l.assignment.Slice(0, p))
				ma, _ := model.Assignment(in)
				eq(t, fmt.Sprintf("%v P=%d: kept assignment", v, p), got, ma)
			}
		}
	}
}
