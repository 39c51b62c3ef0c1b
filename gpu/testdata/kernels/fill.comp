#version 450
// A user's kernel: its own header beside it, dpgl's flat index from
// include/common.glsl. dst[i] = i * stride + offset for i < n.
layout(local_size_x = 1) in;
#include "include/common.glsl"
#include "mine/affine.glsl"

layout(std430, binding = 0) writeonly buffer Dst { uint dst[]; };
uniform uint n;

void main() {
    uint i = dpglGlobalIndex();
    if (i >= n) {
        return;
    }
    dst[i] = affine(i);
}
