#version 450
#extension GL_ARB_gpu_shader_int64 : require
// Test kernel: raster.glsl's floorDivEst(n, a) (RECIP 0) or floorDivRecip
// (RECIP 1) for a list of (n, a) pairs, for comparison with exact floor
// division in Go.
#ifndef RECIP
#define RECIP 0
#endif
layout(local_size_x = 32) in;
#include "include/common.glsl"
#include "rasterizer/raster.glsl"

layout(std430, binding = 0) readonly buffer Ins { int64_t ins[]; }; // n, a
layout(std430, binding = 1) writeonly buffer Outs { int64_t outs[]; };
uniform uint n;

void main() {
    uint i = dpglGlobalIndex();
    if (i >= n) return;
#if RECIP
    double a = i64Double(ins[2u * i + 1u]);
    outs[i] = int64_t(floorDivRecip(i64Double(ins[2u * i]), a, 1.0 / a));
#else
    outs[i] = floorDivEst(ins[2u * i], ins[2u * i + 1u]);
#endif
}
