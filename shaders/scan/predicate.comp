#version 450
// predicate: flags[i] = 1 where PRED_EXPR holds for x = src[i] (of TYPE,
// elem.glsl) at index i, else 0; with FROM_FLAGS, flags[i] = (src[i] != 0)
// instead, turning any nonzero flags into the 0/1 that an add-scan counts.
// PRED_EXPR is the user's GLSL expression, the one piece of the source
// that package scan does not write; it sees x and i and is converted to
// bool.
//
// lint: PRED_EXPR=x>0.5 TYPE=2
// lint: FROM_FLAGS=1

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef FROM_FLAGS
#define FROM_FLAGS 0
#endif
#ifndef PRED_EXPR
#define PRED_EXPR x != T(0)
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "elem.glsl"

uniform uint n;

layout(std430, binding = 0) readonly buffer Src { uint src[]; };
layout(std430, binding = 1) writeonly buffer Flags { uint flags[]; };

#if !FROM_FLAGS
bool pred(T x, uint i) {
    return bool(PRED_EXPR);
}
#endif

void main() {
    uint i = dpglGlobalIndex();
    if (i >= n) {
        return;
    }
#if FROM_FLAGS
    flags[i] = uint(src[i] != 0u);
#else
    flags[i] = uint(pred(fromBits(src[i]), i));
#endif
}
