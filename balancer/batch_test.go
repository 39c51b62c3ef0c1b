package balancer

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/dpgl/dpgl/balancer/synthetic"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
)

// iterationKernel records, for each task, the iteration that solved it
// (balancerIterationIndex + 1, so that 0 means unsolved).
const iterationKernel = `#version 450
layout(local_size_x = 64) in;
#include "balancer/loop.glsl"
layout(std430, binding = 3) restrict buffer Iter { uint iters[]; };
layout(std430, binding = 4) readonly restrict buffer Start { uint start[]; };
void balancerSolve(uint processor, uint problem, uint task) {
    iters[start[problem] + task] = balancerIterationIndex + 1u;
}
`

// Batched dispatches (Config.Batch) solve every task in the iteration the
// model solves it in, as balancerIterationIndex tells the kernel, under
// every policy, with one lane per processor and with lanes that take
// several processors (up to 429, where the default batch is 1), with the
// default batches and with small ones; and they do run fewer dispatches
// than iterations where the policy has nothing to decide.
func TestBatchedIterationsGPU(t *testing.T) {
	c := gputest.Context(t)
	prog, err := c.UserProgramSource("iterations.comp", iterationKernel, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 11))
	cases := []goldenCase{{"worked-example", []uint32{100, 19, 0, 0, 0, 0, 0}, 8},
		{"zipf", synthetic.Workload(synthetic.Zipf, 3000, 400, r), 12},
		{"one", []uint32{5}, 1}, {"empty", nil, 1}}
	l := newLoop[uint32](t, Config{})
	for _, cs := range cases {
		start := make([]uint32, len(cs.w)+1)
		for i, w := range cs.w {
			start[i+1] = start[i] + w
		}
		S := int(start[len(cs.w)])
		for _, pol := range []Policy{Never, Always, CostEffective, Bounded} {
			for _, lanes := range []int{0, 7} {
				for _, batch := range []int{0, 1, 3} {
					name := fmt.Sprintf("%s %v lanes %d batch %d", cs.name, pol, lanes, batch)
					cfg := Config{Name: "batch", Policy: pol, CostIterations: cs.cost, Lanes: lanes, Batch: batch, Logf: t.Logf}
					// The model's iteration of every task.
					want := make([]uint32, S)
					m := NewModel(IntegerSteps, cs.w, nil, problems(len(cs.w)))
					iter := 0
					clock := func(p Phase, _ int) time.Duration {
						if p == PhaseSolve {
							iter++
						}
						return 0
					}
					ms := Simulate(m, cfg, clock, func(_ int, problem uint32, task uint32) {
						want[start[problem]+task] = uint32(iter)
					})

					if err := l.SetConfig(cfg); err != nil {
						t.Fatal(err)
					}
					if err := l.Load(cs.w, nil, problems(len(cs.w))); err != nil {
						t.Fatal(err)
					}
					iters, err := gpu.NewBuffer[uint32](c, S+1)
					if err != nil {
						t.Fatal(err)
					}
					starts, err := gpu.NewBufferFrom(c, start)
					if err != nil {
						t.Fatal(err)
					}
					iters.Fill(0)
					st, err := l.Run(SolutionFunc(func(it *Iteration) {
						c.BindStorage(FirstFreeBinding, iters)
						c.BindStorage(FirstFreeBinding+1, starts)
						it.Dispatch(prog)
					}))
					got := iters.Download()
					iters.Delete()
					starts.Delete()
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if st.Iterations != ms.Iterations || st.Balances != ms.Balances || st.Gathers != ms.Gathers || st.Counts != ms.Counts {
						t.Fatalf("%s: GPU %d iterations %d balances %d gathers %d counts, model %d %d %d %d", name,
							st.Iterations, st.Balances, st.Gathers, st.Counts, ms.Iterations, ms.Balances, ms.Gathers, ms.Counts)
					}
					if got[S] != 0 {
						t.Fatalf("%s: the guard after the tasks was written: %d", name, got[S])
					}
					if i := slices.IndexFunc(got[:S], func(v uint32) bool { return v == 0 }); i >= 0 {
						t.Fatalf("%s: task slot %d never solved", name, i)
					}
					if !slices.Equal(got[:S], want) {
						for i := range want {
							if got[i] != want[i] {
								t.Fatalf("%s: task slot %d solved in iteration %d, the model's %d", name, i, int(got[i])-1, int(want[i])-1)
							}
						}
					}
					if st.Solve.N != st.Iterations {
						t.Fatalf("%s: %d solution phases timed for %d iterations", name, st.Solve.N, st.Iterations)
					}
					switch {
					case batch == 1 && st.Dispatches != st.Iterations:
						t.Fatalf("%s: %d dispatches for %d iterations with Batch 1", name, st.Dispatches, st.Iterations)
					case pol == Never && st.Iterations > 1 && l.batchSize(st.Lanes) > 1 && st.Dispatches >= st.Iterations:
						t.Fatalf("%s: Never ran %d iterations in %d dispatches: nothing batched", name, st.Iterations, st.Dispatches)
					case pol == Always && st.Dispatches != st.Iterations:
						t.Fatalf("%s: Always, which decides every iteration, ran %d iterations in %d dispatches", name, st.Iterations, st.Dispatches)
					}
				}
			}
		}
	}
}
