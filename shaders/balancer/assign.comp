#version 450
#extension GL_ARB_gpu_shader_int64 : require
// assign: the first step of redistribution: each processor's assignment
// (assign.glsl), from the workload and a full gathering, for the exclusive
// scan that places the blocks.
//
// lint: VARIANT=1
// lint: VARIANT=2

#ifndef WG_SIZE
#define WG_SIZE 256
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "balancer/assign.glsl"

layout(std430, binding = 0) readonly restrict buffer Workload { uint workload[]; };
layout(std430, binding = 2) writeonly restrict buffer Assignment { uint assignment[]; };

uniform uint n; // processors
// The full gathering's values (balancer.Info), as uniforms: llvmpipe loads
// a buffer word a lane at a time, five of them for every processor.
uniform uint avg;
uniform uint numIdle;
uniform uvec2 sum;       // Σ workload: low, high word
uniform uvec2 maskedSum; // sum_workload (Σ workload for the variants without a mask)

void main() {
    uint p = dpglGlobalIndex();
    if (p >= n) {
        return;
    }
    assignment[p] = assignOf(workload[p], n, avg, numIdle, packUint2x32(sum), packUint2x32(maskedSum)).x;
}
