#version 450
#extension GL_ARB_gpu_shader_int64 : require
// assign: the first step of redistribution: each processor's assignment
// (assign.glsl), from the workload and a full gathering in the info buffer,
// for the exclusive scan that places the blocks.
//
// lint: VARIANT=1
// lint: VARIANT=2

#ifndef WG_SIZE
#define WG_SIZE 256
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "balancer/info.glsl"
#include "balancer/assign.glsl"

layout(std430, binding = 0) readonly restrict buffer Workload { uint workload[]; };
layout(std430, binding = 1) readonly restrict buffer Info { uint info[]; };
layout(std430, binding = 2) writeonly restrict buffer Assignment { uint assignment[]; };

uniform uint n; // processors

void main() {
    uint p = dpglGlobalIndex();
    if (p >= n) {
        return;
    }
    uint64_t sum = infoPair(info[INFO_SUM_LO], info[INFO_SUM_HI]);
#if VARIANT == 0
    uint64_t maskedSum = infoPair(info[INFO_MASKED_SUM_LO], info[INFO_MASKED_SUM_HI]);
#else
    uint64_t maskedSum = sum;
#endif
    assignment[p] = assignOf(workload[p], n, balancerDiv64(sum, uint64_t(n)), info[INFO_IDLE], sum, maskedSum).x;
}
