#version 450
#extension GL_ARB_gpu_shader_int64 : require
// Test kernel: raster.glsl's floorDivEst(n, a) for a list of (n, a) pairs,
// for comparison with exact floor division in Go.
layout(local_size_x = 32) in;
#include "include/common.glsl"
#include "rasterizer/raster.glsl"

layout(std430, binding = 0) readonly buffer Ins { int64_t ins[]; }; // n, a
layout(std430, binding = 1) writeonly buffer Outs { int64_t outs[]; };
uniform uint n;

void main() {
    uint i = dpglGlobalIndex();
    if (i >= n) return;
    outs[i] = floorDivEst(ins[2u * i], ins[2u * i + 1u]);
}
