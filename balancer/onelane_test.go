package balancer

import (
	"fmt"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
)

// oneLaneKernel records each task as mark + its processor's problem + 1
// at the task's slot, and in word 0 of Way which code ran it: 2 for
// loop.glsl's BALANCER_ONE_PER_LANE variant, 1 for the grid-stride loop.
// WIDE 1 adds a 64-bit integer uniform (left 0), which
// gpu.Program.CopyUniforms refuses.
const oneLaneKernel = `#version 450
#if WIDE
#extension GL_ARB_gpu_shader_int64 : require
#endif
layout(local_size_x = 64) in;
#include "balancer/loop.glsl"
layout(std430, binding = 3) restrict buffer Out { uint outs[]; };
layout(std430, binding = 4) readonly restrict buffer Start { uint start[]; };
layout(std430, binding = 5) restrict buffer Way { uint way[]; };
uniform uint mark;
#if WIDE
uniform int64_t bias;
#endif
void balancerSolve(uint processor, uint problem, uint task) {
    uint v = mark + problem + 1u;
#if WIDE
    v += uint(bias);
#endif
    outs[start[problem] + task] = v;
    way[0] = uint(BALANCER_ONE_PER_LANE) + 1u;
}
`

// Where every lane takes at most one processor, Iteration.Dispatch runs
// the solution kernel's BALANCER_ONE_PER_LANE variant (no loop over a
// lane's processors), with the uniforms set on the kernel carried over,
// and it solves the same tasks as the kernel's grid-stride loop; a kernel
// with a uniform that CopyUniforms cannot carry runs as it is.
func TestOnePerLaneVariantGPU(t *testing.T) {
	c := gputest.Context(t)
	w := []uint32{5, 0, 3, 9, 1, 0, 0, 4, 2, 7, 1, 6, 0, 3}
	start := make([]uint32, len(w)+1)
	for i, x := range w {
		start[i+1] = start[i] + x
	}
	S := int(start[len(w)])
	l := newLoop[uint32](t, Config{})
	for _, wide := range []bool{false, true} {
		if wide && !c.Caps().Int64 {
			continue
		}
		prog, err := c.UserProgramSource("onelane.comp", oneLaneKernel, map[string]string{"WIDE": fmt.Sprint(b2u(wide))})
		if err != nil {
			t.Fatal(err)
		}
		for _, pol := range []Policy{Never, Always, CostEffective} {
			for _, lanes := range []int{0, len(w), len(w) + 5, 3} {
				name := fmt.Sprintf("wide %v %v lanes %d", wide, pol, lanes)
				if err := l.SetConfig(Config{Name: "onelane", Policy: pol, CostIterations: 2, Lanes: lanes, Logf: t.Logf}); err != nil {
					t.Fatal(err)
				}
				if err := l.Load(w, nil, problems(len(w))); err != nil {
					t.Fatal(err)
				}
				outs, err := gpu.NewBuffer[uint32](c, S+1)
				if err != nil {
					t.Fatal(err)
				}
				starts, err := gpu.NewBufferFrom(c, start)
				if err != nil {
					t.Fatal(err)
				}
				way, err := gpu.NewBuffer[uint32](c, 1)
				if err != nil {
					t.Fatal(err)
				}
				outs.Fill(0)
				way.Fill(0)
				const mark = 1000
				var ran []int
				_, err = l.Run(SolutionFunc(func(it *Iteration) {
					c.BindStorage(FirstFreeBinding, outs)
					c.BindStorage(FirstFreeBinding+1, starts)
					c.BindStorage(FirstFreeBinding+2, way)
					prog.SetUint("mark", mark)
					ran = append(ran, it.Lanes)
					it.Dispatch(prog)
				}))
				got := outs.Download()
				wayGot := way.Download()[0]
				outs.Delete()
				starts.Delete()
				way.Delete()
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for p, x := range w {
					for k := start[p]; k < start[p]+x; k++ {
						if got[k] != mark+uint32(p)+1 {
							t.Fatalf("%s: task %d of processor %d holds %d, want %d", name, k-start[p], p, got[k], mark+p+1)
						}
					}
				}
				if got[S] != 0 {
					t.Fatalf("%s: the guard after the tasks was written: %d", name, got[S])
				}
				// Lanes 0 is one a processor; an always-balancing loop
				// may move work, never processors, so the lanes stay.
				onePer := lanes == 0 || lanes >= len(w)
				want := uint32(1)
				if onePer && !wide {
					want = 2
				}
				if wayGot != want {
					t.Fatalf("%s: the last dispatch (lanes %v) ran way %d, want %d (2: the one-per-lane variant, 1: the loop)", name, ran, wayGot, want)
				}
			}
		}
	}
}
