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
// Each invocation takes 4*ITEMS consecutive items: a binary search finds
// the first one's segment, a forward walk the others' (see WALK). Outputs
// of one word (OUT 0, and OUT 1 with RECORD_WORDS 1, whose dst is then
// bound as segment) are stored as 16-byte vectors, bound twice as in
// load.glsl. (A search narrowed to a work group's segments, found first by
// one invocation, cost llvmpipe more in its barrier than it saved.)
//
// lint: OUT=0 RANK=1
// lint: OUT=1 RECORD_WORDS=3 WG_SIZE=64 ITEMS=1
// lint: OUT=1 RECORD_WORDS=1

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
#define ITEMS 2
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"

uniform uint n;        // items
uniform uint segments; // offsets' length, < 2^31

layout(std430, binding = 0) readonly buffer Offsets { uint offsets[]; };
layout(std430, binding = 1) writeonly buffer SegmentVec { uvec4 segment4[]; };
layout(std430, binding = 2) writeonly buffer SegmentOne { uint segment1[]; };
layout(std430, binding = 3) writeonly buffer RankVec { uvec4 rank4[]; };
layout(std430, binding = 4) writeonly buffer RankOne { uint rank1[]; };
layout(std430, binding = 5) readonly buffer Values { uint values[]; };
layout(std430, binding = 6) writeonly buffer Dst { uint dst[]; };

#define LBS_OFFSET(p) offsets[p]
#define LBS_SEGMENTS segments
#define LBS_END 0xFFFFFFFFu
#include "include/lbs.glsl"

#define NONE 0xFFFFFFFFu

// The walk's state: the current item's segment p, the offset after it
// (next), and a vector of four items' segments and offsets.
uint p, next;
uvec4 seg, base;
#if OUT == 1 && RECORD_WORDS == 1
uvec4 val;
#endif

// relabel gives the items of vector g from at on segment p.
void relabel(uint g, uint at) {
    bvec4 from = greaterThanEqual(uvec4(g) + uvec4(0u, 1u, 2u, 3u), uvec4(at));
    seg = mix(seg, uvec4(p), from);
    base = mix(base, uvec4(at), from);
#if OUT == 1 && RECORD_WORDS == 1
    val = mix(val, uvec4(values[p]), from);
#endif
}

// step moves the walk into the segment that starts at at = next, g <= at
// < g + 4 for the vector g of items: one load, and an empty segment one
// step each (the last one at at labels the items).
void step(uint g) {
    uint at = next;
    p++;
    next = lbsOffset(p + 1u);
    relabel(g, at);
}

// leap moves the walk past all segments that start at at = next: to the
// last p with offsets[p] <= at, probing p+2, p+3, p+5, ..., then searching
// the last stride, for runs of empty segments too long to step through.
void leap(uint g) {
    uint at = next;
    uint lo = p + 1u, hi = lo + 1u, stride = 1u;
    uint b = lbsOffset(hi);
    while (b <= at) {
        lo = hi;
        stride *= 2u;
        hi = min(lo + stride, segments); // lbsOffset(segments) = LBS_END
        b = lbsOffset(hi);
    }
    p = lbsLocate(lo, hi, at);
    next = p + 1u == hi ? b : lbsOffset(p + 1u);
    relabel(g, at);
}

uint first, off0, cur;
#if OUT == 1 && RECORD_WORDS == 1
uint v0;
#endif

// start finds the segment p of the invocation's first item by binary
// search. Items below offsets[0] (p = 0, g < offsets[0]) belong to no
// segment.
void start() {
    off0 = LBS_END;
    cur = LBS_END;
    p = 0u;
    next = LBS_END;
    if (segments > 0u) {
        off0 = offsets[0];
        p = off0 <= first ? lbsLocate(0u, segments, first) : 0u;
        cur = offsets[p];
        next = lbsOffset(p + 1u);
    }
#if OUT == 1 && RECORD_WORDS == 1
    v0 = segments > 0u ? values[p] : 0u;
#endif
}

// finish stores vector g's outputs from its labels, and carries its last
// item's segment to the next vector.
void finish(uint g) {
    cur = base.w;
#if OUT == 1 && RECORD_WORDS == 1
    v0 = val.w;
#endif
    uvec4 item = uvec4(g) + uvec4(0u, 1u, 2u, 3u);
    // False below offsets[0], and without segments (base LBS_END).
    bvec4 inSeg = greaterThanEqual(item, base);
#if OUT == 0
    seg = mix(uvec4(NONE), seg, inSeg);
    uvec4 rank = mix(uvec4(NONE), item - base, inSeg);
    if (g + 4u <= n) {
        segment4[g / 4u] = seg;
#if RANK
        rank4[g / 4u] = rank;
#endif
    } else {
        for (uint k = 0u; g + k < n; k++) {
            segment1[g + k] = seg[k];
#if RANK
            rank1[g + k] = rank[k];
#endif
        }
    }
#elif RECORD_WORDS == 1
    // Items below offsets[0] keep their value: a vector with any, or
    // past n, stores item by item, in a loop the others skip.
    bool whole = g >= off0 && g + 4u <= n;
    if (whole) {
        segment4[g / 4u] = val;
    }
    for (uint k = whole ? 4u : 0u; k < 4u && g + k < n; k++) {
        if (inSeg[k]) {
            segment1[g + k] = val[k];
        }
    }
#else
    for (uint k = 0u; k < 4u && g + k < n; k++) {
        if (inSeg[k]) {
            for (uint w = 0u; w < uint(RECORD_WORDS); w++) {
                dst[(g + k) * uint(RECORD_WORDS) + w] = values[seg[k] * uint(RECORD_WORDS) + w];
            }
        }
    }
#endif
}

// WALK is the walk over the invocation's items, crossing segment starts
// with CROSS (step or leap): the invocation's items are consecutive, so
// it walks the offsets forward with the segment p of its current item and
// next, the offset after it. A vector of four items loads offsets (and
// values) only where a segment starts inside it (about once a segment),
// in a loop that the other vectors skip, and labels its items with
// selects: seg and base, each item's segment and its offset.
#define WALK(CROSS, LIMIT) \
    for (uint g = first; g < e; g += 4u) { \
        seg = uvec4(p); \
        base = uvec4(cur); \
        SET_VAL \
        while (next < g + 4u && LIMIT) { \
            CROSS(g); \
        } \
        finish(g); \
    }
#if OUT == 1 && RECORD_WORDS == 1
#define SET_VAL val = uvec4(v0);
#else
#define SET_VAL
#endif

void main() {
    first = dpglGlobalIndex() * uint(4 * ITEMS);
    if (first >= n) {
        return;
    }
    uint e = min(first + uint(4 * ITEMS), n);
    // Steps, up to 4096 segments (a run of empty ones may be longer than
    // a loop may count); past them the walk starts again with leaps, in a
    // loop that invocations within the limit skip (leaps in the steps'
    // loop cost llvmpipe a third more).
    start();
    uint limit = p + 4096u;
    WALK(step, p < limit)
    for (uint again = p < limit ? 1u : 0u; again < 1u; again++) {
        start();
        WALK(leap, true)
    }
}
