#version 450
// retire: the end of a strategy's run (balancer.Strategy). The strategies
// only read the processor arrays while they solve; afterwards every
// processor is where the paper's loop would leave it: parallelIndex moved
// past its tasks, workload 0.

#ifndef WG_SIZE
#define WG_SIZE 256
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"

layout(std430, binding = 0) restrict buffer Workload { uint workload[]; };
layout(std430, binding = 1) restrict buffer ParallelIndex { uint parallelIndex[]; };

uniform uint n;

void main() {
    uint p = dpglGlobalIndex();
    if (p >= n) {
        return;
    }
    parallelIndex[p] += workload[p];
    workload[p] = 0u;
}
