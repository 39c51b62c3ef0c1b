#version 450
// gather: dst[i] = src[index[i]] for records of RECORD_WORDS words; an
// index at or past srcLen leaves dst[i] as it was.
//
// lint: RECORD_WORDS=4 WG_SIZE=64

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef RECORD_WORDS
#define RECORD_WORDS 1
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"

uniform uint n; // dst records = indices
uniform uint srcLen;

layout(std430, binding = 0) readonly buffer Src { uint src[]; };
layout(std430, binding = 1) readonly buffer Index { uint index[]; };
layout(std430, binding = 3) writeonly buffer Dst { uint dst[]; };

void main() {
    uint i = dpglGlobalIndex();
    if (i >= n) {
        return;
    }
    uint j = index[i];
    if (j < srcLen) {
        for (uint w = 0u; w < uint(RECORD_WORDS); w++) {
            dst[i * uint(RECORD_WORDS) + w] = src[j * uint(RECORD_WORDS) + w];
        }
    }
}
