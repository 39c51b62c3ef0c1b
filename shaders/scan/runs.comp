#version 450
// runs: reduce-by-key and run-length encoding over the runs of equal
// consecutive keys (KEY_WORDS words each, equal when every word is): run r
// (the r-th head, a head being element 0 or a key unlike the one before)
// writes its key to outKeys[r] and the op (TYPE and OP of elem.glsl) of
// its values to outSums[r], for r below mKeys and mSums. VALUES 0 (run-length
// encoding): every value is 1 (uint Add), so a run's op is its length.
//
// An invocation walks a chunk of CHUNK = 4*ITEMS consecutive elements, four
// at a time, in three passes around two scans of one word per chunk:
//   PASS 0: counts[c] = the heads in chunk c (keys only). The host
//           scans counts exclusively (its total: the number of runs).
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
// llvmpipe runs a group's lanes eight to a vector and a store as a loop
// over them, so the heads' stores run in a loop over the four elements'
// heads that turns as often as the most heads a lane has in them (about
// 1.5 times a step for runs of 8), not once per element.
//
// lint: PASS=0
// lint: PASS=1
// lint: PASS=2
// lint: PASS=1 VALUES=0 KEY_WORDS=2
// lint: PASS=1 TYPE=2 OP=2 KEY_WORDS=3 ITEMS=4 WG_SIZE=64
// lint: PASS=0 KEY_WORDS=2

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef PASS
#define PASS 1
#endif
#ifndef ITEMS
#define ITEMS 16
#endif
#ifndef KEY_WORDS
#define KEY_WORDS 1
#endif
#ifndef VALUES
#define VALUES 1
#endif
#define CHUNK (4 * ITEMS)

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
// has, it stores the same way for the run in progress, v being any value:
// a later store (this invocation's when the run ends in the chunk, else
// PASS 2's) overwrites outSums[r], and kj is its key. Every lane of a
// vector thus stores whatever its heads, and llvmpipe's loop over the
// lanes of a store finds every lane active (no mispredicted branches).
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

#if PASS != 2 && KEY_WORDS == 1
// heads4 says which of keys k (elements g .. g+3) are heads, prev being
// key g-1's bits, or any unlike k.x for g = 0.
bvec4 heads4(uvec4 k, uint prev) {
    return notEqual(k, uvec4(prev, k.xyz));
}

// loadTail loads elements g .. g+3 of which some lie past n: those get no
// head and the identity.
void loadTail(uint g, uint prev, out uvec4 k, out T4 x, out bvec4 h) {
    k = uvec4(prev);
    x = T4(zero());
    for (uint j = 0u; g + j < n; j++) {
        k[j] = keys1[g + j];
#if PASS == 1
        x[j] = value(g + j);
#endif
    }
    h = heads4(k, prev);
    h = bvec4(uvec4(h) & uvec4(lessThan(uvec4(g) + uvec4(0u, 1u, 2u, 3u), uvec4(n))));
}

// firstPrev is key a-1's bits, or for a = 0 bits unlike key 0's.
uint firstPrev(uint a) {
    return a > 0u ? keys1[a - 1u] : ~keys1[0];
}
#endif

#if PASS == 1 && KEY_WORDS == 1
// fold4 folds elements g .. g+3 (keys k, values x, heads h) into acc and
// returns their heads as bits 0-3; s[j] is the op of the run in progress
// before element j, which element j ends where it is a head.
uint fold4(uvec4 k, T4 x, bvec4 h, out T4 s) {
    s.x = acc;
    acc = h.x ? x.x : op(acc, x.x);
    s.y = acc;
    acc = h.y ? x.y : op(acc, x.y);
    s.z = acc;
    acc = h.z ? x.z : op(acc, x.z);
    s.w = acc;
    acc = h.w ? x.w : op(acc, x.w);
    uvec4 hb = uvec4(h) << uvec4(0u, 1u, 2u, 3u);
    return hb.x | hb.y | hb.z | hb.w;
}

T4 values4(uint g) {
#if VALUES
    uvec4 v = vals4[g / 4u];
    return T4(fromBits(v.x), fromBits(v.y), fromBits(v.z), fromBits(v.w));
#else
    return T4(T(1));
#endif
}

// Selects, not indexing: a per-lane index into a vector would be a loop
// over the lanes.
T pickT(T4 v, uint j) { return j == 0u ? v.x : j == 1u ? v.y : j == 2u ? v.z : v.w; }
uint pickU(uvec4 v, uint j) { return j == 0u ? v.x : j == 1u ? v.y : j == 2u ? v.z : v.w; }

// emit4 stores for the lowest head in pending (s and k: fold4's), and
// removes it; with none, for the run in progress (key k.w).
void emit4(inout uint pending, T4 s, uvec4 k) {
    bool has = pending != 0u;
    uint j = has ? uint(findLSB(pending)) : 3u;
    pending &= pending - 1u;
    store(has, pickT(s, j), pickU(k, j));
}

// emit8 is emit4 over eight elements, s and k the first four's, s2 and
// k2 the last four's.
void emit8(inout uint pending, T4 s, T4 s2, uvec4 k, uvec4 k2) {
    bool has = pending != 0u;
    uint j = has ? uint(findLSB(pending)) : 7u;
    pending &= pending - 1u;
    bool lo = j < 4u;
    store(has, lo ? pickT(s, j) : pickT(s2, j - 4u), lo ? pickU(k, j) : pickU(k2, j - 4u));
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

#ifndef FIXED
#define FIXED 2
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
    uint prev = firstPrev(a);
    uint g = a;
    for (; g + 4u <= e; g += 4u) {
        uvec4 k = keys4[g / 4u];
        uvec4 u = uvec4(heads4(k, prev));
        count += u.x + u.y + u.z + u.w;
        prev = k.w;
    }
    if (g < e) {
        uvec4 k;
        T4 x;
        bvec4 h;
        loadTail(g, prev, k, x, h);
        uvec4 u = uvec4(h);
        count += u.x + u.y + u.z + u.w;
    }
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
    uint prev = firstPrev(a);
    uint g = a;
    // Eight elements a step: FIXED stores for every lane (emit8), then a
    // loop for the lanes with more heads in the step.
    for (; g + 8u <= e; g += 8u) {
        uvec4 k = keys4[g / 4u], k2 = keys4[g / 4u + 1u];
        T4 s, s2;
        uint pending = fold4(k, values4(g), heads4(k, prev), s);
        pending |= fold4(k2, values4(g + 4u), heads4(k2, k.w), s2) << 4u;
        prev = k2.w;
        for (uint it = 0u; it < uint(FIXED); it++) {
            emit8(pending, s, s2, k, k2);
        }
        while (pending != 0u) {
            emit8(pending, s, s2, k, k2);
        }
    }
    // The last chunk's last 1-7 elements.
    for (; g < e; g += 4u) {
        uvec4 k;
        T4 x, s;
        bvec4 h;
        if (g + 4u <= e) {
            k = keys4[g / 4u];
            x = values4(g);
            h = heads4(k, prev);
        } else {
            loadTail(g, prev, k, x, h);
        }
        uint pending = fold4(k, x, h, s);
        prev = k.w;
        while (pending != 0u) {
            emit4(pending, s, k);
        }
    }
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
