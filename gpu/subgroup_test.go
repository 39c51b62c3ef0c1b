package gpu_test

import (
	"strconv"
	"testing"
	"testing/fstest"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
)

// The subgroup kernels (shaders/scan/tile.glsl) are built for the subgroup
// size the context reports and assume that a work group of WG invocations
// runs as WG/size full subgroups, whose ids and lanes number the group's
// invocations once each. TestSubgroupLayout checks that on the driver at
// hand, at one subgroup per group and at several (8 on zink over lavapipe,
// 32 on NVIDIA and 64 on AMD all give 2 and more), together with an
// exclusive add and a broadcast against a plain loop.
func TestSubgroupLayout(t *testing.T) {
	c := gputest.Context(t)
	cp := c.Caps()
	if !cp.HasSubgroup(gpu.SubgroupBasic | gpu.SubgroupArithmetic | gpu.SubgroupBallot) {
		t.Skipf("the driver (%s) has no subgroup arithmetic and ballot in compute shaders", cp.Renderer)
	}
	sg := cp.SubgroupSize
	fsys := fstest.MapFS{"k/layout.comp": {Data: []byte(`#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = WG) in;
layout(std430, binding = 0) buffer Out { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = i * 2654435761u >> 20;
    o[6u * i + 0u] = gl_SubgroupSize;
    o[6u * i + 1u] = gl_NumSubgroups;
    o[6u * i + 2u] = gl_SubgroupID;
    o[6u * i + 3u] = gl_SubgroupInvocationID;
    o[6u * i + 4u] = subgroupExclusiveAdd(x);
    o[6u * i + 5u] = subgroupBroadcast(x, gl_SubgroupSize - 1u);
}
`)}}
	tried := map[int]bool{}
	for _, wg := range []int{sg, 2 * sg, 8 * sg, sg * sg} {
		if wg > cp.MaxWorkGroupInvocations || wg > 1024 || tried[wg] {
			continue
		}
		tried[wg] = true
		t.Run(strconv.Itoa(wg), func(t *testing.T) {
			p, err := c.ProgramFS(fsys, "k/layout.comp", map[string]string{"WG": strconv.Itoa(wg)})
			if err != nil {
				t.Fatal(err)
			}
			const groups = 3
			out := gputest.NewGuarded(t, c, 6*wg*groups, uint32(0xDEADBEEF), nil)
			defer out.Delete()
			c.Do(func() {
				c.BindStorage(0, out.View)
				p.Dispatch(groups, 1, 1)
			})
			o := out.Check(t, "layout")
			for g := 0; g < groups; g++ {
				seen := make([]bool, wg)
				for l := 0; l < wg; l++ {
					i := g*wg + l
					size, num, id, lane := int(o[6*i]), int(o[6*i+1]), int(o[6*i+2]), int(o[6*i+3])
					if size != sg || num != wg/sg {
						t.Fatalf("work group of %d, invocation %d: gl_SubgroupSize %d, gl_NumSubgroups %d; the context reports size %d", wg, l, size, num, sg)
					}
					if id >= num || lane >= size || seen[id*size+lane] {
						t.Fatalf("work group of %d, invocation %d: subgroup %d, lane %d: outside the group or taken twice", wg, l, id, lane)
					}
					seen[id*size+lane] = true
				}
				// The subgroup's invocations in lane order, for the
				// plain loop.
				byLane := make([]int, wg)
				for l := 0; l < wg; l++ {
					i := g*wg + l
					byLane[int(o[6*i+2])*sg+int(o[6*i+3])] = i
				}
				for s := 0; s < wg/sg; s++ {
					var sum uint32
					last := uint32(byLane[s*sg+sg-1]) * 2654435761 >> 20
					for lane := 0; lane < sg; lane++ {
						i := byLane[s*sg+lane]
						if o[6*i+4] != sum || o[6*i+5] != last {
							t.Fatalf("work group of %d, subgroup %d, lane %d: exclusive add %d, broadcast %d; want %d, %d", wg, s, lane, o[6*i+4], o[6*i+5], sum, last)
						}
						sum += uint32(i) * 2654435761 >> 20
					}
				}
			}
			gputest.Ran("subgroup layout, driver subgroup(" + strconv.Itoa(sg) + ") x " + strconv.Itoa(wg/sg) + " per group")
		})
	}
}
