#version 450
// bound: for each of the n queries q = queries[i], dst[i] = the first
// index p of sorted (m keys, ascending in order.glsl's order) whose key is
// not below q (UPPER 0, lower bound) or above q (UPPER 1, upper bound); m
// where there is none. A binary search of ceil(log2(m+1)) steps an
// invocation; the loop runs the same steps in every lane.
//
// lint: UPPER=0 TYPE=2
// lint: UPPER=1 TYPE=1

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef TYPE
#define TYPE 0
#endif
#ifndef UPPER
#define UPPER 0
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "order.glsl"

uniform uint n; // queries
uniform uint m; // sorted keys

layout(std430, binding = 0) readonly buffer Sorted { uint sorted[]; };
layout(std430, binding = 1) readonly buffer Queries { uint queries[]; };
layout(std430, binding = 2) writeonly buffer Dst { uint dst[]; };

void main() {
    uint i = dpglGlobalIndex();
    if (i >= n) {
        return;
    }
    uint q = ordered(queries[i]);
    // Invariant: keys before lo go before q, keys at or past hi do not.
    uint lo = 0u, hi = m;
    while (lo < hi) {
        uint mid = lo + (hi - lo) / 2u;
        uint k = ordered(sorted[mid]);
#if UPPER
        bool before = k <= q;
#else
        bool before = k < q;
#endif
        if (before) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    dst[i] = lo;
}
