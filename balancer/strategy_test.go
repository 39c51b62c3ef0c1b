package balancer

import (
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/dpgl/dpgl/balancer/synthetic"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/shaders"
)

// handoffModel is Left-Right Handoff on the CPU, step for step as
// shaders/balancer/strategy_left_right.glsl runs it, between blocks of handoffBlock lanes:
// it returns the rounds in which a task was solved and the critical path
// (the sum over rounds of the most tasks one lane solved), and checks on
// the way that every task of the order is solved exactly once.
func handoffModel(t *testing.T, w []uint32, lanes int, quota uint32) (rounds int, critical uint64) {
	rounds, critical, _ = handoffModelCounts(t, w, lanes, quota)
	return rounds, critical
}

// handoffCounts counts what the handoffs of a run did: moves into an empty
// block, extensions of an adjacent interval, moves into the second slot,
// and refusals for want of room.
type handoffCounts struct{ empty, adjacent, second, refused int }

func handoffModelCounts(t *testing.T, w []uint32, lanes int, quota uint32) (rounds int, critical uint64, hc handoffCounts) {
	t.Helper()
	p := len(w)
	off := make([]uint32, p+1)
	for i, x := range w {
		off[i+1] = off[i] + x
	}
	S := off[p]
	solved := make([]uint8, S)
	norm := func(s [4]uint32) [4]uint32 {
		if s[0] == s[1] {
			s = [4]uint32{s[2], s[3], 0, 0}
		}
		if s[2] == s[3] {
			s[2], s[3] = 0, 0
		}
		return s
	}
	length := func(s [4]uint32) uint32 { return s[1] - s[0] + s[3] - s[2] }
	give := func(donor, recv *[4]uint32, d uint32) {
		second := donor[2] != donor[3]
		lo, hi := donor[0], donor[1]
		if second {
			lo, hi = donor[2], donor[3]
		}
		n := min(d, hi-lo)
		a, b := hi-n, hi
		switch {
		case recv[0] == recv[1]:
			recv[0], recv[1] = a, b
			hc.empty++
		case b == recv[0]:
			recv[0] = a
			hc.adjacent++
		case a == recv[1]:
			recv[1] = b
			hc.adjacent++
		case recv[2] == recv[3]:
			recv[2], recv[3] = a, b
			hc.second++
		case b == recv[2]:
			recv[2] = a
			hc.adjacent++
		case a == recv[3]:
			recv[3] = b
			hc.adjacent++
		default:
			hc.refused++
			return
		}
		if second {
			donor[3] -= n
		} else {
			donor[1] -= n
		}
		*donor, *recv = norm(*donor), norm(*recv)
	}
	handoff := func(a, b [4]uint32) ([4]uint32, [4]uint32) {
		na, nb := length(a), length(b)
		if na > nb+1 {
			give(&a, &b, (na-nb)/2)
		} else if nb > na+1 {
			give(&b, &a, (nb-na)/2)
		}
		return a, b
	}
	blocks := (lanes + handoffBlock - 1) / handoffBlock
	width := func(b int) uint32 { return uint32(min(handoffBlock, lanes-b*handoffBlock)) }
	base, extra := p/blocks, p%blocks
	first := func(b int) int { return b*base + min(b, extra) }
	state := make([][4]uint32, blocks)
	for b := range state {
		state[b] = norm([4]uint32{off[first(b)], off[first(b+1)], 0, 0})
	}
	for r := 0; ; r++ {
		next := make([][4]uint32, blocks)
		copy(next, state)
		if r > 0 {
			for b := range next {
				right := (b+r)%2 == 0
				switch {
				case right && b+1 < blocks:
					next[b], _ = handoff(state[b], state[b+1])
				case !right && b > 0:
					_, next[b] = handoff(state[b-1], state[b])
				}
			}
		}
		var most uint32
		left := uint64(0)
		for b := range next {
			s := next[b]
			take := min(quota*width(b), length(s))
			for k := uint32(0); k < take; k++ {
				g := s[0] + k
				if k >= s[1]-s[0] {
					g = s[2] + k - (s[1] - s[0])
				}
				if solved[g]++; solved[g] != 1 {
					t.Fatalf("model: task %d solved twice", g)
				}
			}
			most = max(most, (take+width(b)-1)/width(b))
			if take >= s[1]-s[0] {
				s = [4]uint32{s[2] + take - (s[1] - s[0]), s[3], 0, 0}
			} else {
				s[0] += take
			}
			next[b] = norm(s)
			left += uint64(length(next[b]))
		}
		if most > 0 {
			rounds = r + 1
			critical += uint64(most)
		}
		state = next
		if left == 0 {
			break
		}
		if r > int(S) {
			t.Fatal("model: no end")
		}
	}
	for g, n := range solved {
		if n != 1 {
			t.Fatalf("model: task %d solved %d times", g, n)
		}
	}
	return rounds, critical, hc
}

// runStrategyCase runs one workload under cfg with the tally kernel and
// checks every task solved once, the arrays retired, and the stats.
func runStrategyCase(t *testing.T, c *gpu.Context, l *Loop[uint32], cfg Config, w, pi []uint32) (Stats, error) {
	t.Helper()
	ta := newTally(t, c, w, pi)
	defer ta.delete()
	if err := l.SetConfig(cfg); err != nil {
		t.Fatal(err)
	}
	if err := l.Load(w, pi, problems(len(w))); err != nil {
		t.Fatal(err)
	}
	st, err := l.Run(ta)
	if err != nil {
		return st, err
	}
	if err := ta.check(); err != nil {
		return st, err
	}
	if got := download[uint32](l.Workload()); !reflect.DeepEqual(got, make([]uint32, len(w))) {
		return st, fmt.Errorf("workload left %v", got)
	}
	wantPI := make([]uint32, len(w))
	var S uint64
	for i := range w {
		wantPI[i] = pi[i] + w[i]
		S += uint64(w[i])
	}
	if got := download[uint32](l.ParallelIndex()); !reflect.DeepEqual(got, wantPI) {
		return st, fmt.Errorf("parallelIndex after the run %v, want %v", got, wantPI)
	}
	if st.Tasks != S || st.Strategy != cfg.Strategy {
		return st, fmt.Errorf("stats say %d tasks of strategy %v", st.Tasks, st.Strategy)
	}
	if S == 0 {
		if st.Iterations != 0 || st.CriticalPath != 0 || st.Solve.N != 0 {
			return st, fmt.Errorf("no tasks, yet %+v", st)
		}
		return st, nil
	}
	lanes := uint64(st.Lanes)
	fair := (S + lanes - 1) / lanes
	switch cfg.Strategy {
	case RoundRobin, Random:
		if st.Iterations != 1 || st.CriticalPath != fair {
			return st, fmt.Errorf("%d iterations, critical path %d; want 1 and ceil(%d/%d) = %d", st.Iterations, st.CriticalPath, S, lanes, fair)
		}
	case WorkPool:
		if st.Iterations != 1 || st.CriticalPath < fair || st.Chunk < 1 || st.CriticalPath > 2*((S+uint64(st.Chunk)-1)/uint64(st.Chunk)+lanes-1)/lanes*uint64(st.Chunk) {
			return st, fmt.Errorf("%d iterations, critical path %d with chunk %d on %d lanes (fair share %d)", st.Iterations, st.CriticalPath, st.Chunk, lanes, fair)
		}
	case LeftRightHandoff:
		rounds, critical := handoffModel(t, w, st.Lanes, uint32(st.Chunk))
		if st.Iterations != rounds || st.CriticalPath != critical || st.Solve.N < rounds {
			return st, fmt.Errorf("%d rounds (%d dispatched), critical path %d; the model: %d rounds, critical path %d", st.Iterations, st.Solve.N, st.CriticalPath, rounds, critical)
		}
	case RandomAssignment:
		if st.Iterations != 1 || st.CriticalPath < fair {
			return st, fmt.Errorf("%d iterations, critical path %d on %d lanes (fair share %d)", st.Iterations, st.CriticalPath, lanes, fair)
		}
	case LeftRightHandoffRace:
		// One dispatch; every lane solves all it holds each round, so the
		// most tasks one lane solved is at least the fair share.
		if st.Iterations < 1 || st.CriticalPath < fair || st.Chunk != 0 {
			return st, fmt.Errorf("%d rounds, critical path %d on %d lanes (fair share %d), chunk %d", st.Iterations, st.CriticalPath, lanes, fair, st.Chunk)
		}
	case Search:
		if uint64(st.Lanes) != S || st.Iterations != 1 || st.CriticalPath != 1 {
			return st, fmt.Errorf("%d lanes, %d iterations, critical path %d for %d tasks", st.Lanes, st.Iterations, st.CriticalPath, S)
		}
	}
	if st.Counts != 1 || st.Gathers != 0 || st.Balances != 0 || (cfg.Strategy != LeftRightHandoff && st.Solve.N != 1) {
		return st, fmt.Errorf("phases: %d counts, %d gathers, %d balances, %d solves", st.Counts, st.Gathers, st.Balances, st.Solve.N)
	}
	if c.Caps().Timestamp && (st.Time <= 0 || st.Schedule.N != 2) {
		return st, fmt.Errorf("timing: %v over %d schedule phases", st.Time, st.Schedule.N)
	}
	return st, nil
}

var otherStrategies = Strategies[1:]

// The property test of every strategy: random workloads of every kind,
// random lanes, chunks and seeds; every (problem, task) solved exactly
// once, the arrays retired as the paper's loop leaves them, and the counts
// each strategy promises (Left-Right Handoff's equal to its CPU model).
func TestStrategyPropertiesGPU(t *testing.T) {
	c := gputest.Context(t)
	r := gputest.Rand(t)
	n := 150
	if testing.Short() {
		n = 25
	}
	if os.Getenv("DPGL_LONG") != "" {
		n = 3000
	}
	l := newLoop[uint32](t, Config{})
	runs := 0
	for i := 0; i < n; i++ {
		cs := drawCase(r, 600, 24)
		if i < 6 { // P around a work group, and a few groups
			cs.p = []int{1, 63, 65, 257, 1000, 2049}[i]
			cs.w = synthetic.Workload(synthetic.Kinds[i%len(synthetic.Kinds)], cs.p, 30, r)
			cs.pi = make([]uint32, cs.p)
		}
		for _, s := range otherStrategies {
			cfg := Config{Name: "prop", Strategy: s, Seed: r.Uint32()}
			if r.IntN(3) == 0 {
				cfg.Lanes = 1 + r.IntN(cs.p)
			}
			if r.IntN(2) == 0 {
				cfg.Chunk = 1 + r.IntN(20)
			}
			st, err := runStrategyCase(t, c, l, cfg, cs.w, cs.pi)
			if err != nil {
				t.Fatalf("case %d (%v, %v, lanes %d, chunk %d, seed %d): %v\n%+v", i, cs, s, cfg.Lanes, cfg.Chunk, cfg.Seed, err, st)
			}
			runs++
		}
	}
	t.Logf("%d runs of %d random workloads", runs, n)
}

// Left-Right Handoff over many rounds and blocks, small quotas: every kind
// of handoff happens (into an empty block, onto an adjacent interval, into
// the second slot, refused for want of room), and the GPU agrees with the
// model round for round.
func TestHandoffManyRoundsGPU(t *testing.T) {
	c := gputest.Context(t)
	r := gputest.Rand(t)
	l := newLoop[uint32](t, Config{})
	var all handoffCounts
	for i := 0; i < 12; i++ {
		p := 300 + r.IntN(3000)
		w := synthetic.Workload([]synthetic.Kind{synthetic.OneHeavy, synthetic.Zipf, synthetic.Uniform}[i%3], p, 400, r)
		pi := make([]uint32, p)
		cfg := Config{Strategy: LeftRightHandoff, Chunk: 1 + r.IntN(3), Lanes: []int{0, 64 * (2 + r.IntN(20)), 1 + r.IntN(p)}[i%3]}
		st, err := runStrategyCase(t, c, l, cfg, w, pi)
		if err != nil {
			t.Fatalf("case %d (P=%d, lanes %d, chunk %d): %v", i, p, cfg.Lanes, cfg.Chunk, err)
		}
		_, _, hc := handoffModelCounts(t, w, st.Lanes, uint32(st.Chunk))
		all.empty += hc.empty
		all.adjacent += hc.adjacent
		all.second += hc.second
		all.refused += hc.refused
	}
	if all.empty == 0 || all.adjacent == 0 || all.second == 0 || all.refused == 0 {
		t.Fatalf("some kind of handoff never happened: %+v", all)
	}
	t.Logf("handoffs: %+v", all)
}

// Many processors, few lanes, heavy processors: on llvmpipe the lanes are
// raised and the chunks lowered to keep every loop inside the driver's
// limit, and every task is still solved once.
func TestStrategyLanesGPU(t *testing.T) {
	c := gputest.Context(t)
	r := gputest.Rand(t)
	p := 70001
	w := synthetic.Workload(synthetic.Zipf, p, 200, r)
	w[5] = 150000 // one processor with more tasks than llvmpipe's loop limit
	pi := make([]uint32, p)
	l := newLoop[uint32](t, Config{})
	for _, s := range otherStrategies {
		for _, lanes := range []int{1, 7, 1000, 0} {
			cfg := Config{Strategy: s, Lanes: lanes}
			if s == LeftRightHandoff {
				// Diffusing one processor of 150000 tasks over 70001 lanes
				// takes hundreds of rounds at the fair-share quota.
				cfg.Chunk = 1000
			}
			st, err := runStrategyCase(t, c, l, cfg, w, pi)
			if err != nil {
				t.Fatalf("%v, lanes %d: %v\n%v", s, lanes, err, &st)
			}
			t.Logf("%v lanes %d: %v, critical path %d, imbalance %.2f", s, lanes, &st, st.CriticalPath, st.Imbalance())
		}
	}
}

// The strategies' own count catches a solution phase that ends early: with
// the software caps off, one lane's loop of 100003 tasks stops at the
// driver's loop limit (llvmpipe: 65535 iterations), and Run says so.
func TestStrategyCountCatchesCutLoopsGPU(t *testing.T) {
	c := gputest.Context(t)
	if lim := c.Caps().LoopLimit; lim == 0 || lim >= 100000 {
		t.Skipf("the driver (%s) runs a loop of 100003 iterations to its end (loop limit %d)", c.Caps().Renderer, lim)
	}
	softwareCaps = false
	defer func() { softwareCaps = true }()
	w := []uint32{100000, 3}
	pi := []uint32{0, 0}
	l := newLoop[uint32](t, Config{})
	ta := newTally(t, c, w, pi)
	defer ta.delete()
	if err := l.SetConfig(Config{Strategy: RoundRobin, Lanes: 1}); err != nil {
		t.Fatal(err)
	}
	if err := l.Load(w, pi, problems(2)); err != nil {
		t.Fatal(err)
	}
	_, err := l.Run(ta)
	if err == nil || !strings.Contains(err.Error(), "of 100003 tasks") {
		t.Fatalf("a cut loop went unnoticed: %v", err)
	}
}

// A kernel with its own main() around balancerIteration() runs under every
// strategy, and so do tasks of processors starting anywhere.
func TestStrategyCustomMainGPU(t *testing.T) {
	c := gputest.Context(t)
	r := gputest.Rand(t)
	w := synthetic.Workload(synthetic.OneHeavy, 3000, 500, r)
	first := make([]uint32, len(w))
	var total uint32
	for i, x := range w {
		total += x
		first[i] = r.Uint32N(1 << 20)
	}
	solved, err := gpu.NewBuffer[uint32](c, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer solved.Delete()
	l := newLoop[uint32](t, Config{})
	for _, s := range otherStrategies {
		ta := newTally(t, c, w, first)
		ta.prog = c.MustProgram("balancer/synthetic.comp", map[string]string{"MODE": "0", "CUSTOM_MAIN": "1"})
		solved.Fill(0)
		if err := l.SetConfig(Config{Strategy: s, Lanes: 100}); err != nil {
			t.Fatal(err)
		}
		if err := l.Load(w, first, problems(len(w))); err != nil {
			t.Fatal(err)
		}
		_, err := l.Run(SolutionFunc(func(it *Iteration) {
			c.BindStorage(FirstFreeBinding+3, solved)
			ta.Solve(it)
		}))
		if err == nil {
			err = ta.check()
		}
		ta.delete()
		if err != nil {
			t.Fatalf("%v: %v", s, err)
		}
		if got := solved.Get(0); got != total {
			t.Fatalf("%v: the custom main counted %d tasks of %d", s, got, total)
		}
	}
}

// Uniforms a solution sets on its own program reach the strategy's
// variant, and a kernel that fails to build under a strategy is an error.
func TestStrategyUniformsAndErrorsGPU(t *testing.T) {
	c := gputest.Context(t)
	w := []uint32{5, 0, 7}
	l := newLoop[uint32](t, Config{Strategy: Search})
	sink, err := gpu.NewBuffer[uint32](c, 3)
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Delete()
	prog := c.MustProgram("balancer/synthetic.comp", map[string]string{"MODE": "1", "WORK": "1"})
	if err := l.Load(w, nil, problems(3)); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Run(SolutionFunc(func(it *Iteration) {
		c.BindStorage(FirstFreeBinding, sink)
		it.Dispatch(prog)
	})); err != nil {
		t.Fatal(err)
	}
	// A kernel that declares the strategy's binding as a block of another
	// layout fails to build as the variant.
	if err := l.Load(w, nil, problems(3)); err != nil {
		t.Fatal(err)
	}
	bad := &badKernel{c: c}
	_, err = l.Run(bad)
	if err == nil || !strings.Contains(err.Error(), "for strategy Search") {
		t.Fatalf("a kernel clashing with the strategy's names: %v", err)
	}
}

type badKernel struct{ c *gpu.Context }

func (b *badKernel) Solve(it *Iteration) {
	p, err := b.c.ProgramFS(badFS(), "k/bad.comp", nil)
	if err != nil {
		panic(err)
	}
	it.Dispatch(p)
}

func TestStrategyMisuse(t *testing.T) {
	for _, s := range Strategies {
		if got, err := ParseStrategy(strings.ToLower(s.String())); err != nil || got != s {
			t.Fatalf("ParseStrategy(%q) = %v, %v", s, got, err)
		}
	}
	if _, err := ParseStrategy("greedy"); err == nil || !strings.Contains(err.Error(), `"greedy"`) {
		t.Fatalf("ParseStrategy(greedy): %v", err)
	}
	gputest.MustPanic(t, "Config.Policy must be Never", func() {
		cfg := Config{Strategy: WorkPool, Policy: Bounded}
		cfg.check("X")
	})
	gputest.MustPanic(t, "Config.Chunk -1 is negative", func() {
		cfg := Config{Strategy: WorkPool, Chunk: -1}
		cfg.check("X")
	})
	gputest.MustPanic(t, "is not a strategy", func() {
		cfg := Config{Strategy: 17}
		cfg.check("X")
	})
	gputest.MustPanic(t, "Simulate runs the paper's loop only", func() {
		Simulate(NewModel(IntegerSteps, []uint32{1}, nil, []uint32{0}), Config{Strategy: RoundRobin}, nil, nil)
	})
}

// The paper's loop reports its critical path and imbalance: for Figure 1,
// MAX(workload) over the average.
func TestPaperImbalance(t *testing.T) {
	m := NewModel(IntegerSteps, []uint32{100, 19, 0, 0, 0, 0, 0}, nil, problems(7))
	st := Simulate(m, Config{Policy: Never}, nil, nil)
	if st.Tasks != 119 || st.CriticalPath != 100 || fmt.Sprintf("%.3f", st.Imbalance()) != "5.882" {
		t.Fatalf("Never on the worked example: tasks %d, critical path %d, imbalance %v", st.Tasks, st.CriticalPath, st.Imbalance())
	}
	m = NewModel(IntegerSteps, []uint32{100, 19, 0, 0, 0, 0, 0}, nil, problems(7))
	st = Simulate(m, Config{Policy: Always}, nil, nil)
	if st.CriticalPath != uint64(st.Iterations) || st.Iterations >= 100 {
		t.Fatalf("Always on the worked example: %d iterations, critical path %d", st.Iterations, st.CriticalPath)
	}
}

// badFS holds a solution kernel whose own global is named like a uniform
// of the strategies: fine as the paper's kernel, an error as a strategy's.
func badFS() fs.FS {
	fsys := fstest.MapFS{"k/bad.comp": {Data: []byte(`#version 450
layout(local_size_x = 64) in;
#include "balancer/loop.glsl"
float balancerTasks;
void balancerSolve(uint processor, uint problem, uint task) {}
`)}}
	for _, f := range loopFiles {
		b, err := fs.ReadFile(shaders.FS, f)
		if err != nil {
			panic(err)
		}
		fsys[f] = &fstest.MapFile{Data: b}
	}
	return fsys
}

// Runs under every strategy leave no GL object behind once the state,
// the variants and the timestamps exist.
func TestStrategyNoLeaksGPU(t *testing.T) {
	c := gputest.Context(t)
	w := []uint32{9, 0, 300, 4, 4}
	pi := make([]uint32, len(w))
	l := newLoop[uint32](t, Config{})
	run := func() {
		for _, s := range otherStrategies {
			if _, err := runStrategyCase(t, c, l, Config{Strategy: s, Chunk: 2}, w, pi); err != nil {
				t.Fatalf("%v: %v", s, err)
			}
		}
	}
	run()
	before := c.Live()
	run()
	if after := c.Live(); after != before {
		t.Fatalf("live GL objects went from %v to %v", before, after)
	}
}
