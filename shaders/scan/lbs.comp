#version 450
// lbs: the load-balancing search (include/lbs.glsl) as a kernel of its
// own. offsets[0..segments) is the exclusive add-scan of the segments'
// sizes; item g of the n outputs belongs to the last segment p with
// offsets[p] <= g, as its item g - offsets[p] (its rank). Items below
// offsets[0] belong to no segment.
//   OUT 0: segment[g] = p and, with RANK, rank[g] = g - offsets[p];
//          0xFFFFFFFF for both where g belongs to no segment.
//   OUT 1: interval expand: dst[g] = values[p] for records of RECORD_WORDS
//          words; dst[g] is left alone where g belongs to no segment.
// Each invocation takes ITEMS consecutive items: a binary search finds the
// first one's segment, forward seeks (lbsSeek) the others'.
//
// lint: OUT=0 RANK=1
// lint: OUT=1 RECORD_WORDS=3 WG_SIZE=64 ITEMS=4

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef OUT
#define OUT 0
#endif
#ifndef RANK
#define RANK 1
#endif
#ifndef RECORD_WORDS
#define RECORD_WORDS 1
#endif
#ifndef ITEMS
#define ITEMS 8
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"

uniform uint n;        // items
uniform uint segments; // offsets' length, < 2^31

layout(std430, binding = 0) readonly buffer Offsets { uint offsets[]; };
layout(std430, binding = 1) writeonly buffer Segment { uint segment[]; };
layout(std430, binding = 2) writeonly buffer Rank { uint rank[]; };
layout(std430, binding = 3) readonly buffer Values { uint values[]; };
layout(std430, binding = 4) writeonly buffer Dst { uint dst[]; };

#define LBS_OFFSET(p) offsets[p]
#define LBS_SEGMENTS segments
#define LBS_END 0xFFFFFFFFu
#include "include/lbs.glsl"

void emit(uint g, uint p) {
#if OUT == 0
    segment[g] = p;
#if RANK
    rank[g] = p == 0xFFFFFFFFu ? p : g - offsets[p];
#endif
#else
    if (p != 0xFFFFFFFFu) {
        for (uint w = 0u; w < uint(RECORD_WORDS); w++) {
            dst[g * uint(RECORD_WORDS) + w] = values[p * uint(RECORD_WORDS) + w];
        }
    }
#endif
}

void main() {
    uint first = dpglGlobalIndex() * uint(ITEMS);
    if (first >= n) {
        return;
    }
    uint last = min(first + uint(ITEMS), n);
    uint p = 0xFFFFFFFFu;
    for (uint g = first; g < last; g++) {
        if (p != 0xFFFFFFFFu) {
            p = lbsSeek(p, g);
        } else if (segments > 0u && offsets[0] <= g) {
            p = lbsLocate(0u, segments, g);
        }
        emit(g, p);
    }
}
