#version 450
// Marching cubes, pass 1: counts[j] = the number of triangles that the
// cells of run j make (mc.glsl: RUN cells along x), for j < runs, and
// counts[runs] = 0, so that an exclusive scan of counts[0 .. runs] gives
// every run's output offset and, at index runs, the total. Cells with a
// corner that is not finite make no triangles; nonFinite counts them.
// lint: WG_SIZE=64 RUN=1
// lint: RUN=8

#ifndef WG_SIZE
#define WG_SIZE 256
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "isosurface/mc.glsl"

layout(std430, binding = 2) writeonly restrict buffer Counts { uint counts[]; };
layout(std430, binding = 3) restrict buffer NonFinite { uint nonFinite; }; // zeroed by the host

void main() {
    uint j = dpglGlobalIndex();
    if (j > runs) return;
    if (j == runs) {
        counts[j] = 0u;
        return;
    }
    uint len;
    uvec3 c = runStart(j, len);
    uint left = faceCase(c), total = 0u, skipped = 0u;
    for (uint k = 0u; k < len; k++) {
        uint right = faceCase(c + uvec3(k + 1u, 0u, 0u));
        uint cs = left | (right << 1);
        if ((cs & NONFINITE) != 0u) {
            skipped++;
        } else {
            total += table[cs];
        }
        left = right;
    }
    counts[j] = total;
    if (skipped != 0u) atomicAdd(nonFinite, skipped);
}
