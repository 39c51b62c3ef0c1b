#version 450
// predicate: flags[i] = 1 where PRED_EXPR holds for x = src[i] (of TYPE,
// elem.glsl) at index i, else 0; with FROM_FLAGS, flags[i] = (src[i] != 0)
// instead, turning any nonzero flags into the 0/1 that an add-scan counts.
// PRED_EXPR is the user's GLSL expression, the one piece of the source
// that package scan does not write; it sees x and i and is converted to
// bool. Each invocation maps ITEMS 16-byte vectors strided by the group
// size; both arrays are bound twice, as vectors and as scalars for the
// last, partial vector (see load.glsl).
//
// lint: PRED_EXPR=x>0.5 TYPE=2
// lint: FROM_FLAGS=1 ITEMS=1

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef FROM_FLAGS
#define FROM_FLAGS 0
#endif
#ifndef PRED_EXPR
#define PRED_EXPR x != T(0)
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
layout(std430, binding = 2) writeonly buffer FlagsVec { uvec4 flags4[]; };
layout(std430, binding = 3) writeonly buffer FlagsOne { uint flags1[]; };

#if FROM_FLAGS
uint flagOf(uint b, uint i) {
    return uint(b != 0u);
}
#else
bool pred(T x, uint i) {
    return bool(PRED_EXPR);
}

uint flagOf(uint b, uint i) {
    return uint(pred(fromBits(b), i));
}
#endif

void main() {
    uint base = dpglGroupIndex() * uint(WG_SIZE * ITEMS) + gl_LocalInvocationID.x;
    for (uint k = 0u; k < uint(ITEMS); k++) {
        uint j = base + k * uint(WG_SIZE);
        uint e = 4u * j;
        if (e + 3u < n) {
            uvec4 v = src4[j];
            flags4[j] = uvec4(flagOf(v.x, e), flagOf(v.y, e + 1u), flagOf(v.z, e + 2u), flagOf(v.w, e + 3u));
        } else {
            for (uint q = e; q < n && q < e + 4u; q++) {
                flags1[q] = flagOf(src1[q], q);
            }
        }
    }
}
