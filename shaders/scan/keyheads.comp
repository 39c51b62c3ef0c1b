#version 450
// keyheads: heads[i] = 1 where a run of equal consecutive keys (KEY_WORDS
// words each, equal when every word is) starts, else 0: i = 0, or key i
// differs from key i-1 in some word. The segmented scans then restart at
// the heads (scan-by-key), and the compactions keep them (unique-by-key).
// An invocation handles one element; keys are read as words, so any key
// type whose size is a multiple of 4 bytes works.
//
// lint: KEY_WORDS=1
// lint: KEY_WORDS=3 WG_SIZE=64

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef KEY_WORDS
#define KEY_WORDS 1
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"

uniform uint n; // keys

layout(std430, binding = 0) readonly buffer Keys { uint keys[]; };
layout(std430, binding = 1) writeonly buffer Heads { uint heads[]; };

void main() {
    uint i = dpglGlobalIndex();
    if (i >= n) {
        return;
    }
    uint h = i == 0u ? 1u : 0u;
    for (uint w = 0u; w < uint(KEY_WORDS) && i > 0u; w++) {
        if (keys[(i - 1u) * uint(KEY_WORDS) + w] != keys[i * uint(KEY_WORDS) + w]) {
            h = 1u;
        }
    }
    heads[i] = h;
}
