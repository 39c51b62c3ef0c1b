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

// closeRun ends run r, whose op over the chunk's elements is v.
void closeRun(T v) {
    if (here) {
        if (r < mSums) {
            outSums[r] = toBits(v);
        }
    } else {
        headRun = r;
        headPart = v;
        here = true;
    }
}

T value(uint i) {
#if VALUES
    return fromBits(vals1[i]);
#else
    return T(1);
#endif
}
#endif

#if PASS != 2 && KEY_WORDS == 1
// step loads elements g .. g+3 (those past n: no head, the identity) and
// their heads h, prev being key g-1's bits (any for g = 0).
void step(uint g, uint prev, out uvec4 k, out T4 x, out bvec4 h) {
    bvec4 in_ = bvec4(true);
    if (g + 4u <= n) {
        k = keys4[g / 4u];
#if PASS == 1 && VALUES
        uvec4 v = vals4[g / 4u];
        x = T4(fromBits(v.x), fromBits(v.y), fromBits(v.z), fromBits(v.w));
#else
        x = T4(T(1));
#endif
    } else {
        k = uvec4(prev);
        x = T4(zero());
        for (uint j = 0u; g + j < n; j++) {
            k[j] = keys1[g + j];
#if PASS == 1
            x[j] = value(g + j);
#endif
        }
        in_ = lessThan(uvec4(g) + uvec4(0u, 1u, 2u, 3u), uvec4(n));
    }
    h = notEqual(k, uvec4(prev, k.xyz));
    h.x = h.x || g == 0u;
    h = bvec4(uvec4(h) & uvec4(in_));
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
    uint prev = a > 0u ? keys1[a - 1u] : 0u;
    for (uint g = a; g < e; g += 4u) {
        uvec4 k;
        T4 x;
        bvec4 h;
        step(g, prev, k, x, h);
        uvec4 u = uvec4(h);
        count += u.x + u.y + u.z + u.w;
        prev = k.w;
    }
#else
    for (uint i = a; i < e; i++) {
        bool h = multiHead(i);
        count += uint(h);
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
    uint prev = a > 0u ? keys1[a - 1u] : 0u;
    for (uint g = a; g < e; g += 4u) {
        uvec4 k;
        T4 x;
        bvec4 h;
        step(g, prev, k, x, h);
        prev = k.w;
        // s[j]: the op of the run in progress before element j, which
        // element j ends where it is a head.
        T4 s;
        s.x = acc;
        acc = h.x ? x.x : op(acc, x.x);
        s.y = acc;
        acc = h.y ? x.y : op(acc, x.y);
        s.z = acc;
        acc = h.z ? x.z : op(acc, x.z);
        s.w = acc;
        acc = h.w ? x.w : op(acc, x.w);
        uvec4 hb = uvec4(h) << uvec4(0u, 1u, 2u, 3u);
        uint pending = hb.x | hb.y | hb.z | hb.w;
        while (pending != 0u) {
            uint j = uint(findLSB(pending));
            pending &= pending - 1u;
            // Selects, not an indexed load: a per-lane index into a
            // vector would be a loop over the lanes.
            T sj = j == 0u ? s.x : j == 1u ? s.y : j == 2u ? s.z : s.w;
            uint kj = j == 0u ? k.x : j == 1u ? k.y : j == 2u ? k.z : k.w;
            closeRun(sj);
            r++;
            if (r < mKeys) {
                outKeys[r] = kj;
            }
        }
    }
#else
    for (uint i = a; i < e; i++) {
        bool h = multiHead(i);
        T x = value(i);
        if (h) {
            closeRun(acc);
            r++;
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
        closeRun(acc);
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
