#version 450
// transform: dst[i] = OUT_TYPE(EXPR) for x = src[i] of TYPE at index i
// (types as elem.glsl's TYPE: 0 uint, 1 int, 2 float). EXPR is the user's
// GLSL expression, the one piece of the source that package scan does not
// write. Each invocation reads its element before writing it, so dst may be
// src.
//
// lint: EXPR=x*2.0+1.0 TYPE=2 OUT_TYPE=2
// lint: EXPR=x>>3u TYPE=0 OUT_TYPE=1

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef OUT_TYPE
#define OUT_TYPE 0
#endif
#ifndef EXPR
#define EXPR x
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

layout(std430, binding = 0) readonly buffer Src { uint src[]; };
layout(std430, binding = 1) writeonly buffer Dst { uint dst[]; };

U transformOf(T x, uint i) {
    return U(EXPR);
}

void main() {
    uint i = dpglGlobalIndex();
    if (i >= n) {
        return;
    }
    dst[i] = outBits(transformOf(fromBits(src[i]), i));
}
