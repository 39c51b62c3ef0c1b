// Loading a tile's elements four at a time (one 16-byte vector per load
// where all four lie below n), as the V values a scan combines. MAP
// (modes.glsl) says what an element is:
//   MAP_VALUES      the value src[e] (with its head flag flags[e] when
//                   SEGMENTED)
//   MAP_COUNT       1 where flags[e] != 0, else 0 (counts, compaction
//                   positions)
//   MAP_HEAD_INDEX  e where flags[e] != 0, else 0 (max-scanned: the index
//                   of e's head)
//   MAP_PREDICATE   1 where scanPredicate(x, e) holds for x = src[e] (of
//                   PRED_TYPE), else 0: PRED_EXPR, or a function of the
//                   user's kernel that includes this file (select.glsl)
// With KEY_WORDS > 0 the flags are not read but computed: binding 3 then
// holds keys of KEY_WORDS words, and flags[e] is 1 where a run of equal
// keys starts (e = 0 or key e-1 differs from key e in some word), so that
// unique reads its keys once (not SEGMENTED: scankernel.glsl refuses that).
// Element 0 always heads a segment. Elements at or past n are the identity.
//
// Each array is bound twice, as vectors and as scalars: the scalar view
// reads the last, partial vector, which the vector view would read past the
// end of the bound range.

#include "modes.glsl"

#ifndef MAP
#define MAP MAP_VALUES
#endif
#ifndef KEY_WORDS
#define KEY_WORDS 0
#endif
#ifndef LOAD_RECORDS
#define LOAD_RECORDS 0
#endif

uniform uint n; // elements

#define READS_SRC (MAP == MAP_VALUES || MAP == MAP_PREDICATE)
#define READS_FLAGS (MAP == MAP_COUNT || MAP == MAP_HEAD_INDEX || SEGMENTED)

#if READS_SRC
layout(std430, binding = 0) readonly buffer SrcVec { T4 src4[]; };
#endif
// LOAD_RECORDS: scan.comp reads records of uint words here (T is uint then).
#if READS_SRC || LOAD_RECORDS
layout(std430, binding = 1) readonly buffer SrcOne { T src1[]; };
#endif
#if READS_FLAGS
layout(std430, binding = 2) readonly buffer FlagVec { uvec4 flags4[]; };
layout(std430, binding = 3) readonly buffer FlagOne { uint flags1[]; };
#endif

#if KEY_WORDS > 0
// keyHead: e starts a run of equal keys.
bool keyHead(uint e) {
    if (e == 0u) {
        return true;
    }
    for (uint w = 0u; w < uint(KEY_WORDS); w++) {
        if (flags1[(e - 1u) * uint(KEY_WORDS) + w] != flags1[e * uint(KEY_WORDS) + w]) {
            return true;
        }
    }
    return false;
}
#endif

#if READS_FLAGS
uint flagAt(uint e) {
#if KEY_WORDS > 0
    return uint(keyHead(e));
#else
    return flags1[e];
#endif
}
#endif

#if MAP == MAP_PREDICATE
#ifndef PRED_TYPE
#define PRED_TYPE 0
#endif
#if PRED_TYPE == 0
#define PRED_T uint
PRED_T predFromBits(uint b) { return b; }
#elif PRED_TYPE == 1
#define PRED_T int
PRED_T predFromBits(uint b) { return int(b); }
#else
#define PRED_T float
PRED_T predFromBits(uint b) { return uintBitsToFloat(b); }
#endif
#ifdef PRED_EXPR
bool scanPredicate(PRED_T x, uint i) {
    return bool(PRED_EXPR);
}
#else
// Defined by the user's kernel (select.glsl).
bool scanPredicate(PRED_T x, uint i);
#endif
#endif

V elemOf(uint e, T v, uint f) {
#if MAP == MAP_COUNT || MAP == MAP_PREDICATE
    return f != 0u ? 1u : 0u;
#elif MAP == MAP_HEAD_INDEX
    return f != 0u ? e : 0u;
#elif SEGMENTED
    return Seg(f != 0u || e == 0u ? 1u : 0u, v);
#else
    return v;
#endif
}

// tailEnd is the end of the elements of the partial vector at e0: e0
// (none) when all four lie below n.
uint tailEnd(uint e0) {
    return e0 + 3u < n ? e0 : max(e0, n);
}

// RECORDS_LOADED (scan.comp's compactions of one-word records that are
// what loadVec reads: the predicate's elements, or the keys of KEY_WORDS
// 1): loadVec leaves the four words it read in loadedWords, so that the
// records need not be read again.
#ifndef RECORDS_LOADED
#define RECORDS_LOADED 0
#endif
#if RECORDS_LOADED
uvec4 loadedWords;
#endif

// loadVecAfter is loadVec given, for one-word keys (KEY_WORDS 1), the key
// before element 4j in key (any value for j = 0), which it sets to the
// vector's last key when the vector is whole: an invocation that walks
// consecutive vectors (LANE_CARRY) loads each key once. Other MAPs ignore
// key.
void loadVecAfter(uint j, inout uint key, out V x[4]) {
    uint e0 = 4u * j;
    T4 v = T4(ident());
    uvec4 f = uvec4(0u);
#if RECORDS_LOADED
    loadedWords = uvec4(0u);
#endif
    if (e0 + 3u < n) {
#if READS_SRC
        v = src4[j];
#if RECORDS_LOADED && !READS_FLAGS
        loadedWords = uvec4(v);
#endif
#endif
#if READS_FLAGS
#if KEY_WORDS == 1
        // One load of four keys; the key before them is the caller's.
        uvec4 k = flags4[j];
        uint before = e0 == 0u ? ~k.x : key;
        f = uvec4(notEqual(k, uvec4(before, k.xyz)));
        key = k.w;
#if RECORDS_LOADED
        loadedWords = k;
#endif
#elif KEY_WORDS > 1
        for (uint k = 0u; k < 4u; k++) {
            f[k] = flagAt(e0 + k);
        }
#else
        f = flags4[j];
#endif
#endif
    }
    // The last, partial vector element by element, in a loop that does not
    // iterate for whole vectors: CPU drivers run both sides of a branch
    // that any lane takes (and llvmpipe every branch, taken or not), but
    // leave a loop as soon as no lane iterates.
    for (uint e = e0; e < tailEnd(e0); e++) {
#if READS_SRC
        v[e - e0] = src1[e];
#if RECORDS_LOADED && !READS_FLAGS
        loadedWords[e - e0] = uint(v[e - e0]);
#endif
#endif
#if READS_FLAGS
        f[e - e0] = flagAt(e);
#if RECORDS_LOADED && KEY_WORDS == 1
        loadedWords[e - e0] = flags1[e];
#endif
#endif
    }
#if MAP == MAP_PREDICATE
    // v holds the elements' bits (T is the count's uint).
    for (uint k = 0u; k < 4u; k++) {
        f[k] = e0 + k < n && scanPredicate(predFromBits(v[k]), e0 + k) ? 1u : 0u;
    }
#endif
    for (uint k = 0u; k < 4u; k++) {
        x[k] = e0 + k < n ? elemOf(e0 + k, v[k], f[k]) : vIdent();
    }
}

// keyBefore is the key before element 4j for loadVecAfter (one-word
// keys; 0 for j = 0 and other MAPs).
uint keyBefore(uint j) {
#if READS_FLAGS && KEY_WORDS == 1
    if (j != 0u && 4u * j - 1u < n) {
        return flags1[4u * j - 1u];
    }
#endif
    return 0u;
}

// loadVec sets x to elements 4j .. 4j+3.
void loadVec(uint j, out V x[4]) {
    uint key = keyBefore(j);
    loadVecAfter(j, key, x);
}

// reduce4 is x[0] op x[1] op x[2] op x[3], left to right.
V reduce4(V x[4]) {
    return comb(comb(comb(x[0], x[1]), x[2]), x[3]);
}
