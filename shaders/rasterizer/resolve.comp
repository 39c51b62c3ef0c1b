#version 450
// Resolve: shade each pixel from the triangle that won its depth test (the
// visibility buffer) into RGBA8 (shade.glsl). A mesh of several blocks is
// shaded one block a dispatch: this one holds primitives [primBase,
// primBase + primCount), and leaves the pixels of the others alone; every
// dispatch paints the background.
//   QUADS 1 (a mesh of one block, an image width that is a multiple of 4):
//            an invocation shades four pixels of a row, their ids loaded
//            and their colours stored as one vector (llvmpipe loads and
//            stores a vector for a lane about as fast as a word).
// lint: WG_SIZE=64
// lint: SHADE_TEXELS=1
// lint: SHADE_RECORDS=1
// lint: SHADE_RECORDS=1 SHADE_TEXELS=1
// lint: QUADS=1 SHADE_RECORDS=1 SHADE_TEXELS=1
// lint: QUADS=1
#ifndef WG_SIZE
#define WG_SIZE 64
#endif
#ifndef QUADS
#define QUADS 0
#endif

layout(local_size_x = 8, local_size_y = WG_SIZE / 8) in;

#include "rasterizer/layout.glsl"
#include "rasterizer/shade.glsl"

#if QUADS
layout(std430, binding = BINDING_PRIMS) readonly restrict buffer Prims4 { uvec4 prims4[]; };
layout(std430, binding = BINDING_IMAGE) writeonly restrict buffer Image4 { uvec4 rgba4[]; };
#else
layout(std430, binding = BINDING_PRIMS) readonly restrict buffer Prims { uint prims[]; };
layout(std430, binding = BINDING_IMAGE) writeonly restrict buffer Image { uint rgba[]; };
#endif

uniform ivec2 size;
// The dispatch covers the pixels from origin (a multiple of 4 in x with
// QUADS): the box that the mesh's bounds project to (resolve.go); the
// caller paints the background outside it.
uniform ivec2 origin;
uniform uint primBase;      // the block's first primitive id
uniform uint primCount;     // its triangles

const uint NO_PRIMITIVE = 0xffffffffu;

void main() {
#if QUADS
    // Pixels (x, y) ... (x + 3, y), words 4q ... 4q + 3; the one block's
    // ids are all below primCount.
    ivec2 p = origin + ivec2(4 * int(gl_GlobalInvocationID.x), int(gl_GlobalInvocationID.y));
    if (p.x >= size.x || p.y >= size.y) return;
    uint q = uint(p.y * size.x + p.x) >> 2;
    uvec4 id = prims4[q];
    uint bg = packUnorm4x8(background);
#define SHADED(k) (id[k] == NO_PRIMITIVE ? bg : shadePixel(id[k], id[k], p + ivec2(k, 0), size))
    rgba4[q] = uvec4(SHADED(0), SHADED(1), SHADED(2), SHADED(3));
#undef SHADED
#else
    ivec2 p = origin + ivec2(gl_GlobalInvocationID.xy);
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
#endif
}
