package balancer

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/dpgl/dpgl/balancer/synthetic"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/shaders"
)

// Many processors on few lanes, and one lane per processor, under every
// policy: every task once.
func TestLanesGPU(t *testing.T) {
	c := gputest.Context(t)
	r := gputest.Rand(t)
	p := 70001
	w := synthetic.Workload(synthetic.Zipf, p, 40, r)
	first := make([]uint32, p)
	l := newLoop[uint32](t, Config{})
	for _, lanes := range []int{1, 7, 1000, 0} {
		for _, pol := range Policies {
			ta := newTally(t, c, w, first)
			if err := l.SetConfig(Config{Policy: pol, Lanes: lanes, CostIterations: 3}); err != nil {
				t.Fatal(err)
			}
			if err := l.Load(w, nil, problems(p)); err != nil {
				t.Fatal(err)
			}
			st, err := l.Run(ta)
			if err == nil {
				err = ta.check()
			}
			ta.delete()
			if err != nil {
				t.Fatalf("lanes %d, %v: %v", lanes, pol, err)
			}
			want := map[bool]int{true: p, false: lanes}[lanes == 0]
			if c.Caps().LoopLimit > 0 {
				want = max(want, (p+maxPerLaneSoftware-1)/maxPerLaneSoftware)
			}
			if st.Lanes != want {
				t.Fatalf("lanes %d: stats say %d, want %d", lanes, st.Lanes, want)
			}
			if c.Caps().Timestamp && (st.Time <= 0 || st.Solve.Min <= 0) {
				t.Fatalf("lanes %d, %v: no GPU time measured: %+v", lanes, pol, st)
			}
			if lanes == 7 && pol == Never {
				break // 70001 processors on 7 lanes: one policy is enough
			}
		}
	}
}

// A solution kernel with its own main() around balancerIteration().
func TestCustomMainGPU(t *testing.T) {
	c := gputest.Context(t)
	r := gputest.Rand(t)
	w := synthetic.Workload(synthetic.OneHeavy, 3000, 500, r)
	first := make([]uint32, len(w))
	var total uint32
	for _, x := range w {
		total += x
	}
	ta := newTally(t, c, w, first)
	defer ta.delete()
	ta.prog = c.MustProgram("balancer/synthetic.comp", map[string]string{"MODE": "0", "CUSTOM_MAIN": "1"})
	solved, err := gpu.NewBuffer[uint32](c, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer solved.Delete()
	l := newLoop[uint32](t, Config{Policy: Always, Lanes: 100})
	if err := l.Load(w, nil, problems(len(w))); err != nil {
		t.Fatal(err)
	}
	st, err := l.Run(SolutionFunc(func(it *Iteration) {
		c.BindStorage(FirstFreeBinding+3, solved)
		ta.Solve(it)
	}))
	if err != nil {
		t.Fatal(err)
	}
	if err := ta.check(); err != nil {
		t.Fatal(err)
	}
	if got := solved.Get(0); got != total || st.Balances == 0 {
		t.Fatalf("the custom main counted %d tasks of %d (%d balances)", got, total, st.Balances)
	}
}

func TestNoProcessorsGPU(t *testing.T) {
	l := newLoop[uint32](t, Config{Policy: CostEffective, CostIterations: 5})
	if err := l.Load(nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	called := false
	st, err := l.Run(SolutionFunc(func(*Iteration) { called = true }))
	if err != nil || called || st.Iterations != 0 || st.Gathers != 1 {
		t.Fatalf("an empty loop: %+v (solution called: %v)", st, called)
	}
	if in := l.Gather(); in != (Info{Full: true}) {
		t.Fatalf("gathering no processors: %+v", in)
	}
}

func TestMisuseGPU(t *testing.T) {
	c := gputest.Context(t)
	gputest.MustPanic(t, "balancer: NewLoop: the problem type [3]uint16 has 6 bytes", func() { NewLoop[[3]uint16](scanner(t), Config{}) })
	gputest.MustPanic(t, "balancer: NewLoop: s is nil", func() { NewLoop[uint32](nil, Config{}) })
	gputest.MustPanic(t, "balancer: NewLoop: Config.Policy", func() { NewLoop[uint32](scanner(t), Config{Policy: 7}) })
	l := newLoop[uint32](t, Config{})
	gputest.MustPanic(t, "balancer: Loop.Resize: negative", func() { l.Resize(-1) })
	gputest.MustPanic(t, "balancer: Loop.Load: problem has 1 elements, workload 2", func() { l.Load([]uint32{1, 2}, nil, []uint32{0}) })
	gputest.MustPanic(t, "balancer: Loop.Load: parallelIndex has 1", func() { l.Load([]uint32{1, 2}, []uint32{0}, []uint32{0, 1}) })
	gputest.MustPanic(t, "balancer: Loop.SetConfig: Config.Lanes", func() { l.SetConfig(Config{Lanes: -3}) })
	if err := l.Load([]uint32{3, 0}, nil, []uint32{0, 1}); err != nil {
		t.Fatal(err)
	}
	gputest.MustPanic(t, "balancer: Loop.Redistribute: in is not a full gathering", func() { l.Redistribute(l.Count()) })
	gputest.MustPanic(t, "balancer: Loop.Run: sol is nil", func() { l.Run(nil) })
	prog := c.MustProgram("balancer/synthetic.comp", map[string]string{"MODE": "1"})
	gputest.MustPanic(t, "balancer: Solution.Solve did not call Iteration.Dispatch", func() {
		l.Run(SolutionFunc(func(*Iteration) {}))
	})
	l.Load([]uint32{3, 0}, nil, []uint32{0, 1})
	gputest.MustPanic(t, "balancer: Iteration.Dispatch: called twice", func() {
		l.Run(SolutionFunc(func(it *Iteration) { it.Dispatch(prog); it.Dispatch(prog) }))
	})
	l.Load([]uint32{3, 0}, nil, []uint32{0, 1}) // the panicked run may have solved every task
	gputest.MustPanic(t, "balancer: Iteration.Dispatch: p is nil", func() {
		l.Run(SolutionFunc(func(it *Iteration) { it.Dispatch(nil) }))
	})
}

// NewLoop, runs and Delete leave no GL object behind (programs stay in the
// context's cache, so they are built first).
func TestNoLeaksGPU(t *testing.T) {
	c := gputest.Context(t)
	warm, err := NewLoop[record](scanner(t), Config{})
	if err != nil {
		t.Fatal(err)
	}
	warm.Delete()
	prog := c.MustProgram("balancer/synthetic.comp", map[string]string{"MODE": "1"})
	sink, err := gpu.NewBuffer[uint32](c, 5000)
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Delete()
	run := func() {
		l, err := NewLoop[record](scanner(t), Config{Policy: Always, Logf: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		w := synthetic.Workload(synthetic.OneHeavy, 5000, 300, gputest.Rand(t))
		if err := l.Load(w, nil, make([]record, len(w))); err != nil {
			t.Fatal(err)
		}
		if _, err := l.Run(SolutionFunc(func(it *Iteration) { c.BindStorage(FirstFreeBinding, sink); it.Dispatch(prog) })); err != nil {
			t.Fatal(err)
		}
		l.Resize(20000)
		l.Delete()
		l.Delete()
	}
	run() // the scanner's scratch and the programs now exist
	before := c.Live()
	run()
	if after := c.Live(); after != before {
		t.Fatalf("live GL objects went from %v to %v", before, after)
	}
}

// loopFiles are the files of package shaders that a kernel including
// balancer/loop.glsl needs in a file tree of its own (gpu.Context.ProgramFS):
// includes are spliced whichever way an #if goes, so every strategy's file.
var loopFiles = []string{"include/common.glsl", "include/lbs.glsl", "balancer/loop.glsl", "balancer/strategies.glsl",
	"balancer/strategy_round_robin.glsl", "balancer/strategy_random.glsl", "balancer/strategy_work_pool.glsl",
	"balancer/strategy_left_right.glsl", "balancer/strategy_search.glsl", "balancer/strategy_left_right_race.glsl", "include/hash.glsl"}

// A kernel that skips processors leaves work behind, and Run says so.
func TestUnfinishedWorkIsAnErrorGPU(t *testing.T) {
	c := gputest.Context(t)
	fsys := fstest.MapFS{"lazy.comp": {Data: []byte(`#version 450
layout(local_size_x = 32) in;
#define BALANCER_CUSTOM_MAIN
#include "balancer/loop.glsl"
void balancerSolve(uint processor, uint problem, uint task) {}
void main() {
    if (gl_GlobalInvocationID.x % 3u != 1u) {
        balancerIteration();
    }
}
`)}}
	for _, f := range loopFiles {
		data, err := fs.ReadFile(shaders.FS, f)
		if err != nil {
			t.Fatal(err)
		}
		fsys[f] = &fstest.MapFile{Data: data}
	}
	prog, err := c.ProgramFS(fsys, "lazy.comp", nil)
	if err != nil {
		t.Fatal(err)
	}
	l := newLoop[uint32](t, Config{Name: "lazy", Policy: Bounded, CostIterations: 2})
	w := []uint32{5, 5, 5, 5, 0, 9}
	if err := l.Load(w, nil, problems(len(w))); err != nil {
		t.Fatal(err)
	}
	_, err = l.Run(SolutionFunc(func(it *Iteration) { it.Dispatch(prog) }))
	if err == nil || !strings.Contains(err.Error(), "balancer: lazy: after") || !strings.Contains(err.Error(), "still hold work") {
		t.Fatalf("Run of a kernel that skips processors: %v", err)
	}
}
