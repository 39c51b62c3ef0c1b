package experiment

import (
	"math"
	"testing"
	"time"

	"github.com/dpgl/dpgl/balancer"
)

// The summary's arithmetic on frames of known times: the speedup range
// over the unbalanced set only, the worst loss over the balanced sets.
func TestSecondSummary(t *testing.T) {
	r := &SecondReport{}
	add := func(set, class, view, renderer string, ms, orMs float64) {
		r.Frames = append(r.Frames, SecondFrame{Set: set, Class: class, View: view, Lanes: "all", Renderer: renderer, GPUMs: ms, SpeedupOR: orMs / ms, Same: true})
	}
	add("u", "unbalanced", "(0,0)", "OR", 100, 100)
	add("u", "unbalanced", "(0,0)", "LB", 25, 100) // 4x
	add("u", "unbalanced", "M(0,0)", "OR", 330, 330)
	add("u", "unbalanced", "M(0,0)", "LB", 10, 330) // 33x
	add("b1", "balanced", "(0,0)", "OR", 10, 10)
	add("b1", "balanced", "(0,0)", "LB", 12.5, 10) // 25% loss
	add("b2", "balanced", "(0,0)", "OR", 10, 10)
	add("b2", "balanced", "(0,0)", "LB", 8, 10) // 20% faster
	r.summarize([]balancer.Policy{balancer.Never, balancer.CostEffective})
	s, ok := r.Result("LB")
	if !ok || len(r.Summary) != 1 {
		t.Fatalf("summary %+v", r.Summary)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	if !near(s.Speedup.Min, 4) || !near(s.Speedup.Max, 33) || s.Speedup.MinAt != "u, (0,0), lanes all" || s.Speedup.MaxAt != "u, M(0,0), lanes all" {
		t.Fatalf("speedup %+v, want 4x at (0,0) to 33x at M(0,0)", s.Speedup)
	}
	if !near(s.Loss.Max, 0.25) || !near(s.Loss.Min, -0.2) || s.Loss.MaxAt != "b1, (0,0), lanes all" {
		t.Fatalf("loss %+v, want worst 25%% on b1, best 20%% faster", s.Loss)
	}
	if !r.Images.Identical {
		t.Fatal("images not identical with no differing frame")
	}
}

// §4.1's cost of a set on constructed frames: per frame, the repetition of
// median cost; the largest over the frames of the policies that gather;
// OR's frames and frames that did not gather left out.
func TestSecondCosts(t *testing.T) {
	ms := time.Millisecond
	rep := func(gather, redist, solve time.Duration) balancer.Stats {
		var s balancer.Stats
		s.Gather = balancer.PhaseTimes{N: 1, Min: gather, Max: gather, Total: gather}
		s.Redistribute = balancer.PhaseTimes{N: 1, Min: redist, Max: redist, Total: redist}
		if redist == 0 {
			s.Redistribute = balancer.PhaseTimes{}
		}
		s.Solve = balancer.PhaseTimes{N: 4, Min: solve, Max: 2 * solve, Total: 6 * solve}
		return s
	}
	frame := func(pol balancer.Policy, view string, reps ...balancer.Stats) Frame {
		fr := Frame{Policy: pol}
		fr.View.Name = view
		fr.Scan.Reps = reps
		fr.Z.Reps = []balancer.Stats{rep(ms, 0, ms)} // cost 1
		return fr
	}
	r := &SecondReport{Costs: [2]float64{10, 10}}
	r.addCosts("s", []Frame{
		frame(balancer.Never, "(0,0)", rep(100*ms, 100*ms, ms)),                                           // OR: not counted
		frame(balancer.CostEffective, "(0,0)", rep(2*ms, 4*ms, ms), rep(ms, ms, ms), rep(9*ms, 9*ms, ms)), // median 6
		frame(balancer.Bounded, "M(0,0)", rep(6*ms, 6*ms, ms)),                                            // 12, above 10
		frame(balancer.CostEffective, "(45,45)"),                                                          // no gathering
	})
	if len(r.CostCheck) != 2 {
		t.Fatalf("%d costs, want 2", len(r.CostCheck))
	}
	scan, z := r.CostCheck[0], r.CostCheck[1]
	if scan.Loop != LoopNames[0] || scan.Cost != 12 || scan.At != "M(0,0), lanes all, Bounded" || scan.Datasets != 2 || scan.Over != 1 || scan.Overestimate != 10 {
		t.Fatalf("scan conversion %+v", scan)
	}
	if z.Cost != 1 || z.Datasets != 3 || z.Over != 0 {
		t.Fatalf("z-buffer %+v", z)
	}
	if below, worst := r.CostsBelow(); below || worst.Loop != LoopNames[0] {
		t.Fatalf("CostsBelow = %v, %+v", below, worst)
	}
}
