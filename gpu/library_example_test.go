package gpu_test

import (
	"fmt"
	"log"

	"github.com/dpgl/dpgl/gpu"
)

// A kernel of one's own over 5,000,000 elements: 78,125 work groups of 64,
// more than the 65,535 a dimension that GL promises, so DispatchInvocations
// lays them out in two dimensions and the kernel finds its flat index with
// dpglGlobalIndex() from dpgl's include/common.glsl. (UserProgramFile and
// UserProgram build kernels from the user's files the same way.)
func Example_userKernel() {
	c, err := gpu.NewHeadless()
	if err != nil {
		log.Fatal(err)
	}
	defer c.Delete()
	p, err := c.UserProgramSource("squares.comp", `#version 450
layout(local_size_x = 64) in;
#include "include/common.glsl"
layout(std430, binding = 0) writeonly buffer Dst { uint dst[]; };
uniform uint n;
void main() {
    uint i = dpglGlobalIndex();
    if (i < n) {
        dst[i] = i * i;
    }
}
`, nil)
	if err != nil {
		log.Fatal(err)
	}
	const n = 5_000_000
	dst, err := gpu.NewBuffer[uint32](c, n)
	if err != nil {
		log.Fatal(err)
	}
	defer dst.Delete()
	c.Do(func() {
		p.Bind("Dst", dst) // by the block's name; checks the element size
		p.SetUint("n", n)
		p.DispatchInvocations(n)
	})
	got := dst.Download()
	wrong := 0
	for i, v := range got {
		if v != uint32(i)*uint32(i) {
			wrong++
		}
	}
	fmt.Println(p.Groups(n), "groups,", wrong, "wrong elements")
	// Output:
	// 78125 groups, 0 wrong elements
}
