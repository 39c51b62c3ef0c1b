package balancer

import (
	"fmt"

	"github.com/dpgl/dpgl/gpu"
)

// The storage-block bindings of shaders/balancer/loop.glsl: the processor
// arrays, bound by the loop before each iteration of the solution phase. A
// solution kernel's own buffers start at FirstFreeBinding.
const (
	BindingWorkload      = 0 // uint balancerWorkload[]
	BindingParallelIndex = 1 // uint balancerParallelIndex[]
	BindingProblem       = 2 // BALANCER_PROBLEM balancerProblem[]
	FirstFreeBinding     = 3
)

// Solution is the solution phase of a loop, supplied by the loop's user as
// a compute kernel built on shaders/balancer/loop.glsl.
type Solution interface {
	// Solve issues one dispatch of the solution phase: iteration
	// it.Index, or it.Iterations of them from it.Index where the loop
	// batches them (Config.Batch). It runs on the GL thread (inside
	// gpu.Context.Do) with the processor arrays bound: it binds the
	// kernel's own buffers (FirstFreeBinding on), sets its uniforms, and
	// calls it.Dispatch exactly once. It must not wait for the GPU (no
	// reads): the original loop queues all its iterations without a round
	// trip.
	Solve(it *Iteration)
}

// SolutionFunc adapts a function to Solution.
type SolutionFunc func(it *Iteration)

// Solve calls f(it).
func (f SolutionFunc) Solve(it *Iteration) { f(it) }

// Iteration is one iteration of the solution phase, as Solution.Solve sees
// it.
type Iteration struct {
	Index      int // the loop's iteration, from 0
	Iterations int // the iterations this dispatch runs, from Index: 1 unless batched
	Processors int // P
	Lanes      int // invocations that take processors, grid-stride

	ctx        *gpu.Context
	dispatched int
	strat      *strategyRun // nil for the paper's loop
	// variants is the Loop's cache of solution kernels' variants, where
	// the paper's loop keeps their BALANCER_ONE_PER_LANE ones (keyed by
	// strategy Paper).
	variants map[variantKey]*gpu.Program
}

// Context is the context the loop runs on.
func (it *Iteration) Context() *gpu.Context { return it.ctx }

// Dispatch runs the solution kernel p (a program that includes
// shaders/balancer/loop.glsl) over the processors: it sets the uniforms
// balancerProcessors, balancerLanes, balancerFirstIteration and
// balancerBatch (Index and Iterations) and dispatches ceil(Lanes / p's work
// group size) groups; where no lane takes more than one processor (Lanes
// >= Processors) it runs p's BALANCER_ONE_PER_LANE variant (loop.glsl),
// built once, with p's uniforms copied over. Under a strategy it runs the
// strategy's variant of p instead (built once, with the uniforms set on p
// copied over), with the strategy's state at BindingStrategy. The loop issues the storage
// barrier that the next phase needs; a kernel whose other outputs are read
// by later GL commands (not shaders) issues its own.
func (it *Iteration) Dispatch(p *gpu.Program) {
	if p == nil {
		panic("balancer: Iteration.Dispatch: p is nil")
	}
	it.dispatched++
	if it.dispatched > 1 {
		panic("balancer: Iteration.Dispatch: called twice in one iteration; each iteration moves every processor on by one task, so it dispatches the solution kernel once")
	}
	if it.strat != nil {
		it.strat.dispatch(it, p)
		return
	}
	p.SetUint("balancerProcessors", uint32(it.Processors))
	p.SetUint("balancerLanes", uint32(it.Lanes))
	p.SetUint("balancerFirstIteration", uint32(it.Index))
	p.SetUint("balancerBatch", uint32(max(it.Iterations, 1)))
	if it.Lanes >= it.Processors {
		if q := it.onePerLane(p); q != p {
			p.CopyUniforms(q)
			p = q
		}
	}
	p.DispatchInvocations(it.Lanes)
}

// onePerLane returns p's variant for a dispatch in which no lane takes
// more than one processor (loop.glsl BALANCER_ONE_PER_LANE: no loop over
// a lane's processors, which llvmpipe makes the solution's code dearer
// in), built the first time it is asked for; p itself where the variant
// does not build or p has a uniform that CopyUniforms cannot carry over
// (p's own loop solves the same tasks, only slower).
func (it *Iteration) onePerLane(p *gpu.Program) *gpu.Program {
	key := variantKey{p, Paper}
	if q := it.variants[key]; q != nil {
		return q
	}
	q := p
	if p.CanCopyUniforms() {
		if v, err := p.Variant(map[string]string{"BALANCER_ONE_PER_LANE": "1"}); err == nil {
			q = v
		}
	}
	it.variants[key] = q
	return q
}

// solveOnce runs sol for one iteration and checks that it dispatched.
func solveOnce(sol Solution, it *Iteration) {
	sol.Solve(it)
	if it.dispatched != 1 {
		panic(fmt.Sprintf("balancer: Solution.Solve did not call Iteration.Dispatch (iteration %d)", it.Index))
	}
}
