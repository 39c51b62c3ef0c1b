#version 450
// segreduce: the reduction of each segment [offsets[s], offsets[s+1]) of
// src (TYPE and OP of elem.glsl), from a segmented inclusive scan of src
// whose heads are the segments' first elements.
//   PASS 0 (one invocation per segment): heads[offsets[s]] = 1 for every
//          nonempty segment (heads was cleared before).
//   PASS 1 (one invocation per segment): dst[s] = init op scanned[e - 1]
//          for a nonempty segment, init for an empty one. Offsets are
//          clamped to n, so that no index leaves src.
// With offsets non-decreasing no head lies inside a segment, so
// scanned[e - 1] is the op of the segment's elements alone.
//
// lint: PASS=0
// lint: PASS=1 TYPE=2 OP=2

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef PASS
#define PASS 0
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "elem.glsl"

uniform uint segments;
uniform uint n;        // src's length
uniform uint initBits; // PASS 1

layout(std430, binding = 0) readonly buffer Offsets { uint offsets[]; };
layout(std430, binding = 1) writeonly buffer Heads { uint heads[]; };
layout(std430, binding = 2) readonly buffer Scanned { uint scanned[]; };
layout(std430, binding = 3) writeonly buffer Dst { uint dst[]; };

void main() {
    uint s = dpglGlobalIndex();
    if (s >= segments) {
        return;
    }
    uint b = min(offsets[s], n);
    uint e = min(offsets[s + 1u], n);
#if PASS == 0
    if (b < e) {
        heads[b] = 1u;
    }
#else
    T v = fromBits(initBits);
    if (b < e) {
        v = op(v, fromBits(scanned[e - 1u]));
    }
    dst[s] = toBits(v);
#endif
}
