package balancer

import (
	"testing"

	"github.com/dpgl/dpgl/balancer/synthetic"
	"github.com/dpgl/dpgl/gpu/gputest"
)

// The Left-Right Handoff race on adversarial workloads and lane counts:
// one heavy processor, skewed and staircase workloads, every task solved
// exactly once and the arrays retired (runStrategyCase), whichever way the
// races between the lanes went. Half the cases start the lanes with runs of
// processors (raceRuns), whose uneven counts make neighbours hand over.
func TestHandoffRaceGPU(t *testing.T) {
	c := gputest.Context(t)
	defer func() { raceRuns = false }()
	r := gputest.Rand(t)
	l := newLoop[uint32](t, Config{})
	kinds := []synthetic.Kind{synthetic.OneHeavy, synthetic.Zipf, synthetic.Uniform, synthetic.Balanced}
	handoffs := 0
	for i := 0; i < 16; i++ {
		p := []int{1, 2, 63, 64, 65, 300 + r.IntN(3000)}[i%6]
		w := synthetic.Workload(kinds[i%len(kinds)], p, 1+uint32(r.IntN(400)), r)
		pi := make([]uint32, p)
		for k := range pi {
			pi[k] = uint32(r.IntN(1000))
		}
		cfg := Config{Strategy: LeftRightHandoffRace, Lanes: []int{0, 1, 2, 7, 64, 65, 1 + r.IntN(p)}[i%7]}
		raceRuns = i%2 == 0
		st, err := runStrategyCase(t, c, l, cfg, w, pi)
		if err != nil {
			t.Fatalf("case %d (P=%d, lanes %d): %v", i, p, cfg.Lanes, err)
		}
		handoffs += st.Handoffs
	}
	if handoffs == 0 {
		t.Fatal("no race ever moved a task")
	}
	t.Logf("%d handoffs", handoffs)
}

// A race that must be won: lane 0 holds 400 tasks and lane 1 two (lanes
// started with runs of processors, raceRuns), lanes
// in one lockstep vector on llvmpipe, so that lane 1 reaches its
// checkpoint (after one task) while lane 0 is before its own (200) and
// lane 0 hands over. Where lanes run at their own pace the race may go
// either way; only the tasks are checked there.
func TestHandoffRaceHandsOverGPU(t *testing.T) {
	c := gputest.Context(t)
	raceRuns = true // lane i starts with processor i's tasks
	defer func() { raceRuns = false }()
	l := newLoop[uint32](t, Config{})
	w := make([]uint32, 8)
	for i := range w {
		w[i] = 2
	}
	w[0] = 400
	st, err := runStrategyCase(t, c, l, Config{Strategy: LeftRightHandoffRace, Lanes: len(w)}, w, make([]uint32, len(w)))
	if err != nil {
		t.Fatal(err)
	}
	if c.Caps().LockstepLanes >= len(w) && (st.Handoffs == 0 || st.CriticalPath >= 400) {
		t.Fatalf("lanes in lockstep: %d handoffs, critical path %d; want lane 0 to hand over", st.Handoffs, st.CriticalPath)
	}
	t.Logf("%d handoffs, %d rounds, critical path %d", st.Handoffs, st.Iterations, st.CriticalPath)
}

// Static random assignment is random: the lanes' counts vary (the most
// tasks one lane solved is above the fair share), the same seed gives the
// same counts, and every task is solved once at edge sizes.
func TestRandomAssignmentGPU(t *testing.T) {
	c := gputest.Context(t)
	r := gputest.Rand(t)
	l := newLoop[uint32](t, Config{})
	w := synthetic.Workload(synthetic.Uniform, 200, 100, r)
	pi := make([]uint32, len(w))
	run := func(seed uint32, lanes int) Stats {
		t.Helper()
		st, err := runStrategyCase(t, c, l, Config{Strategy: RandomAssignment, Seed: seed, Lanes: lanes}, w, pi)
		if err != nil {
			t.Fatalf("seed %d, %d lanes: %v", seed, lanes, err)
		}
		return st
	}
	var S uint64
	for _, x := range w {
		S += uint64(x)
	}
	a, b, other := run(7, 64), run(7, 64), run(8, 64)
	fair := (S + 63) / 64
	// 64 binomial counts of mean S/64 (about 150): all within one of the
	// mean has a probability far below 1e-9.
	if a.CriticalPath <= fair+1 || a.CriticalPath != b.CriticalPath {
		t.Fatalf("critical paths %d and %d with one seed, fair share %d: want equal, and above the share", a.CriticalPath, b.CriticalPath, fair)
	}
	t.Logf("S=%d on 64 lanes: the busiest lane solved %d (seed 7), %d (seed 8); fair %d", S, a.CriticalPath, other.CriticalPath, fair)
	for _, p := range []int{0, 1, 2, 255, 256, 257} {
		w := synthetic.Workload(synthetic.Zipf, max(p, 1), 50, r)[:p]
		if _, err := runStrategyCase(t, c, l, Config{Strategy: RandomAssignment, Seed: r.Uint32(), Lanes: []int{0, 1, 3}[p%3]}, w, make([]uint32, p)); err != nil {
			t.Fatalf("P=%d: %v", p, err)
		}
	}
}
