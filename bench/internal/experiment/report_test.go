package experiment

import (
	"testing"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/view"
)

const ms = time.Millisecond

// phases makes a phase's record from its durations.
func phases(ds ...time.Duration) balancer.PhaseTimes {
	var t balancer.PhaseTimes
	for _, d := range ds {
		t.Merge(balancer.PhaseTimes{N: 1, Min: d, Max: d, Total: d, All: []time.Duration{d}})
	}
	return t
}

// run is one run of a loop with its phases' durations; maxCost is the
// largest (gathering + redistribution) / solution of a single iteration,
// as the balancer measures it.
func run(gather, redis, solve []time.Duration, maxCost float64) balancer.Stats {
	return balancer.Stats{Gathers: len(gather), Balances: len(redis), Gather: phases(gather...), Redistribute: phases(redis...),
		Solve: phases(solve...), MaxCost: maxCost, Start: balancer.Info{MaxWorkload: 40}}
}

// frame is a frame of repetitions of the scan-conversion loop (the
// z-buffer loop never gathers).
func frame(set int, v string, pol balancer.Policy, reps ...balancer.Stats) *Frame {
	a := newFrameAcc(set, view.View{Name: v}, pol, 0)
	for _, st := range reps {
		a.add(rasterizer.FrameStats{ScanConversion: st, ZBuffer: balancer.Stats{Solve: phases(ms)}, Total: ms, Wall: ms})
	}
	fr := a.result()
	return &fr
}

// §4.1's rule takes a dataset's longest gathering and longest
// redistribution, which may come from different iterations, over its
// shortest solution phase, from a third: a dataset can cost more than the
// overestimate while no single iteration does, and the check must say so.
func TestCostCheckTakesEachDatasetAsThePaperDoes(t *testing.T) {
	// Iteration 1 gathers 3 ms and redistributes 0.2 over a 2 ms solution
	// (1.6 iterations); iteration 2 gathers 0.2 and redistributes 3 (1.6);
	// iteration 3 solves the last tasks in 0.5 ms without gathering. The
	// dataset's cost: (3 + 3) / 0.5 = 12 > 5, no iteration's above 1.6.
	over := run([]time.Duration{3 * ms, ms / 5}, []time.Duration{ms / 5, 3 * ms}, []time.Duration{2 * ms, 2 * ms, ms / 2}, 1.6)
	low := run([]time.Duration{ms}, []time.Duration{ms}, []time.Duration{ms}, 2) // cost 2
	frames := []*Frame{
		frame(Unbalanced, "M(45,45)", balancer.CostEffective, over, low, over),
		frame(Unbalanced, "M(45,45)", balancer.Bounded, low),
		frame(Unbalanced, "(0,0)", balancer.CostEffective, low),
		// Never does not balance: a frame of it that somehow gathered at a
		// great cost is not the load-balanced renderer's.
		frame(Balanced, "(0,0)", balancer.Never, run([]time.Duration{9 * ms}, []time.Duration{9 * ms}, []time.Duration{ms}, 18)),
	}
	costs := [2]LoopCost{{Cost: 5}, {Cost: 5}}
	cc := costChecks(frames, costs, []Table1Row{{ScanMax: 40, ZMax: 4}})
	want := CostCheck{Loop: LoopNames[0], Cost: 5, Paper: PaperScanCost,
		DatasetCost: 12, DatasetAt: "unbalanced set, M(45,45), lanes all", DatasetsOver: 1, Datasets: 2, Exceeded: true,
		MaxCost: 2, At: "unbalanced set, M(45,45), lanes all, LB", Over: 0, Gathered: 3, IterationExceeded: false,
		Longest: 40}
	if cc[0] != want {
		t.Fatalf("scan conversion:\n got %+v\nwant %+v", cc[0], want)
	}
	// The z-buffer loop never gathered: no dataset, nothing exceeded; its
	// cost is at least the run's longest loop, where balancing cannot pay.
	z := cc[1]
	if z.Datasets != 0 || z.Gathered != 0 || z.Exceeded || z.IterationExceeded || z.Longest != 4 || !z.CannotPay {
		t.Fatalf("z-buffer: %+v", z)
	}

	// The overestimate at the dataset's cost is not exceeded.
	costs[0].Cost = 12
	if s := costChecks(frames, costs, nil)[0]; s.Exceeded || s.DatasetsOver != 0 || s.DatasetCost != 12 {
		t.Fatalf("at the dataset's cost: %+v", s)
	}

	// Of a dataset's repetitions the median counts, as in the calibration:
	// one repetition delayed by the machine's load (cost 30) does not set
	// the dataset's cost, though the balancer warns of its iteration.
	costs[0].Cost = 5
	high := run([]time.Duration{15 * ms}, []time.Duration{15 * ms}, []time.Duration{ms}, 30)
	frames = append(frames, frame(Unbalanced, "(45,45)", balancer.CostEffective, low, high, low))
	s := costChecks(frames, costs, nil)[0]
	if s.Datasets != 3 || s.DatasetsOver != 1 || s.DatasetCost != 12 || !s.IterationExceeded || s.Over != 1 || s.MaxCost != 30 ||
		s.At != "unbalanced set, (45,45), lanes all, LB" {
		t.Fatalf("with a delayed repetition: %+v", s)
	}
}

// The z-buffer's primitive-id pass of drivers without 64-bit atomics is
// not the paper's loop: Table 4's z-buffer solution column leaves it out,
// and the report gives it as a figure of its own.
func TestTable4KeepsTheIDPassApart(t *testing.T) {
	depth := balancer.Stats{Gathers: 1, Gather: phases(ms), Redistribute: phases(2 * ms), Solve: phases(3*ms, 4*ms), Processors: 10}
	ids := balancer.Stats{Solve: phases(50 * ms), Processors: 10}
	r := &Report{index: map[frameKey]*Frame{}, views: []view.View{{Name: "(0,0)"}}, lanes: []int{0}}
	a := newFrameAcc(Unbalanced, r.views[0], balancer.CostEffective, 0)
	for range 2 {
		a.add(rasterizer.FrameStats{ScanConversion: depth, ZBuffer: depth, ZBufferIDs: ids, Total: ms, Wall: ms})
	}
	fr := a.result()
	r.index[frameKey{Unbalanced, "(0,0)", 0, balancer.CostEffective}] = &fr
	r.table4()
	z := r.Table4.Loops[1]
	if z.Solve.N != 4 || z.Solve.MaxMs != 4 || z.Solve.MinMs != 3 || z.Gather.N != 2 {
		t.Fatalf("z-buffer phases %+v: want the depth pass's alone (4 solutions of 3-4 ms)", z)
	}
	if p := r.Table4.IDPassSolve; p == nil || p.N != 2 || p.MinMs != 50 || p.MaxMs != 50 {
		t.Fatalf("id pass %+v, want 2 solutions of 50 ms", p)
	}
	if fr.Z.Passes != 2 || fr.IDs.Passes != 1 || len(fr.IDs.Reps) != 2 || len(fr.Z.Reps) != 2 {
		t.Fatalf("passes: z %d, ids %d (%d, %d repetitions)", fr.Z.Passes, fr.IDs.Passes, len(fr.Z.Reps), len(fr.IDs.Reps))
	}

	// With 64-bit atomics there is no id pass and no figure for it.
	b := newFrameAcc(Unbalanced, r.views[0], balancer.CostEffective, 0)
	b.add(rasterizer.FrameStats{ScanConversion: depth, ZBuffer: depth, Total: ms, Wall: ms})
	fr = b.result()
	r.index[frameKey{Unbalanced, "(0,0)", 0, balancer.CostEffective}] = &fr
	r.table4()
	if r.Table4.IDPassSolve != nil || fr.Z.Passes != 1 {
		t.Fatalf("64-bit: id pass %+v, z passes %d", r.Table4.IDPassSolve, fr.Z.Passes)
	}
}

// A pixel differs when its colour or its primitive id does; images of
// other sizes differ everywhere.
func TestImageCheck(t *testing.T) {
	var ic ImageCheck
	v := view.View{Name: "(0,0)"}
	first := Frame{Set: Balanced, View: v}
	if !ic.Compare([]uint32{1, 2, 3}, []uint32{4, 5, 6}, &first) || !first.Same || !first.Captured {
		t.Fatalf("first frame: %+v", first)
	}
	fr := Frame{Set: Balanced, View: v, Policy: balancer.CostEffective}
	if ic.Compare([]uint32{1, 2, 9}, []uint32{4, 0, 6}, &fr) || fr.Same || fr.Differ != 2 {
		t.Fatalf("two pixels differ: %+v", fr)
	}
	other := Frame{Set: Unbalanced, View: v}
	if !ic.Compare([]uint32{7}, []uint32{7}, &other) {
		t.Fatal("the other set's first frame was compared with this set's")
	}
	fr = Frame{Set: Unbalanced, View: v}
	if ic.Compare([]uint32{7, 7}, []uint32{7, 7}, &fr); fr.Differ != 2 || fr.Same {
		t.Fatalf("an image of another size: %+v", fr)
	}
	if got := ic.Pixels(Balanced, "(0,0)"); len(got) != 3 || got[2] != 3 {
		t.Fatalf("kept image %v, want the first frame's", got)
	}
}

// The balanced set's summary counts the frames LB balanced, and names
// each with its savings and whether it paid.
func TestBalancedSetSummary(t *testing.T) {
	r := &Report{index: map[frameKey]*Frame{}, views: []view.View{{Name: "(0,0)"}, {Name: "M(0,0)"}}, lanes: []int{0, 256}}
	add := func(v string, lanes int, pol balancer.Policy, gpu time.Duration, scan, z balancer.Stats) {
		a := newFrameAcc(Balanced, view.View{Name: v}, pol, lanes)
		a.add(rasterizer.FrameStats{ScanConversion: scan, ZBuffer: z, Total: gpu, Wall: gpu})
		fr := a.result()
		r.index[frameKey{Balanced, v, lanes, pol}] = &fr
	}
	// MAX(workload) - ceil(avg), what a redistribution could save: 9 - 3 and 20 - 7.
	plain := balancer.Stats{Gathers: 1, Start: balancer.Info{MaxWorkload: 9, SumWorkload: 12, Processors: 4}}
	balanced := balancer.Stats{Gathers: 2, Balances: 1, Savings: 5, CostIterations: 3, Start: balancer.Info{MaxWorkload: 20, SumWorkload: 21, Processors: 3}}
	for _, v := range r.views {
		for _, l := range r.lanes {
			add(v.Name, l, balancer.Never, 10*ms, balancer.Stats{}, balancer.Stats{})
			if v.Name == "M(0,0)" && l == 256 {
				add(v.Name, l, balancer.CostEffective, 12*ms, plain, balanced)
			} else {
				add(v.Name, l, balancer.CostEffective, 10*ms, plain, plain)
			}
		}
	}
	r.balancedSet()
	bs := r.Summary.BalancedSet
	want := "M(0,0), lanes 256: scan 0 balances saving 0 iterations (cost 0.0), z-buffer 1 saving 5 (cost 3.0); LB 12.0 vs OR 10.0: it did not pay"
	if bs.Frames != 4 || bs.FramesBalanced != 1 || bs.ScanBalances != 0 || bs.ZBalances != 1 || bs.Gathers != 9 || bs.MaxSavingBound != 13 ||
		len(bs.Balanced) != 1 || bs.Balanced[0] != want {
		t.Fatalf("%+v", bs)
	}
}
