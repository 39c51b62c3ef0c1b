#version 450
// runs: the lengths of run-length encoding. Pass one (scan.comp's
// OUT_RUNS with TAILS_ENDS) left in ends[r] the end of run r (its last
// index + 1); for r < n (the runs that fit in lengths), lengths[r] =
// ends[r] - ends[r-1], ends[-1] being 0.

#ifndef WG_SIZE
#define WG_SIZE 256
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"

uniform uint n;

layout(std430, binding = 0) readonly buffer Ends { uint ends[]; };
layout(std430, binding = 1) writeonly buffer Lengths { uint lengths[]; };

void main() {
    uint r = dpglGlobalIndex();
    if (r >= n) {
        return;
    }
    lengths[r] = ends[r] - (r == 0u ? 0u : ends[r - 1u]);
}
