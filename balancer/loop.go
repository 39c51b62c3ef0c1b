package balancer

import (
	"fmt"
	"math"
	"strconv"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan"
)

// Loop is a data-parallel loop over P virtual processors on the GPU, run as
// Figure 1 or Figure 2 of the paper under a Policy. Processor p holds
// workload[p] tasks of its problem (problem[p], a record of type T: a plain
// struct whose size is a multiple of 4 bytes, the std430 twin of the
// kernel's BALANCER_PROBLEM), the next being task parallelIndex[p].
//
// A Loop owns its processor arrays (two sets: redistribution writes the
// other set and swaps) and every scratch array of the balancing phases,
// sized for the largest P it has been given; nothing is allocated while it
// runs. It is not safe for concurrent use: Run and the single phases panic
// when another call on the same Loop is under way (another goroutine, or a
// Solution calling back into its own loop).
type Loop[T any] struct {
	c     *gpu.Context
	s     *scan.Scanner
	cfg   Config
	words int // uint32 words per problem record

	p, capacity int
	arrays[T]
	info *gpu.Buffer[uint32]
	// placeBySearch makes every redistribution place by search, as
	// where a block may be large (tests of that path, comparisons).
	placeBySearch bool

	gather1, gather2, gather3, assign, place, placeScatter, placeTiles *gpu.Program

	tl   timeline
	warn warnings

	runs int         // Runs started since NewLoop: the first one pays one-time costs
	busy atomic.Bool // a Run or phase call is under way

	// The strategies' state (offsets, header, lanes), their retirement
	// kernel, and the variants of solution kernels built for them.
	state  *gpu.Buffer[uint32]
	retire *gpu.Program
	// randomCounts counts RandomAssignment's lanes.
	randomCounts *gpu.Program
	variants     map[variantKey]*gpu.Program
}

// arrays are the arrays a loop sizes for its processors: two sets of
// processor arrays (redistribution writes the other set, which then
// becomes the current one) and the redistribution's scratch.
type arrays[T any] struct {
	cur, next  procArrays[T]
	assignment *gpu.Buffer[uint32] // each processor's assignment
	pointers   *gpu.Buffer[uint32] // its exclusive scan: where each block starts
	tileTotals *gpu.Buffer[uint32] // Σ assignment of each gathering tile (gatherTile processors)
}

// procArrays are the processor arrays of one set.
type procArrays[T any] struct {
	workload, parallelIndex *gpu.Buffer[uint32]
	problem                 *gpu.Buffer[T]
}

// newArrays allocates arrays for n processors, or nothing.
func newArrays[T any](c *gpu.Context, n int) (arrays[T], error) {
	var a arrays[T]
	var err error
	alloc := func(b any) {
		if err != nil {
			return
		}
		switch b := b.(type) {
		case **gpu.Buffer[uint32]:
			m := n
			if b == &a.tileTotals {
				m = max(1, (n+gatherTile-1)/gatherTile)
			}
			*b, err = gpu.NewBuffer[uint32](c, m)
		case **gpu.Buffer[T]:
			*b, err = gpu.NewBuffer[T](c, n)
		}
	}
	for _, b := range []any{&a.cur.workload, &a.cur.parallelIndex, &a.cur.problem, &a.next.workload, &a.next.parallelIndex,
		&a.next.problem, &a.assignment, &a.pointers, &a.tileTotals} {
		alloc(b)
	}
	if err != nil {
		a.delete() // the ones not made are nil, and deleting nil is a no-op
		return arrays[T]{}, err
	}
	return a, nil
}

// label names the processor arrays in gpu's panics about their use once
// deleted: a view of them kept past Resize or Delete says which view it
// was and why it is gone.
func (a *arrays[T]) label(why string) {
	for i, p := range []procArrays[T]{a.cur, a.next} {
		set := [2]string{"", " (the other set)"}[i]
		p.workload.SetLabel("the Workload() view" + set + " of a balancer loop, deleted because " + why)
		p.parallelIndex.SetLabel("the ParallelIndex() view" + set + " of a balancer loop, deleted because " + why)
		p.problem.SetLabel("the Problem() view" + set + " of a balancer loop, deleted because " + why)
	}
}

func (a *arrays[T]) delete() {
	for _, p := range []procArrays[T]{a.cur, a.next} {
		p.workload.Delete()
		p.parallelIndex.Delete()
		p.problem.Delete()
	}
	a.assignment.Delete()
	a.pointers.Delete()
	a.tileTotals.Delete()
}

// infoWords is INFO_WORDS of shaders/balancer/info.glsl; the indices below
// are its INFO_* words.
const (
	infoWords = 12

	infoIdle, infoMax, infoSumLo, infoSumHi, infoMinActive = 0, 1, 2, 3, 4
	infoMaskedSumLo, infoMaskedSumHi, infoMasked           = 5, 6, 7
	infoMaxNew, infoMinNew, infoAssigned, infoKept         = 8, 9, 10, 11
)

// NewLoop returns a loop running on s's context, with no processors (see
// Resize and Load). It needs GL_ARB_gpu_shader_int64 (64-bit sums and
// products in the gathering kernels), which the drivers dpgl targets have.
func NewLoop[T any](s *scan.Scanner, cfg Config) (*Loop[T], error) {
	if s == nil {
		panic("balancer: NewLoop: s is nil")
	}
	cfg.check("NewLoop")
	size := unsafe.Sizeof(*new(T))
	if size == 0 || size%4 != 0 {
		panic(fmt.Sprintf("balancer: NewLoop: the problem type %T has %d bytes, not a positive multiple of 4", *new(T), size))
	}
	c := s.Context()
	if !c.Caps().Int64 {
		return nil, fmt.Errorf("balancer: NewLoop: %s lacks GL_ARB_gpu_shader_int64, which the gathering kernels need", c.Caps().Renderer)
	}
	l := &Loop[T]{c: c, s: s, cfg: cfg, words: int(size / 4), tl: timeline{c: c}, variants: map[variantKey]*gpu.Program{}}
	if err := l.programs(); err != nil {
		return nil, err
	}
	var err error
	if l.info, err = gpu.NewBuffer[uint32](c, infoWords); err != nil {
		return nil, err
	}
	// Room for one processor, so that the views exist from the start.
	if err := l.grow(1); err != nil {
		l.Delete()
		return nil, err
	}
	return l, nil
}

// programs builds the kernels of the current variant (cached by the
// context, so switching back and forth costs nothing after the first time).
func (l *Loop[T]) programs() error {
	fv := strconv.Itoa(int(l.cfg.Variant)) // VARIANT of assign.glsl
	for _, k := range []struct {
		p    **gpu.Program
		file string
		defs map[string]string
	}{
		{&l.gather1, "balancer/gather.comp", map[string]string{"PASS": "1"}},
		{&l.gather2, "balancer/gather.comp", map[string]string{"PASS": "2"}},
		{&l.gather3, "balancer/gather.comp", map[string]string{"PASS": "3", "VARIANT": fv}},
		{&l.assign, "balancer/assign.comp", map[string]string{"VARIANT": fv}},
		{&l.place, "balancer/place.comp", map[string]string{"RECORD_WORDS": strconv.Itoa(l.words)}},
		{&l.placeScatter, "balancer/place.comp", map[string]string{"RECORD_WORDS": strconv.Itoa(l.words), "SCATTER": "1"}},
		{&l.placeTiles, "balancer/place.comp", map[string]string{"RECORD_WORDS": strconv.Itoa(l.words), "SCATTER": "2"}},
	} {
		p, err := l.c.Program(k.file, k.defs)
		if err != nil {
			return err
		}
		*k.p = p
	}
	return nil
}

// Delete frees the loop's GPU memory and queries. It is idempotent.
func (l *Loop[T]) Delete() {
	l.arrays.label(fmt.Sprintf("loop %q was deleted (Loop.Delete)", l.cfg.name()))
	l.arrays.delete()
	l.info.Delete()
	l.state.Delete()
	l.state = nil
	l.tl.delete()
	l.p, l.capacity = 0, 0
}

// Config returns the loop's configuration.
func (l *Loop[T]) Config() Config { return l.cfg }

// SetConfig changes the configuration for later runs (a benchmark runs one
// loop under every policy). The warnings already given stay given.
func (l *Loop[T]) SetConfig(cfg Config) error {
	cfg.check("Loop.SetConfig")
	defer l.enter("SetConfig")()
	variant := cfg.Variant != l.cfg.Variant
	l.cfg = cfg
	if variant {
		l.runs = 0 // the next run may be the first of the variant's kernels
		return l.programs()
	}
	return nil
}

// Processors is P, the number of processors of the next run.
func (l *Loop[T]) Processors() int { return l.p }

// Resize sets the number of processors to p, growing the arrays when p
// exceeds every earlier size (to 5/4 of p, so that a renderer's varying
// span counts seldom grow them again). The arrays' contents are undefined
// until written; the views from Workload, ParallelIndex and Problem change.
// It fails when the arrays exceed the driver's storage-block limit.
func (l *Loop[T]) Resize(p int) error {
	defer l.enter("Resize")()
	return l.resize(p)
}

func (l *Loop[T]) resize(p int) error {
	if p < 0 {
		panic(fmt.Sprintf("balancer: Loop.Resize: negative p %d", p))
	}
	if p >= 1<<31 {
		panic(fmt.Sprintf("balancer: Loop.Resize: %d processors exceed the kernels' 32-bit indices", p))
	}
	if p > l.capacity {
		if err := l.grow(p + p/4); err != nil {
			// The exact size may still fit.
			if err2 := l.grow(p); err2 != nil {
				return err
			}
		}
	}
	l.p = p
	return nil
}

func (l *Loop[T]) grow(n int) error {
	a, err := newArrays[T](l.c, n)
	if err != nil {
		return fmt.Errorf("balancer: Loop.Resize(%d): %w", n, err)
	}
	l.arrays.label(fmt.Sprintf("loop %q reallocated its arrays for %d processors in Resize: take the views again after Resize", l.cfg.name(), n))
	l.arrays.delete()
	l.arrays, l.capacity = a, n
	return nil
}

// Workload is the view of the P workloads. Write it (a kernel of yours
// binds it, or Load) before a run; it is all zero after one. The view is
// valid until the next Resize, Redistribute or Run.
func (l *Loop[T]) Workload() gpu.Range[uint32] { return l.cur.workload.Slice(0, l.p) }

// ParallelIndex is the view of the P next task indices. A processor's
// tasks are numbered from its initial parallelIndex up (0, or the first
// scanline of a triangle, ...).
func (l *Loop[T]) ParallelIndex() gpu.Range[uint32] { return l.cur.parallelIndex.Slice(0, l.p) }

// Problem is the view of the P problem records.
func (l *Loop[T]) Problem() gpu.Range[T] { return l.cur.problem.Slice(0, l.p) }

// Load resizes the loop to len(workload) processors and writes the arrays
// from the host. parallelIndex may be nil (every processor starts at task
// 0).
func (l *Loop[T]) Load(workload, parallelIndex []uint32, problem []T) error {
	if parallelIndex != nil && len(parallelIndex) != len(workload) {
		panic(fmt.Sprintf("balancer: Loop.Load: parallelIndex has %d elements, workload %d", len(parallelIndex), len(workload)))
	}
	if len(problem) != len(workload) {
		panic(fmt.Sprintf("balancer: Loop.Load: problem has %d elements, workload %d", len(problem), len(workload)))
	}
	defer l.enter("Load")()
	if err := l.resize(len(workload)); err != nil {
		return err
	}
	l.Workload().Write(0, workload)
	if parallelIndex != nil {
		l.ParallelIndex().Write(0, parallelIndex)
	} else if l.p > 0 {
		l.cur.parallelIndex.FillRange(0, l.p, 0)
	}
	l.Problem().Write(0, problem)
	return nil
}

// Run runs the loop until every workload is 0, under the configured
// policy, with sol as the solution phase, and returns its statistics. A
// kernel of the caller's that wrote the processor arrays must be followed
// by gpu.BarrierStorage first.
//
// The loop ends after the iterations the gathered workloads call for; one
// more count then checks that the solution kernel really moved every
// processor through its tasks, and Run returns an error when it did not
// (a kernel that returned early, or a driver that cut its loops short: see
// Config.Lanes).
func (l *Loop[T]) Run(sol Solution) (Stats, error) {
	if sol == nil {
		panic("balancer: Loop.Run: sol is nil")
	}
	defer l.enter("Run")()
	start := time.Now()
	st := Stats{Name: l.cfg.name(), Strategy: l.cfg.Strategy, Policy: l.cfg.Policy, Variant: l.cfg.Variant, Processors: l.p,
		Lanes: l.lanes(), CostIterations: l.cfg.cost(&l.warn), FirstRun: l.runs == 0}
	l.runs++
	l.tl.begin()
	if l.cfg.Strategy != Paper {
		err := l.runStrategy(sol, &st)
		st.Wall = time.Since(start)
		return st, err
	}
	m := &gpuMachine[T]{l: l, sol: sol, keepAbove: keepAbove(l.cfg.Policy, st.CostIterations)}
	var left Info
	// The whole loop in one call to the GL thread: its phases' own Do calls
	// then run at once, where each would hand over to the GL thread and back
	// (two thread wake-ups, tens of microseconds on llvmpipe's 2-core
	// machine, and a loop has a few dozen phases). The host's decisions
	// between phases run on the GL thread; they wait for nothing but the
	// GPU.
	l.c.Do(func() {
		drive(m, &l.cfg, st.CostIterations, &st)
		finish(m, &l.cfg, &l.warn, &st)
		st.paperCriticalPath()
		st.Wall = time.Since(start)
		left = m.count(st.Iterations)
	})
	if left.MaxWorkload != 0 {
		return st, l.notMoved(&st, left)
	}
	return st, nil
}

// keepAbove is the largest savings, in iterations, that policy p given
// cost does not redistribute for (Decide): savings > cost is savings >
// floor(cost) for whole savings.
func keepAbove(p Policy, cost float64) uint32 {
	if p == Always {
		return 0
	}
	return uint32(min(math.Floor(cost), math.MaxUint32))
}

// notMoved is Run's error when processors still hold work after the
// iterations that should have emptied them.
func (l *Loop[T]) notMoved(st *Stats, left Info) error {
	msg := fmt.Sprintf("balancer: %s: after %d iterations %d processors still hold work (%d tasks, at most %d on one): the solution kernel did not move every processor on by one task per iteration",
		l.cfg.name(), st.Iterations, left.Active(), left.SumWorkload, left.MaxWorkload)
	if lim := l.c.Caps().LoopLimit; lim > 0 {
		perLane := (l.p + st.Lanes - 1) / max(st.Lanes, 1)
		solves, batch := perLane, ""
		if b := l.batchSize(st.Lanes); b > 1 && st.Dispatches < st.Iterations {
			solves *= b
			batch = fmt.Sprintf(" and up to %d iterations a dispatch (Config.Batch; 1 runs one)", b)
		}
		return fmt.Errorf("%s. Most likely the driver cut the kernel's loops: %s ends an invocation's loops silently after %d iterations in all, "+
			"and each of the %d lanes took up to %d processors an iteration%s, so a balancerSolve that loops more than about %d times a task runs into the cut. "+
			"Raise Config.Lanes (up to one lane per processor, %d), lower Config.Batch, or shorten balancerSolve's loop; a kernel that returns before balancerSolve does the same",
			msg, l.c.Caps().Renderer, lim, st.Lanes, perLane, batch, lim/max(solves, 1), l.p)
	}
	return fmt.Errorf("%s (a kernel that returned before calling balancerSolve for each processor of its lane, or a driver that cut its loops short; more Config.Lanes give each invocation fewer processors)", msg)
}

// enter marks the loop busy for a call named fn and returns the function
// that ends the call. A second call while one is under way is misuse.
func (l *Loop[T]) enter(fn string) func() {
	if !l.busy.CompareAndSwap(false, true) {
		panic(fmt.Sprintf("balancer: Loop.%s on loop %q while another call on it is under way: a Loop is not safe for concurrent use (make one Loop per goroutine, and do not call a loop's methods from its own Solution)", fn, l.cfg.name()))
	}
	return func() { l.busy.Store(false) }
}

// maxPerLaneSoftware bounds the processors one invocation takes on a
// driver that cuts loops short (gpu.Caps.LoopLimit). Mesa's llvmpipe stops
// an invocation's loops after 65535 iterations in all (its guard against
// hangs), silently: a lane may take at most that many processors, and fewer
// when the solution kernel loops itself, so Lanes is raised to keep each
// lane well below.
const maxPerLaneSoftware = 4096

// lanes is the number of invocations that run the solution phase.
func (l *Loop[T]) lanes() int {
	n := l.cfg.lanes(l.p)
	if l.c.Caps().LoopLimit > 0 {
		n = max(n, (l.p+maxPerLaneSoftware-1)/maxPerLaneSoftware)
	}
	return n
}

// The phases one at a time, for inspection (the paper's worked example),
// tests and custom loops. Run does all of this.

// Count runs the first pass of information gathering and reads its counts
// back.
func (l *Loop[T]) Count() Info {
	defer l.enter("Count")()
	return (&gpuMachine[T]{l: l}).count(0)
}

// Gather runs the information gathering phase and reads the result back.
func (l *Loop[T]) Gather() Info {
	defer l.enter("Gather")()
	return (&gpuMachine[T]{l: l}).gather(0, nil)
}

// Redistribute runs the redistribution phase for the full gathering in,
// which must describe the current arrays and fit them (not Oversubscribed).
func (l *Loop[T]) Redistribute(in Info) {
	if !in.Full || in.Processors != l.p {
		panic(fmt.Sprintf("balancer: Loop.Redistribute: in is not a full gathering of these %d processors", l.p))
	}
	if in.Oversubscribed > 0 {
		panic(fmt.Sprintf("balancer: Loop.Redistribute: the footnote-1 assignment asks for %d processors of %d", in.Oversubscribed, l.p))
	}
	defer l.enter("Redistribute")()
	(&gpuMachine[T]{l: l}).redistribute(0, in)
}

// Solve runs n iterations of the solution phase, queued, one a dispatch.
func (l *Loop[T]) Solve(sol Solution, n int) {
	if sol == nil {
		panic("balancer: Loop.Solve: sol is nil")
	}
	defer l.enter("Solve")()
	(&gpuMachine[T]{l: l, sol: sol, single: true}).solve(0, n)
}

// Assignment returns steps 4 and 5 of the full gathering in, per processor:
// the assignment and the new workload values. It runs the first kernel of
// the redistribution phase and reads its result back.
func (l *Loop[T]) Assignment(in Info) (assignment, newWorkloadValues []uint32) {
	if !in.Full || in.Processors != l.p {
		panic(fmt.Sprintf("balancer: Loop.Assignment: in is not a full gathering of these %d processors", l.p))
	}
	if l.p == 0 {
		return nil, nil
	}
	defer l.enter("Assignment")()
	l.c.Do(func() { l.runAssign(in) })
	assignment = make([]uint32, l.p)
	l.assignment.Read(0, assignment)
	w := make([]uint32, l.p)
	l.Workload().Read(0, w)
	newWorkloadValues = make([]uint32, l.p)
	for p, a := range assignment {
		if a > 0 {
			// ceil(w/a) is c again: a = ceil(w/c) <= the raw assignment.
			newWorkloadValues[p] = ceilDiv(w[p], a)
		}
	}
	return assignment, newWorkloadValues
}
