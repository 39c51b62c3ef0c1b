#version 450
// partition: the stable two-way partition of records of RECORD_WORDS words
// by 0/1 flags, given pos, the exclusive add-scan of the flags, and
// count[countAt], their sum: a selected record i goes to pos[i], the k-th
// of the selected; a rejected one to count + (i - pos[i]), i - pos[i]
// being the number of rejected records before it. Both keep their order.
//
// lint: RECORD_WORDS=3 WG_SIZE=64

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef RECORD_WORDS
#define RECORD_WORDS 1
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"

uniform uint n;
uniform uint countAt;

layout(std430, binding = 0) readonly buffer Src { uint src[]; };
layout(std430, binding = 1) readonly buffer Flags { uint flags[]; };
layout(std430, binding = 2) readonly buffer Pos { uint pos[]; };
layout(std430, binding = 3) readonly buffer Count { uint count[]; };
layout(std430, binding = 4) writeonly buffer Dst { uint dst[]; };

void main() {
    uint i = dpglGlobalIndex();
    if (i >= n) {
        return;
    }
    uint p = pos[i];
    uint to = flags[i] != 0u ? p : count[countAt] + (i - p);
    for (uint w = 0u; w < uint(RECORD_WORDS); w++) {
        dst[to * uint(RECORD_WORDS) + w] = src[i * uint(RECORD_WORDS) + w];
    }
}
