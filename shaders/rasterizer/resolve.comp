#version 450
// Resolve: shade each pixel from the triangle that won its depth test (the
// visibility buffer) into RGBA8 (shade.glsl). A mesh of several blocks is
// shaded one block a dispatch: this one holds primitives [primBase,
// primBase + primCount), and leaves the pixels of the others alone; every
// dispatch paints the background.
// lint: WG_SIZE=64
#ifndef WG_SIZE
#define WG_SIZE 64
#endif

layout(local_size_x = 8, local_size_y = WG_SIZE / 8) in;

#include "rasterizer/layout.glsl"
#include "rasterizer/shade.glsl"

layout(std430, binding = BINDING_PRIMS) readonly restrict buffer Prims { uint prims[]; };
layout(std430, binding = BINDING_IMAGE) writeonly restrict buffer Image { uint rgba[]; };

uniform ivec2 size;
uniform uint primBase;      // the block's first primitive id
uniform uint primCount;     // its triangles

const uint NO_PRIMITIVE = 0xffffffffu;

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= size.x || p.y >= size.y) return;
    uint i = uint(p.y * size.x + p.x);
    uint prim = prims[i];
    if (prim == NO_PRIMITIVE) {
        rgba[i] = packUnorm4x8(background);
        return;
    }
    if (prim < primBase || prim - primBase >= primCount) {
        return; // another block's
    }
    rgba[i] = shadePixel(prim - primBase, p, size);
}
