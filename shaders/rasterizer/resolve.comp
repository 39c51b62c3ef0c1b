#version 450
// Resolve: shade each pixel from the triangle that won its depth test (the
// visibility buffer) into RGBA8 (shade.glsl). A mesh of several blocks is
// shaded one block a dispatch: this one holds primitives [primBase,
// primBase + primCount), and leaves the pixels of the others alone; every
// dispatch paints the background.
// lint: WG_SIZE=64
// lint: SHADE_TEXELS=1
// lint: SHADE_RECORDS=1
// lint: SHADE_RECORDS=1 SHADE_TEXELS=1
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
    // One store for the background and a shaded pixel: llvmpipe runs both
    // sides of an if for every vector of invocations, its stores too, a
    // loop over the lanes each.
    bool empty = prim == NO_PRIMITIVE;
    bool mine = !empty && prim >= primBase && prim - primBase < primCount; // else another block's
    uint colour = packUnorm4x8(background);
    if (mine) {
        colour = shadePixel(prim - primBase, prim, p, size);
    }
    if (mine || empty) {
        rgba[i] = colour;
    }
}
