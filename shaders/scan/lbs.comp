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
// the first one's segment, a forward walk the others'; OUT 0
// stores them as 16-byte vectors, bound twice as in load.glsl. The binary
// search runs only over the segments of the group's items, which one
// invocation finds first by two searches over all of them: log2 of a
// tile's segments steps per invocation instead of log2 of all.
//
// lint: OUT=0 RANK=1
// lint: OUT=1 RECORD_WORDS=3 WG_SIZE=64 ITEMS=1

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
    uint lo = groupLo, hi = groupHi;
    // The invocation's items are consecutive, so it walks the offsets
    // forward with the segment p of its last item: cur = offsets[p], next =
    // the offset after it. Items below offsets[0] (p = 0, g < cur) belong
    // to no segment. An item loads offsets (and values) only where it
    // crosses into another segment: about one item in a segment's size,
    // where a search per item loads several, under branches that CPU
    // drivers mispredict.
    uint p = 0u, cur = LBS_END, next = LBS_END;
    if (segments > 0u) {
        // offsets[lo] <= first where offsets[0] <= first (see above).
        p = offsets[0] <= first ? lbsLocate(lo, hi, first) : 0u;
        cur = offsets[p];
        next = lbsOffset(p + 1u);
    }
#if OUT == 1 && RECORD_WORDS == 1
    uint val = segments > 0u ? values[p] : 0u;
#endif
    for (uint j = 0u; j < uint(ITEMS); j++) {
        uvec4 seg = uvec4(NONE), rank = uvec4(NONE);
        uint e = first + 4u * j;
        for (uint k = 0u; k < 4u; k++) {
            uint g = e + k;
            if (g >= n) {
                break;
            }
            while (next <= g) {
                p++;
                cur = next;
                next = lbsOffset(p + 1u);
#if OUT == 1 && RECORD_WORDS == 1
                val = values[p];
#endif
            }
            bool inSeg = g >= cur; // false also without segments (cur = LBS_END)
            seg[k] = inSeg ? p : NONE;
            rank[k] = inSeg ? g - cur : NONE;
#if OUT == 1
            if (inSeg) {
#if RECORD_WORDS == 1
                dst[g] = val;
#else
                for (uint w = 0u; w < uint(RECORD_WORDS); w++) {
                    dst[g * uint(RECORD_WORDS) + w] = values[p * uint(RECORD_WORDS) + w];
                }
#endif
            }
#endif
        }
#if OUT == 0
        if (e + 3u < n) {
            segment4[e / 4u] = seg;
#if RANK
            rank4[e / 4u] = rank;
#endif
        } else {
            for (uint k = 0u; k < 4u && e + k < n; k++) {
                segment1[e + k] = seg[k];
#if RANK
                rank1[e + k] = rank[k];
#endif
            }
        }
#endif
    }
}
