package balancer

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
)

// A second call on a Loop while one is under way, from another goroutine
// or from the loop's own Solution, panics and says why; the loop works
// afterwards.
func TestConcurrentUseIsDetectedGPU(t *testing.T) {
	c := gputest.Context(t)
	sol := newSynthetic(t, c, 4)
	l := newLoop[uint32](t, Config{Name: "shared"})
	if err := l.Load([]uint32{3, 1, 0, 2}, nil, problems(4)); err != nil {
		t.Fatal(err)
	}
	inside, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	blocking := SolutionFunc(func(it *Iteration) {
		once.Do(func() {
			close(inside)
			<-release
		})
		sol.Solve(it)
	})
	done := make(chan error)
	go func() {
		_, err := l.Run(blocking)
		done <- err
	}()
	<-inside
	for name, f := range map[string]func(){
		"Run":    func() { l.Run(sol) },
		"Count":  func() { l.Count() },
		"Resize": func() { l.Resize(10) },
		"Load":   func() { l.Load([]uint32{1}, nil, []uint32{0}) },
	} {
		gputest.MustPanic(t, fmt.Sprintf("balancer: Loop.%s on loop \"shared\" while another call on it is under way", name), f)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// From inside its own solution phase.
	l.Load([]uint32{2, 2}, nil, problems(2))
	gputest.MustPanic(t, "balancer: Loop.Count on loop \"shared\" while another call", func() {
		l.Run(SolutionFunc(func(it *Iteration) { l.Count() }))
	})
	if err := l.Load([]uint32{2, 2}, nil, problems(2)); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Run(sol); err != nil {
		t.Fatalf("after the misuse: %v", err)
	}
}

// A view kept past Resize or Delete names itself when used.
func TestStaleViewIsNamedGPU(t *testing.T) {
	c := gputest.Context(t)
	l := newLoop[uint32](t, Config{Name: "views"})
	if err := l.Resize(10); err != nil {
		t.Fatal(err)
	}
	w, pi := l.Workload(), l.ParallelIndex()
	if err := l.Resize(1000); err != nil {
		t.Fatal(err)
	}
	gputest.MustPanic(t, `the Workload() view of a balancer loop, deleted because loop "views" reallocated its arrays`, func() { w.Write(0, []uint32{1}) })
	gputest.MustPanic(t, "take the views again after Resize", func() { pi.Read(0, make([]uint32, 1)) })
	gputest.MustPanic(t, "binding 2: a deleted Buffer: the Workload() view", func() { c.Do(func() { c.BindStorage(2, w) }) })
	p := l.Problem()
	l.Delete()
	gputest.MustPanic(t, `the Problem() view of a balancer loop, deleted because loop "views" was deleted (Loop.Delete)`, func() { p.Write(0, []uint32{1}) })
}

// A solution kernel that loops more than llvmpipe allows an invocation is
// cut short silently; Run says that this is what probably happened and
// what to do.
func TestCutLoopIsExplainedGPU(t *testing.T) {
	c := gputest.Context(t)
	lim := c.Caps().LoopLimit
	if lim == 0 || lim >= 70000 {
		t.Skipf("the driver (%s) runs a loop of 70000 iterations to its end (loop limit %d)", c.Caps().Renderer, lim)
	}
	prog := c.MustProgram("balancer/synthetic.comp", map[string]string{"MODE": "1", "WORK": "70000"})
	sink, err := gpu.NewBuffer[uint32](c, 256)
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Delete()
	l := newLoop[uint32](t, Config{Name: "long", Lanes: 64})
	w := make([]uint32, 256)
	for i := range w {
		w[i] = 1
	}
	if err := l.Load(w, nil, problems(len(w))); err != nil {
		t.Fatal(err)
	}
	_, err = l.Run(SolutionFunc(func(it *Iteration) { c.BindStorage(FirstFreeBinding, sink); it.Dispatch(prog) }))
	for _, want := range []string{"balancer: long: after 1 iterations", "still hold work", fmt.Sprintf("after %d iterations in all", lim), "each of the 64 lanes took up to 4 processors",
		"Raise Config.Lanes (up to one lane per processor, 256), lower Config.Batch, or shorten balancerSolve's loop"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("Run of a kernel cut short: %v\nwant it to say %q", err, want)
		}
	}
}

// A solution kernel that loops 300 times a task runs one iteration a
// dispatch within llvmpipe's loop cut but not 256 of them: the batched run
// says so and names Config.Batch, and Batch 1 runs it to the end.
func TestBatchCutShortGPU(t *testing.T) {
	c := gputest.Context(t)
	lim := c.Caps().LoopLimit
	if lim == 0 || lim >= 256*300 {
		t.Skipf("the driver (%s) does not cut loops of 256*300 iterations (loop limit %d)", c.Caps().Renderer, lim)
	}
	prog := c.MustProgram("balancer/synthetic.comp", map[string]string{"MODE": "1", "WORK": "300"})
	sink, err := gpu.NewBuffer[uint32](c, 64)
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Delete()
	w := make([]uint32, 64)
	for i := range w {
		w[i] = 300
	}
	run := func(batch int) (Stats, error) {
		l := newLoop[uint32](t, Config{Name: "long", Batch: batch})
		if err := l.Load(w, nil, problems(len(w))); err != nil {
			t.Fatal(err)
		}
		return l.Run(SolutionFunc(func(it *Iteration) { c.BindStorage(FirstFreeBinding, sink); it.Dispatch(prog) }))
	}
	_, err = run(0)
	for _, want := range []string{"balancer: long: after 300 iterations", "still hold work", "up to 256 iterations a dispatch (Config.Batch; 1 runs one)"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("batched run of a kernel cut short: %v\nwant it to say %q", err, want)
		}
	}
	if st, err := run(1); err != nil || st.Dispatches != 300 {
		t.Fatalf("Batch 1: %d dispatches, %v", st.Dispatches, err)
	}
}
