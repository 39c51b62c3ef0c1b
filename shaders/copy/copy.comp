#version 450
// copy: dst = src, 16 bytes per load. The bandwidth reference that every
// other kernel is compared against (bench copy). Each invocation moves ITEMS
// vectors strided by the group size, so a group's loads are contiguous.
// lint: WG_SIZE=128 ITEMS=8

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef ITEMS
#define ITEMS 4
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"

layout(std430, binding = 0) readonly restrict buffer Src { uvec4 src[]; };
layout(std430, binding = 1) writeonly restrict buffer Dst { uvec4 dst[]; };

uniform uint n4; // number of 16-byte vectors

void main() {
    uint base = dpglGroupIndex() * uint(WG_SIZE * ITEMS) + gl_LocalInvocationID.x;
    uvec4 v[ITEMS];
    for (uint i = 0u; i < uint(ITEMS); i++) {
        uint j = base + i * uint(WG_SIZE);
        if (j < n4) v[i] = src[j];
    }
    for (uint i = 0u; i < uint(ITEMS); i++) {
        uint j = base + i * uint(WG_SIZE);
        if (j < n4) dst[j] = v[i];
    }
}
