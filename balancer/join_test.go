package balancer

import (
	"fmt"
	"slices"
	"testing"
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
