#version 450
// random_counts: the lanes' counts of static random assignment
// (balancer.RandomAssignment): position x < tasks of the permuted task
// order goes to lane dpglRandomLane(x); count[l] += 1. The balancer then
// scans the counts (count[lanes] = 0) into each lane's first position.

#ifndef WG_SIZE
#define WG_SIZE 256
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "include/hash.glsl"

layout(std430, binding = 0) restrict buffer Counts { uint counts[]; };

uniform uint tasks;
uniform uint lanes;
uniform uint seed;

void main() {
    uint x = dpglGlobalIndex();
    if (x >= tasks) {
        return;
    }
    atomicAdd(counts[dpglRandomLane(x, seed, lanes)], 1u);
}
