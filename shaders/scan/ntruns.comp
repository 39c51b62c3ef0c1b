#version 450
// ntruns: the non-trivial runs (longer than one key) of equal consecutive
// keys (KEY_WORDS words each, equal when every word is), in three passes
// around one scan, an invocation an element (PASS 0, 1) or a run (PASS 2):
//   PASS 0: flags[i] = 1 where a non-trivial run starts at i (key i equals
//           key i+1 but not key i-1), else 0. The host scans flags
//           exclusively in place: flags[i] is then the number of
//           non-trivial runs that start before i, and the total their
//           count, left in count[countAt].
//   PASS 1: a run's start i writes i to starts[flags[i]]; its last
//           element i (key i equals key i-1 but not key i+1) writes i+1 to
//           ends[flags[i] - 1]: its own start lies before it, so it is
//           counted in flags[i], and no start lies between.
//   PASS 2: run r below count[countAt] writes offsets[r] = starts[r]
//           (below mOffsets) and lengths[r] = ends[r] - starts[r] (below
//           mLengths). The count stays on the GPU: the pass reads it.
//
// lint: PASS=0
// lint: PASS=1 KEY_WORDS=2
// lint: PASS=2

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef PASS
#define PASS 0
#endif
#ifndef KEY_WORDS
#define KEY_WORDS 1
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"

uniform uint n;        // keys
uniform uint countAt;  // the count's index in count
uniform uint mOffsets; // offsets' length
uniform uint mLengths; // lengths' length

layout(std430, binding = 0) readonly buffer Keys { uint keys[]; };
layout(std430, binding = 1) buffer Flags { uint flags[]; };
layout(std430, binding = 2) buffer Starts { uint starts[]; };
layout(std430, binding = 3) buffer Ends { uint ends[]; };
layout(std430, binding = 4) readonly buffer Count { uint count[]; };
layout(std430, binding = 5) writeonly buffer Offsets { uint offsets[]; };
layout(std430, binding = 6) writeonly buffer Lengths { uint lengths[]; };

// same says keys a and b are equal in every word.
bool same(uint a, uint b) {
    for (uint w = 0u; w < uint(KEY_WORDS); w++) {
        if (keys[a * uint(KEY_WORDS) + w] != keys[b * uint(KEY_WORDS) + w]) {
            return false;
        }
    }
    return true;
}

bool runStart(uint i) {
    return i + 1u < n && same(i, i + 1u) && (i == 0u || !same(i - 1u, i));
}

bool runEnd(uint i) {
    return i > 0u && same(i - 1u, i) && (i + 1u == n || !same(i, i + 1u));
}

void main() {
    uint i = dpglGlobalIndex();
#if PASS == 0
    if (i < n) {
        flags[i] = runStart(i) ? 1u : 0u;
    }
#elif PASS == 1
    if (i < n) {
        if (runStart(i)) {
            starts[flags[i]] = i;
        } else if (runEnd(i)) {
            ends[flags[i] - 1u] = i + 1u;
        }
    }
#else
    if (i < count[countAt]) {
        if (i < mOffsets) {
            offsets[i] = starts[i];
        }
        if (i < mLengths) {
            lengths[i] = ends[i] - starts[i];
        }
    }
#endif
}
