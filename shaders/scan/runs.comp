#version 450
// runs: reduce-by-key and run-length encoding over the runs of equal
// consecutive keys (KEY_WORDS words each, equal when every word is): run r
// (the r-th head, a head being element 0 or a key unlike the one before)
// writes its key to outKeys[r] and the op (TYPE and OP of elem.glsl) of
// its values to outSums[r], for r below mKeys and mSums. VALUES 0 (run-length
// encoding): every value is 1 (uint Add), so a run's op is its length.
//
// An invocation walks a chunk of CHUNK = 64 consecutive elements, in three
// passes around two scans of one word per chunk:
//   PASS 0: counts[c] = the heads in chunk c, and (KEY_WORDS 1) their
//           bits in heads[2*chunks + 2c] (elements 0-31) and the word
//           after (32-63). The host scans counts exclusively (its total:
//           the number of runs).
//   PASS 1: counts[c] the heads before chunk c, so the run in progress at
//           its first element is counts[c] - 1 (~0u, NONE, for c = 0).
//           A head writes its key; the run it ends gets its op here when
//           that run started in the chunk. A run that started before the
//           chunk and ends in it (at most one per chunk) leaves its index
//           and its op over the chunk's elements in heads[c] and
//           heads[chunks + c] (NONE: none). carry[c] is the op of the run
//           still open at the chunk's end, flag[c] = 1 where it starts in
//           the chunk: the input of the host's segmented inclusive scan.
//           The last chunk closes the last run.
//   PASS 2: a chunk c >= 1 with heads[c] != NONE writes that run's op:
//           the scanned carry[c-1] (the run's elements in the chunks
//           before) op its part in c.
// llvmpipe runs a group's invocations eight lanes to a vector and a load
// or store as a loop over the lanes (a word at a time), branching on each
// lane's mask. So PASS 1 finds the heads in PASS 0's bits instead of
// loading the keys again, loads a key only to store it, and makes every
// lane store at every turn of its loops over heads (see store).
//
// lint: PASS=0
// lint: PASS=1
// lint: PASS=2
// lint: PASS=1 VALUES=0
// lint: PASS=1 VALUES=0 KEY_WORDS=2
// lint: PASS=1 TYPE=2 OP=2 KEY_WORDS=3 WG_SIZE=64
// lint: PASS=0 KEY_WORDS=2

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef PASS
#define PASS 1
#endif
#ifndef KEY_WORDS
#define KEY_WORDS 1
#endif
#ifndef VALUES
#define VALUES 1
#endif
#define CHUNK 64
// FIXED: the turns of PASS 1's loops over heads that every lane makes
// (two a step of eight elements; ten a chunk of run-length encoding's,
// which holds eight heads on average where runs are eight long), before
// loops for the lanes with more heads.
#ifndef FIXED
#define FIXED 2
#endif
#ifndef FIXED_RLE
#define FIXED_RLE 10
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "elem.glsl"

uniform uint n;      // elements
uniform uint chunks; // ceil(n / CHUNK)
uniform uint mKeys;  // outKeys' length in keys
uniform uint mSums;  // outSums' length

layout(std430, binding = 0) readonly buffer KeysVec { uvec4 keys4[]; };
layout(std430, binding = 1) readonly buffer KeysOne { uint keys1[]; };
layout(std430, binding = 2) readonly buffer ValsVec { uvec4 vals4[]; };
layout(std430, binding = 3) readonly buffer ValsOne { uint vals1[]; };
layout(std430, binding = 4) writeonly buffer OutKeys { uint outKeys[]; };
layout(std430, binding = 5) writeonly buffer OutSums { uint outSums[]; };
#if PASS == 0
layout(std430, binding = 6) writeonly buffer Counts { uint counts[]; };
#else
layout(std430, binding = 6) readonly buffer Counts { uint counts[]; };
#endif
layout(std430, binding = 7) buffer Carry { uint carry[]; };
layout(std430, binding = 8) writeonly buffer Flag { uint flag[]; };
layout(std430, binding = 9) buffer Heads { uint heads[]; };

#define NONE 0xFFFFFFFFu

// zero is the op's exact identity: float Add's is -0 (-0 + x is x for
// every x, +0 + -0 is not -0), so that a run of -0s sums to -0, and a
// run that ends at a chunk's start leaves a part that changes nothing.
#if TYPE == 2 && OP == 0
T zero() { return -0.0; }
#else
T zero() { return ident(); }
#endif

#if PASS != 2
uint c;       // the chunk
uint r;       // the run in progress
bool here;    // it started in the chunk
T acc;        // its op over the chunk's elements so far
uint headRun; // heads[c] and heads[chunks + c]
T headPart;

T value(uint i) {
#if VALUES
    return fromBits(vals1[i]);
#else
    return T(1);
#endif
}

// store ends run r where has, with op v over the chunk's elements: its
// op goes to outSums[r] where the run started in the chunk, else to
// headRun and headPart. Then key kj goes to the run in progress. Without
// has it stores the same way for the run in progress, v being any value
// and kj its key: a later store overwrites outSums[r] (this invocation's
// where the run ends in the chunk, else PASS 2's). So every lane of a
// vector stores whatever its heads, and llvmpipe's loop over the lanes
// of a store finds every lane's mask set (no mispredicted branches).
void store(bool has, T v, uint kj) {
    if (r < mSums) {
        outSums[r] = toBits(v);
    }
    if (has) {
        if (!here) {
            headRun = r;
            headPart = v;
            here = true;
        }
        r++;
    }
    if (r < mKeys) {
        outKeys[r * uint(KEY_WORDS)] = kj;
    }
}
#endif

#if PASS == 0 && KEY_WORDS == 1
// heads4 says which of keys k are heads, prev being the key before k.x's
// bits, or any unlike k.x's for element 0.
bvec4 heads4(uvec4 k, uint prev) {
    return notEqual(k, uvec4(prev, k.xyz));
}

// bits4 packs h as bits 0-3.
uint bits4(bvec4 h) {
    uvec4 b = uvec4(h) << uvec4(0u, 1u, 2u, 3u);
    return b.x | b.y | b.z | b.w;
}
#endif

#if PASS == 1 && KEY_WORDS == 1
// headBits is bits [at, at + 8) of the chunk's head bits m0 (elements
// 0-31) and m1 (32-63), at a multiple of 4 below 64 (past 60: fewer).
uint headBits(uint m0, uint m1, uint at) {
    return (at < 32u ? m0 >> at | (at > 24u ? m1 << (32u - at) : 0u) : m1 >> (at - 32u)) & 0xFFu;
}

// fold4 folds values x, whose heads are bits 0-3 of b, into acc; s[j] is
// the op of the run in progress before element j, which element j ends
// where it is a head.
void fold4(T4 x, uint b, out T4 s) {
    bvec4 h = notEqual(uvec4(b) & uvec4(1u, 2u, 4u, 8u), uvec4(0u));
    s.x = acc;
    acc = h.x ? x.x : op(acc, x.x);
    s.y = acc;
    acc = h.y ? x.y : op(acc, x.y);
    s.z = acc;
    acc = h.z ? x.z : op(acc, x.z);
    s.w = acc;
    acc = h.w ? x.w : op(acc, x.w);
}

T4 values4(uint g) {
    uvec4 v = vals4[g / 4u];
    return T4(fromBits(v.x), fromBits(v.y), fromBits(v.z), fromBits(v.w));
}

// Selects, not indexing: a per-lane index into a vector would be a loop
// over the lanes.
T pickT(T4 v, uint j) { return j == 0u ? v.x : j == 1u ? v.y : j == 2u ? v.z : v.w; }

// emit stores for the lowest head in pending, bit j for element g + j,
// and removes it; with none, for the run in progress, which holds element
// g + last. s and s2 are fold4's for elements g .. g+3 and g+4 .. g+7.
void emit(inout uint pending, uint g, uint last, T4 s, T4 s2) {
    bool has = pending != 0u;
    uint j = has ? uint(findLSB(pending)) : last;
    pending &= pending - 1u;
    store(has, j < 4u ? pickT(s, j) : pickT(s2, j - 4u), keys1[g + j]);
}

// emitRun stores for the lowest head in the chunk's bits m0 and m1 (its
// run's length: its distance from start, the run in progress's first
// element in the chunk), and removes it; with none, for the run in
// progress.
void emitRun(inout uint m0, inout uint m1, inout uint start, uint a) {
    bool lo = m0 != 0u;
    bool has = lo || m1 != 0u;
    uint j = lo ? uint(findLSB(m0)) : has ? 32u + uint(findLSB(m1)) : start;
    m0 &= lo ? m0 - 1u : 0xFFFFFFFFu;
    m1 &= lo ? 0xFFFFFFFFu : m1 - 1u;
    store(has, T(j - start), keys1[a + j]);
    start = j;
}
#endif

#if PASS != 2 && KEY_WORDS != 1
bool multiHead(uint i) {
    if (i == 0u) {
        return true;
    }
    bool h = false;
    for (uint w = 0u; w < uint(KEY_WORDS); w++) {
        h = h || keys1[i * uint(KEY_WORDS) + w] != keys1[(i - 1u) * uint(KEY_WORDS) + w];
    }
    return h;
}
#endif

#if PASS == 0
void main() {
    c = dpglGlobalIndex();
    if (c >= chunks) {
        return;
    }
    uint a = c * uint(CHUNK);
    uint e = min(a + uint(CHUNK), n);
    uint count = 0u;
#if KEY_WORDS == 1
    uint prev = a > 0u ? keys1[a - 1u] : ~keys1[0];
    uint m0 = 0u, m1 = 0u;
    uint g = a;
    if (e - a == uint(CHUNK)) {
        // A whole chunk: loops of constant length, unrolled.
        for (uint i = 0u; i < 8u; i++) {
            uvec4 k = keys4[a / 4u + i];
            m0 |= bits4(heads4(k, prev)) << (4u * i);
            prev = k.w;
        }
        for (uint i = 0u; i < 8u; i++) {
            uvec4 k = keys4[a / 4u + 8u + i];
            m1 |= bits4(heads4(k, prev)) << (4u * i);
            prev = k.w;
        }
        g = e;
    }
    for (; g + 4u <= e; g += 4u) {
        uvec4 k = keys4[g / 4u];
        uint b = bits4(heads4(k, prev));
        uint at = g - a;
        m0 |= at < 32u ? b << at : 0u;
        m1 |= at < 32u ? 0u : b << (at - 32u);
        prev = k.w;
    }
    if (g < e) {
        // The last chunk's last 1-3 keys: those past n are no heads.
        uvec4 k = uvec4(prev);
        for (uint j = 0u; g + j < e; j++) {
            k[j] = keys1[g + j];
        }
        uint b = bits4(heads4(k, prev)) & ((1u << (e - g)) - 1u);
        uint at = g - a;
        m0 |= at < 32u ? b << at : 0u;
        m1 |= at < 32u ? 0u : b << (at - 32u);
    }
    count = uint(bitCount(m0) + bitCount(m1));
    heads[2u * chunks + 2u * c] = m0;
    heads[2u * chunks + 2u * c + 1u] = m1;
#else
    for (uint i = a; i < e; i++) {
        count += uint(multiHead(i));
    }
#endif
    counts[c] = count;
}
#elif PASS == 1
void main() {
    c = dpglGlobalIndex();
    if (c >= chunks) {
        return;
    }
    uint a = c * uint(CHUNK);
    uint e = min(a + uint(CHUNK), n);
    r = counts[c] - 1u;
    here = false;
    acc = zero();
    headRun = NONE;
    headPart = zero();
#if KEY_WORDS == 1
    uint m0 = heads[2u * chunks + 2u * c], m1 = heads[2u * chunks + 2u * c + 1u];
#if VALUES
    uint g = a;
    // Eight elements a step: FIXED turns for every lane, then a loop for
    // the lanes with more heads in the step.
    for (; g + 8u <= e; g += 8u) {
        uint pending = headBits(m0, m1, g - a);
        T4 s, s2;
        fold4(values4(g), pending, s);
        fold4(values4(g + 4u), pending >> 4u, s2);
        for (uint it = 0u; it < uint(FIXED); it++) {
            emit(pending, g, 7u, s, s2);
        }
        while (pending != 0u) {
            emit(pending, g, 7u, s, s2);
        }
    }
    // The last chunk's last 1-7 elements (those past n: no heads, zero).
    for (; g < e; g += 4u) {
        uint pending = headBits(m0, m1, g - a) & 0xFu;
        T4 x = T4(zero());
        for (uint j = 0u; j < 4u && g + j < e; j++) {
            x[j] = value(g + j);
        }
        T4 s;
        fold4(x, pending, s);
        while (pending != 0u) {
            emit(pending, g, 0u, s, s);
        }
    }
#else
    // Run lengths from the heads' positions alone: FIXED_RLE turns for
    // every lane, then a loop for the lanes with more heads.
    uint start = 0u;
    for (uint it = 0u; it < uint(FIXED_RLE); it++) {
        emitRun(m0, m1, start, a);
    }
    while ((m0 | m1) != 0u) {
        emitRun(m0, m1, start, a);
    }
    acc = T(e - a - start);
#endif
#else
    for (uint i = a; i < e; i++) {
        T x = value(i);
        if (multiHead(i)) {
            store(true, acc, 0u); // the key's words: below
            if (r < mKeys) {
                for (uint w = 0u; w < uint(KEY_WORDS); w++) {
                    outKeys[r * uint(KEY_WORDS) + w] = keys1[i * uint(KEY_WORDS) + w];
                }
            }
            acc = x;
        } else {
            acc = op(acc, x);
        }
    }
#endif
    if (e == n) {
        // The last run ends with the array.
        if (here) {
            if (r < mSums) {
                outSums[r] = toBits(acc);
            }
        } else {
            headRun = r;
            headPart = acc;
        }
    }
    carry[c] = toBits(acc);
    flag[c] = here ? 1u : 0u;
    heads[c] = headRun;
    heads[chunks + c] = toBits(headPart);
}
#else
void main() {
    uint c = dpglGlobalIndex();
    if (c == 0u || c >= chunks) {
        return;
    }
    uint run = heads[c];
    if (run != NONE && run < mSums) {
        outSums[run] = toBits(op(fromBits(carry[c - 1u]), fromBits(heads[chunks + c])));
    }
}
#endif
