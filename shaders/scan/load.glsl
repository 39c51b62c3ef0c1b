// Loading a tile's elements four at a time (one 16-byte vector per load
// where all four lie below n), as the V values a scan combines. MAP says
// what an element is:
//   0  the value src[e] (with its head flag flags[e] when SEGMENTED)
//   1  1 where flags[e] != 0, else 0 (counts, compaction positions)
//   2  e where flags[e] != 0, else 0 (max-scanned: the index of e's head)
// Element 0 always heads a segment. Elements at or past n are the identity.
//
// Each array is bound twice, as vectors and as scalars: the scalar view
// reads the last, partial vector, which the vector view would read past the
// end of the bound range.

#ifndef MAP
#define MAP 0
#endif

uniform uint n; // elements

#if MAP == 0
layout(std430, binding = 0) readonly buffer SrcVec { T4 src4[]; };
layout(std430, binding = 1) readonly buffer SrcOne { T src1[]; };
#endif
#if MAP != 0 || SEGMENTED
layout(std430, binding = 2) readonly buffer FlagVec { uvec4 flags4[]; };
layout(std430, binding = 3) readonly buffer FlagOne { uint flags1[]; };
#endif

V elemOf(uint e, T v, uint f) {
#if MAP == 1
    return f != 0u ? 1u : 0u;
#elif MAP == 2
    return f != 0u ? e : 0u;
#elif SEGMENTED
    return Seg(f != 0u || e == 0u ? 1u : 0u, v);
#else
    return v;
#endif
}

// loadVec sets x to elements 4j .. 4j+3.
void loadVec(uint j, out V x[4]) {
    uint e0 = 4u * j;
    T4 v = T4(ident());
    uvec4 f = uvec4(0u);
    if (e0 + 3u < n) {
#if MAP == 0
        v = src4[j];
#endif
#if MAP != 0 || SEGMENTED
        f = flags4[j];
#endif
    } else {
        for (uint k = 0u; k < 4u; k++) {
            if (e0 + k < n) {
#if MAP == 0
                v[k] = src1[e0 + k];
#endif
#if MAP != 0 || SEGMENTED
                f[k] = flags1[e0 + k];
#endif
            }
        }
    }
    for (uint k = 0u; k < 4u; k++) {
        x[k] = e0 + k < n ? elemOf(e0 + k, v[k], f[k]) : vIdent();
    }
}

// reduce4 is x[0] op x[1] op x[2] op x[3], left to right.
V reduce4(V x[4]) {
    return comb(comb(comb(x[0], x[1]), x[2]), x[3]);
}
