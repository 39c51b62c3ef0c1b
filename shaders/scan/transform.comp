#version 450
// transform: dst[i] = OUT_TYPE(EXPR) for x = src[i] of TYPE at index i
// (types as elem.glsl's TYPE: 0 uint, 1 int, 2 float). EXPR is the user's
// GLSL expression, the one piece of the source that package scan does not
// write. Each invocation moves ITEMS 16-byte vectors strided by the group
// size (as the copy kernel does), and reads each before writing it, so dst
// may be src. Both arrays are bound twice, as vectors and as scalars for
// the last, partial vector (see load.glsl).
//
// lint: EXPR=x*2.0+1.0 TYPE=2 OUT_TYPE=2
// lint: EXPR=x>>3u TYPE=0 OUT_TYPE=1 ITEMS=2

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef OUT_TYPE
#define OUT_TYPE 0
#endif
#ifndef EXPR
#define EXPR x
#endif
#ifndef ITEMS
#define ITEMS 4
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "elem.glsl"

#if OUT_TYPE == 0
#define U uint
uint outBits(U v) { return v; }
#elif OUT_TYPE == 1
#define U int
uint outBits(U v) { return uint(v); }
#else
#define U float
uint outBits(U v) { return floatBitsToUint(v); }
#endif

uniform uint n;

layout(std430, binding = 0) readonly buffer SrcVec { uvec4 src4[]; };
layout(std430, binding = 1) readonly buffer SrcOne { uint src1[]; };
layout(std430, binding = 2) writeonly buffer DstVec { uvec4 dst4[]; };
layout(std430, binding = 3) writeonly buffer DstOne { uint dst1[]; };

U transformOf(T x, uint i) {
    return U(EXPR);
}

uint map1(uint b, uint i) {
    return outBits(transformOf(fromBits(b), i));
}

void main() {
    uint base = dpglGroupIndex() * uint(WG_SIZE * ITEMS) + gl_LocalInvocationID.x;
    for (uint k = 0u; k < uint(ITEMS); k++) {
        uint j = base + k * uint(WG_SIZE);
        uint e = 4u * j;
        if (e + 3u < n) {
            uvec4 v = src4[j];
            dst4[j] = uvec4(map1(v.x, e), map1(v.y, e + 1u), map1(v.z, e + 2u), map1(v.w, e + 3u));
        } else {
            for (uint q = e; q < n && q < e + 4u; q++) {
                dst1[q] = map1(src1[q], q);
            }
        }
    }
}
