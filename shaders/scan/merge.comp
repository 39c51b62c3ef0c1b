#version 450
// merge: dst = the stable merge of a (na keys) and b (nb keys), both
// ascending in order.glsl's order, a's key first among equal keys; with
// VALUE_WORDS > 0 the values (records of that many words) move with their
// keys. moderngpu's merge path: invocation t writes outputs d = t*ITEMS
// .. d+ITEMS-1. It finds how many of the first d outputs come from a (ai;
// bi = d - ai from b) by a binary search along the diagonal ai + bi = d:
// the split is the first ai at which a[ai] no longer goes before
// b[d-1-ai] (a goes first on ties, so "before" is a <= b). Then it merges
// ITEMS outputs serially from (ai, bi). No shared memory; each output is
// read about twice, once by the merge and once or less by the searches.
//
// lint: TYPE=2 ITEMS=4
// lint: TYPE=1 VALUE_WORDS=2

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef TYPE
#define TYPE 0
#endif
#ifndef ITEMS
#define ITEMS 8
#endif
#ifndef VALUE_WORDS
#define VALUE_WORDS 0
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "order.glsl"

uniform uint na; // a's keys
uniform uint nb; // b's keys

layout(std430, binding = 0) readonly buffer AKeys { uint aKeys[]; };
layout(std430, binding = 1) readonly buffer BKeys { uint bKeys[]; };
layout(std430, binding = 2) writeonly buffer DstKeys { uint dstKeys[]; };
#if VALUE_WORDS > 0
layout(std430, binding = 3) readonly buffer AVals { uint aVals[]; };
layout(std430, binding = 4) readonly buffer BVals { uint bVals[]; };
layout(std430, binding = 5) writeonly buffer DstVals { uint dstVals[]; };
#endif

void main() {
    uint t = dpglGlobalIndex();
    uint total = na + nb;
    // t*ITEMS without overflow: t < ceil(total / ITEMS).
    if (t >= dpglCeilDiv(total, uint(ITEMS))) {
        return;
    }
    uint d = t * uint(ITEMS);
    uint lo = d > nb ? d - nb : 0u;
    uint hi = min(d, na);
    while (lo < hi) {
        uint mid = lo + (hi - lo) / 2u;
        if (ordered(aKeys[mid]) <= ordered(bKeys[d - 1u - mid])) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    uint ai = lo, bi = d - lo;
    uint end = min(d + uint(ITEMS), total);
    for (uint o = d; o < end; o++) {
        bool fromA = bi >= nb || ai < na && ordered(aKeys[ai]) <= ordered(bKeys[bi]);
        if (fromA) {
            dstKeys[o] = aKeys[ai];
#if VALUE_WORDS > 0
            for (uint w = 0u; w < uint(VALUE_WORDS); w++) {
                dstVals[o * uint(VALUE_WORDS) + w] = aVals[ai * uint(VALUE_WORDS) + w];
            }
#endif
            ai++;
        } else {
            dstKeys[o] = bKeys[bi];
#if VALUE_WORDS > 0
            for (uint w = 0u; w < uint(VALUE_WORDS); w++) {
                dstVals[o * uint(VALUE_WORDS) + w] = bVals[bi * uint(VALUE_WORDS) + w];
            }
#endif
            bi++;
        }
    }
}
