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
// the first one's segment, a forward walk the others' (see main). Outputs
// of one word (OUT 0, and OUT 1 with RECORD_WORDS 1, whose dst is then
// bound as segment) are stored as 16-byte vectors, bound twice as in
// load.glsl. The binary search runs only over the segments of the group's
// items, which one invocation finds first by two searches over all of
// them: log2 of a tile's segments steps per invocation instead of log2 of
// all.
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

// The group's items that belong to a segment lie in segments groupLo ..
// groupHi-1.
shared uint groupLo, groupHi;

// cross moves the walk past the segments that start at at = next (g <=
// at < g + 4 for the vector g of items, whose items from at on it
// relabels): to the last p with offsets[p] <= at, probing p+2, p+3, p+5,
// ... (one probe where the next segment is nonempty), then searching the
// last stride; empty segments between cost no step each.
uint p, next;
uvec4 seg, base;
#if OUT == 1 && RECORD_WORDS == 1
uvec4 val;
#endif

void cross(uint g) {
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
    bvec4 from = greaterThanEqual(uvec4(g) + uvec4(0u, 1u, 2u, 3u), uvec4(at));
    seg = mix(seg, uvec4(p), from);
    base = mix(base, uvec4(at), from);
#if OUT == 1 && RECORD_WORDS == 1
    val = mix(val, uvec4(values[p]), from);
#endif
}

void main() {
    if (gl_LocalInvocationIndex == 0u) {
        uint g0 = dpglGroupIndex() * uint(WG_SIZE * 4 * ITEMS);
        uint lo = 0u, hi = segments;
        if (g0 < n && segments > 0u) {
            uint g1 = min(g0 + uint(WG_SIZE * 4 * ITEMS), n) - 1u; // the group's last item
            if (offsets[0] <= g1) {
                // offset[lo] <= every item searched for (each is >= g0, or
                // lo = 0 and the caller checks offsets[0] <= g), and
                // offset[hi] > g1 (lbsLocate never reads offset[hi]).
                lo = offsets[0] <= g0 ? lbsLocate(0u, segments, g0) : 0u;
                hi = lbsLocate(lo, segments, g1) + 1u;
            }
        }
        groupLo = lo;
        groupHi = hi;
    }
    memoryBarrierShared();
    barrier();
    uint first = dpglGlobalIndex() * uint(4 * ITEMS);
    if (first >= n) {
        return;
    }
    // The invocation's items are consecutive, so it walks the offsets
    // forward with the segment p of its current item, and next, the
    // offset after it. Items below offsets[0] (p = 0, g < offsets[0])
    // belong to no segment. A vector of four items loads offsets (and
    // values) only where a segment starts inside it (about once a
    // segment), in a loop that the other vectors skip, and labels its
    // items with selects: seg and base, each item's segment and its
    // offset.
    uint cur = LBS_END, off0 = LBS_END;
    p = 0u;
    next = LBS_END;
    if (segments > 0u) {
        off0 = offsets[0];
        // offsets[groupLo] <= first where off0 <= first (see above).
        p = off0 <= first ? lbsLocate(groupLo, groupHi, first) : 0u;
        cur = offsets[p];
        next = lbsOffset(p + 1u);
    }
#if OUT == 1 && RECORD_WORDS == 1
    uint v0 = segments > 0u ? values[p] : 0u;
#endif
    uint e = min(first + uint(4 * ITEMS), n);
    for (uint g = first; g < e; g += 4u) {
        seg = uvec4(p);
        base = uvec4(cur);
#if OUT == 1 && RECORD_WORDS == 1
        val = uvec4(v0);
#endif
        while (next < g + 4u) {
            cross(g);
        }
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
}
