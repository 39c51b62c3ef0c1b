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
//   MERGE 1  (with QUADS; the 32-bit path, zbuffer.comp KEYS): the frame's
//            last batch's winning keys are merged into the depth and id
//            buffers here, as prepare.comp MERGE_KEYS would, and the
//            pixels shaded from the merged ids: one pass over the box
//            instead of two. The winners are left as they are: the next
//            frame's clear fills them.
// lint: WG_SIZE=64
// lint: SHADE_TEXELS=1
// lint: SHADE_RECORDS=1
// lint: SHADE_RECORDS=1 SHADE_TEXELS=1
// lint: QUADS=1 SHADE_RECORDS=1 SHADE_TEXELS=1
// lint: QUADS=1
// lint: QUADS=1 MERGE=1 SHADE_RECORDS=1 SHADE_TEXELS=1
#ifndef WG_SIZE
#define WG_SIZE 64
#endif
#ifndef QUADS
#define QUADS 0
#endif
#ifndef MERGE
#define MERGE 0
#endif

layout(local_size_x = 8, local_size_y = WG_SIZE / 8) in;

#include "rasterizer/layout.glsl"
#include "rasterizer/shade.glsl"

#if MERGE
layout(std430, binding = BINDING_VISIBILITY) restrict buffer Depth4 { uvec4 depth4[]; };
layout(std430, binding = BINDING_PRIMS) restrict buffer Prims4 { uvec4 prims4[]; };
// zbuffer.comp KEYS: per pixel its winner, then its filter; two pixels a
// uvec4.
layout(std430, binding = BINDING_WINNER) readonly restrict buffer Winner4 { uvec4 winner4[]; };
const uint DEPTH_MAX_KEY = 16777215u; // raster.DepthMax
#elif QUADS
layout(std430, binding = BINDING_PRIMS) readonly restrict buffer Prims4 { uvec4 prims4[]; };
#endif
#if QUADS
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

#if MERGE
#include "rasterizer/mergekey.glsl"
#endif

void main() {
#if QUADS
    // Pixels (x, y) ... (x + 3, y), words 4q ... 4q + 3; the one block's
    // ids are all below primCount.
    ivec2 p = origin + ivec2(4 * int(gl_GlobalInvocationID.x), int(gl_GlobalInvocationID.y));
    if (p.x >= size.x || p.y >= size.y) return;
    uint q = uint(p.y * size.x + p.x) >> 2;
#if MERGE
    uvec4 wa = winner4[2u * q], wb = winner4[2u * q + 1u]; // pixels 4q, 4q+1; 4q+2, 4q+3
    uvec4 j = uvec4(wa.x, wa.z, wb.x, wb.z);
    uvec4 id = uvec4(NO_PRIMITIVE);
    if (cleared == 0) {
        id = prims4[q];
    }
    if (any(notEqual(j, uvec4(NO_PRIMITIVE)))) {
        uvec4 d = uvec4(DEPTH_MAX_KEY);
        if (cleared == 0) {
            d = depth4[q];
        }
        for (uint e = 0u; e < 4u; e++) {
            uvec2 k = mergeKey(j[e], uvec2(d[e], id[e]));
            d[e] = k.x;
            id[e] = k.y;
        }
        depth4[q] = d;
        prims4[q] = id;
    }
#else
    uvec4 id = prims4[q];
#endif
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
