#version 450
// adjdiff: dst[0] = src[0], dst[i] = src[i] - src[i-1] (TYPE of elem.glsl:
// 0 uint, 1 int, 2 float; integers wrap, so both are subtracted as uint
// bits). Each invocation handles ITEMS 16-byte vectors strided by the
// group size, as the copy kernel does, and loads the element before its
// vector once more; dst may not be src (a neighbour's element would be
// overwritten before it is read). Both arrays are bound twice, as vectors
// and as scalars for the last, partial vector (see load.glsl).
//
// lint: TYPE=2
// lint: TYPE=1 ITEMS=2

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef ITEMS
#define ITEMS 4
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "elem.glsl"

uniform uint n;

layout(std430, binding = 0) readonly buffer SrcVec { uvec4 src4[]; };
layout(std430, binding = 1) readonly buffer SrcOne { uint src1[]; };
layout(std430, binding = 2) writeonly buffer DstVec { uvec4 dst4[]; };
layout(std430, binding = 3) writeonly buffer DstOne { uint dst1[]; };

#if TYPE == 2
uvec4 sub4(uvec4 a, uvec4 b) {
    return floatBitsToUint(uintBitsToFloat(a) - uintBitsToFloat(b));
}
#else
uvec4 sub4(uvec4 a, uvec4 b) {
    return a - b;
}
#endif

void main() {
    uint base = dpglGroupIndex() * uint(WG_SIZE * ITEMS) + gl_LocalInvocationID.x;
    for (uint k = 0u; k < uint(ITEMS); k++) {
        uint j = base + k * uint(WG_SIZE);
        uint e = 4u * j;
        if (e >= n) {
            break;
        }
        // Element 0 has nothing before it and is copied as it is.
        uint before = e == 0u ? 0u : src1[e - 1u];
        if (e + 3u < n) {
            uvec4 v = src4[j];
            uvec4 d = sub4(v, uvec4(before, v.xyz));
            if (e == 0u) {
                d.x = v.x;
            }
            dst4[j] = d;
        } else {
            for (uint q = e; q < n; q++) {
                uint v = src1[q];
                dst1[q] = q == 0u ? v : sub4(uvec4(v), uvec4(before)).x;
                before = v;
            }
        }
    }
}
