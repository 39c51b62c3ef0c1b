#version 450
// threeway: each element's part, from the user's two predicates PRED1 and
// PRED2 over x = src[i] (TYPE of elem.glsl) and i, as three 0/1 flag
// arrays: first[i] where PRED1 holds, second[i] where it does not but
// PRED2 does, third[i] where neither holds. The predicates are evaluated
// once here and the parts' compactions read integer flags, so that every
// element lands in exactly one part however the driver rewrites the
// comparisons (Mesa may turn !(x < c) into x >= c, which differs for NaN).
//
// lint: TYPE=2 PRED1=x<0.0 PRED2=isnan(x)

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef PRED1
#define PRED1 true
#endif
#ifndef PRED2
#define PRED2 true
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "elem.glsl"

uniform uint n;

layout(std430, binding = 0) readonly buffer Src { uint src[]; };
layout(std430, binding = 1) writeonly buffer First { uint first[]; };
layout(std430, binding = 2) writeonly buffer Second { uint second[]; };
layout(std430, binding = 3) writeonly buffer Third { uint third[]; };

bool pred1(T x, uint i) {
    return bool(PRED1);
}

bool pred2(T x, uint i) {
    return bool(PRED2);
}

void main() {
    uint i = dpglGlobalIndex();
    if (i >= n) {
        return;
    }
    T x = fromBits(src[i]);
    uint part = pred1(x, i) ? 0u : pred2(x, i) ? 1u : 2u;
    first[i] = part == 0u ? 1u : 0u;
    second[i] = part == 1u ? 1u : 0u;
    third[i] = part == 2u ? 1u : 0u;
}
