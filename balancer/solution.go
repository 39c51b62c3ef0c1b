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
	batch      *batchRun    // the batched variants, when Iterations > 1
}

// batchRun builds and keeps the batched variants (BALANCER_BATCH) of a
// loop's solution kernels, and the first error building one.
type batchRun struct {
	variants map[variantKey]*gpu.Program
	err      error
}

// variant returns the batched variant of p, nil after an error.
func (b *batchRun) variant(p *gpu.Program) *gpu.Program {
	if b.err != nil {
		return nil
	}
	// Strategy Paper in the key: the paper's loop, batched.
	key := variantKey{p, Paper}
	if q := b.variants[key]; q != nil {
		return q
	}
	q, err := p.Variant(map[string]string{"BALANCER_BATCH": "1"})
	if err != nil {
		b.err = fmt.Errorf("balancer: building %s to run several iterations a dispatch (Config.Batch 1 runs one): %w", p.Name(), err)
		return nil
	}
	b.variants[key] = q
	return q
}

// Context is the context the loop runs on.
func (it *Iteration) Context() *gpu.Context { return it.ctx }

// Dispatch runs the solution kernel p (a program that includes
// shaders/balancer/loop.glsl) over the processors: it sets the uniforms
// balancerProcessors, balancerLanes and balancerIterationIndex and dispatches
// ceil(Lanes / p's work group size) groups. For Iterations > 1 it runs the
// batched variant of p instead (built once, with the uniforms set on p
// copied over). Under a strategy it runs the
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
	if it.Iterations > 1 {
		q := it.batch.variant(p)
		if q == nil {
			return // Run returns the error
		}
		p.CopyUniforms(q)
		q.SetUint("balancerProcessors", uint32(it.Processors))
		q.SetUint("balancerLanes", uint32(it.Lanes))
		q.SetUint("balancerFirstIteration", uint32(it.Index))
		q.SetUint("balancerBatch", uint32(it.Iterations))
		q.DispatchInvocations(it.Lanes)
		return
	}
	p.SetUint("balancerProcessors", uint32(it.Processors))
	p.SetUint("balancerLanes", uint32(it.Lanes))
	p.SetUint("balancerIterationIndex", uint32(it.Index))
	p.DispatchInvocations(it.Lanes)
}

// solveOnce runs sol for one iteration and checks that it dispatched.
func solveOnce(sol Solution, it *Iteration) {
	sol.Solve(it)
	if it.dispatched != 1 {
		panic(fmt.Sprintf("balancer: Solution.Solve did not call Iteration.Dispatch (iteration %d)", it.Index))
	}
}
