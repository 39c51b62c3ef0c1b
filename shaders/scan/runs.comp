#version 450
// runs: the runs of equal keys (records of RECORD_WORDS words, equal when
// every word is) for unique, run-length encoding and reduce-by-key.
//   PASS 0 (one invocation per key i): heads[i] = 1 where a run starts
//          (i = 0 or key i-1 differs), tails[i] = 1 where one ends (i = n-1
//          or key i+1 differs; only with TAILS); with ENDS also
//          ends[i] = i + 1, which a
//          compaction by the tails turns into each run's end.
//   PASS 1 (one invocation per run r < count[countAt], and r < n, the
//          length of lengths): lengths[r] =
//          ends[r] - ends[r-1], ends[-1] being 0.
//
// lint: PASS=0 RECORD_WORDS=2 ENDS=1
// lint: PASS=0 TAILS=0
// lint: PASS=1

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef PASS
#define PASS 0
#endif
#ifndef RECORD_WORDS
#define RECORD_WORDS 1
#endif
#ifndef ENDS
#define ENDS 0
#endif
#ifndef TAILS
#define TAILS 1
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"

uniform uint n; // keys (PASS 0) or lengths (PASS 1)
uniform uint countAt;

layout(std430, binding = 0) readonly buffer Keys { uint keys[]; };
layout(std430, binding = 1) writeonly buffer Heads { uint heads[]; };
layout(std430, binding = 2) writeonly buffer Tails { uint tails[]; };
layout(std430, binding = 3) buffer Ends { uint ends[]; };
layout(std430, binding = 4) readonly buffer Count { uint count[]; };
layout(std430, binding = 5) writeonly buffer Lengths { uint lengths[]; };

bool sameKey(uint a, uint b) {
    for (uint w = 0u; w < uint(RECORD_WORDS); w++) {
        if (keys[a * uint(RECORD_WORDS) + w] != keys[b * uint(RECORD_WORDS) + w]) {
            return false;
        }
    }
    return true;
}

void main() {
    uint i = dpglGlobalIndex();
#if PASS == 0
    if (i >= n) {
        return;
    }
    heads[i] = uint(i == 0u || !sameKey(i - 1u, i));
#if TAILS
    tails[i] = uint(i == n - 1u || !sameKey(i, i + 1u));
#endif
#if ENDS
    ends[i] = i + 1u;
#endif
#else
    if (i >= n || i >= count[countAt]) {
        return;
    }
    lengths[i] = ends[i] - (i == 0u ? 0u : ends[i - 1u]);
#endif
}
