#version 450
// frontier: loads a balancer loop with a frontier of Moore's algorithm
// (package balancer/sssp): processor i is vertex v = frontier[i], with
// workload = v's out-degree, parallelIndex = v's first edge and problem v;
// v leaves the "in the next frontier" set, so that a later improvement
// adds it again.

#ifndef WG_SIZE
#define WG_SIZE 256
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"

layout(std430, binding = 0) readonly restrict buffer Frontier { uint frontier[]; };
layout(std430, binding = 1) readonly restrict buffer Offsets { uint offsets[]; }; // N+1
layout(std430, binding = 2) writeonly restrict buffer Workload { uint workload[]; };
layout(std430, binding = 3) writeonly restrict buffer ParallelIndex { uint parallelIndex[]; };
layout(std430, binding = 4) writeonly restrict buffer Problem { uint problem[]; };
layout(std430, binding = 5) writeonly restrict buffer InNext { uint inNext[]; };

uniform uint n;

void main() {
    uint i = dpglGlobalIndex();
    if (i >= n) {
        return;
    }
    uint v = frontier[i];
    uint first = offsets[v];
    workload[i] = offsets[v + 1u] - first;
    parallelIndex[i] = first;
    problem[i] = v;
    inNext[v] = 0u;
}
