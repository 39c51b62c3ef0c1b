#version 450
#extension GL_ARB_gpu_shader_int64 : require
// Transform, clip and set up triangles [first, first+numIn) of a soup
// (3 vertices each; a batch of a larger mesh, or all of it), whose
// primitive ids are primBase, primBase+1, ...; i below is the index in the
// batch. Two passes over the same arithmetic (raster.SetupMesh):
//   EMIT 0: count[i] = set-up triangles that input triangle i becomes
//           (0..7), and the skip statistics;
//   EMIT 1: with offset[i] = the exclusive scan of count, number them
//           offset[i] ... (in fan order): slots[k] is where tris holds
//           set-up triangle k, rows[k] its scanline workload; a triangle
//           that made none returns at once.
// Both passes compute the same integers, so the counts and the writes agree.
// The counting pass over every triangle (CLIP_PASS 0) keeps the one set-up
// triangle of each triangle it did not list for clipping in tris[i], where
// the loops read it, and its emitting pass writes only its slot and rows:
// no transform and set-up again, and no copy of the record (llvmpipe
// stores and loads a record a word and a lane at a time: the copy was most
// of the emitting pass's time). The clipping passes' set-up triangles go
// past the batch's inputs, set-up triangle k at tris[numIn + k].
// Each runs twice. CLIP_PASS 0 takes every triangle and clips none: the
// counting pass puts one that crosses a clipping plane on a list (at
// countOrOffset[numIn + 1 + k], k from stats[4]) and the emitting pass skips
// it; CLIP_PASS 1 takes the stats[4] listed triangles, dispatched in the
// stats[5] work groups the listing counted, and clips them. A SIMD vector of invocations runs every instruction of a branch
// any of its lanes takes (llvmpipe), so the clipper's loops, in a pass of
// their own, cost only the few triangles that cross the view's planes.
// lint: EMIT=1
// lint: EMIT=1 CLIP_PASS=1
// lint: CLIP_PASS=1
// lint: TEXELS=1
// lint: EMIT=1 CLIP_PASS=1 TEXELS=1
// lint: SHADE_RECORDS=1
// lint: SHADE_RECORDS=1 TEXELS=1 CLIP_PASS=1
#ifndef CLIP_PASS
#define CLIP_PASS 0
#endif
#ifndef EMIT
#define EMIT 0
#endif
#ifndef TEXELS
#define TEXELS 0 // 1: the vertices as a buffer texture, 0: a storage block
#endif
#ifndef WG_SIZE
#define WG_SIZE 64
#endif
#ifndef SHADE_RECORDS
#define SHADE_RECORDS 0 // 1: the counting passes store the shading records of the triangles they set up
#endif
#if SHADE_RECORDS && EMIT == 0
#define SHADE_RECORD_STORE 1
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "rasterizer/raster.glsl"
#include "rasterizer/layout.glsl"

#if TEXELS
// The vertices as a buffer texture (setup.go): a vertex is one gather of a
// SIMD vector's lanes rather than three scalar loads a lane (llvmpipe).
layout(binding = UNIT_POSITIONS) uniform samplerBuffer posTexels;
vec3 vertex(uint i) { return texelFetch(posTexels, int(i)).xyz; }
#else
layout(std430, binding = BINDING_POSITIONS) readonly restrict buffer Positions { vec4 pos[]; }; // xyz, w unused
vec3 vertex(uint i) { return pos[i].xyz; }
#endif
#include "rasterizer/shaderecord.glsl"
layout(std430, binding = BINDING_SETUP_COUNTS) restrict buffer Counts { uint countOrOffset[]; };
layout(std430, binding = BINDING_TRIS) restrict buffer Tris { Tri tris[]; };
layout(std430, binding = BINDING_ROWS) writeonly restrict buffer Rows { uint rows[]; };
layout(std430, binding = BINDING_TRI_SLOTS) writeonly restrict buffer Slots { uint slots[]; };
// stats: outside, clipped, non-finite, zero-area (raster.SetupStats); the
// triangles listed for CLIP_PASS 1 and its work groups (x, y, z: the
// indirect dispatch's; y and z start at 1); the set-up triangles whose
// area2 is 2^28 or more (zbuffer.comp's EXACT_DEPTH needs none); those
// that reach past the pixels [boxLo, boxHi) (resolve.go's shadedBox: the
// resolve pass shades only those where none does)
layout(std430, binding = BINDING_SETUP_STATS) restrict buffer Stats { uint stats[10]; };

uniform mat4 mvp;
uniform uint numIn; // the batch's input triangles
#if EMIT == 1
uniform uint numOut; // the set-up triangles of the batch: the counts' sum
#endif
uniform uint first;
uniform uint primBase;
uniform ivec2 size;
uniform vec2 guard;
uniform ivec2 boxLo, boxHi; // pixels

// emit sets up the fan triangle p0, p1, p2 of input triangle i, counts it
// (EMIT 0: zero area in the statistics; the unclipped pass keeps it at
// tris[i]) or makes it set-up triangle at (EMIT 1, the clipping pass: at
// tris[numIn + at]), and says whether it made a set-up triangle.
bool emit(ivec2 p0, ivec2 p1, ivec2 p2, uvec3 z, uint i, uint at) {
    Tri t;
    if (!triSetup(p0, p1, p2, z, primBase + i, size.y, t)) {
#if EMIT == 0
        atomicAdd(stats[3], 1u);
#endif
        return false;
    }
#if EMIT == 0
    if (t.v2a.w != 0 || uint(t.v2a.z) >= (1u << 28)) atomicAdd(stats[8], 1u);
    // A covered pixel x has its centre 256x + 128 between the vertices'
    // least and greatest x (subpixels), so boxLo.x <= x < boxHi.x when
    // those lie within [256 boxLo.x, 256 boxHi.x]; rows are t's own.
    int xmin = min(p0.x, min(p1.x, p2.x)), xmax = max(p0.x, max(p1.x, p2.x));
    if (xmin < boxLo.x * SUBPIXEL || xmax > boxHi.x * SUBPIXEL || t.rows.x < boxLo.y || t.rows.y >= boxHi.y) atomicAdd(stats[9], 1u);
#endif
#if EMIT == 1
    tris[numIn + at] = t;
    slots[at] = numIn + at;
    rows[at] = triRows(t);
#elif !CLIP_PASS
    tris[i] = t;
#endif
    return true;
}

void main() {
    uint g = dpglGlobalIndex();
#if CLIP_PASS
    if (g >= stats[4]) return;
    uint i = countOrOffset[numIn + 1u + g];
#else
    // The zero past the counts, and past the rows, that the exclusive scans
    // turn into their totals.
#if EMIT == 0
    if (g == 0u) countOrOffset[numIn] = 0u;
#else
    if (g == 0u) rows[numOut] = 0u;
#endif
    if (g >= numIn) return;
    uint i = g;
#endif
#if EMIT == 1
    // The counting passes found this triangle's outputs: none (outside the
    // view, not finite, of zero area) leaves nothing to redo.
    uint base = countOrOffset[i];
    if ((i + 1u < numIn ? countOrOffset[i + 1u] : numOut) == base) return;
#if !CLIP_PASS
    // The counting pass's set-up triangle. A triangle listed for clipping
    // left none there, and writes a stale slot and rows into its first
    // place, which the clipping pass, dispatched after this one,
    // overwrites.
    slots[base] = i;
    rows[base] = rowCount(tris[i].rows); // triRows, from the one vector it reads
    return;
#endif
#else
    uint base = 0u;
#endif
    uint v = 3u * (first + i);
    vec3 pos0 = vertex(v), pos1 = vertex(v + 1u), pos2 = vertex(v + 2u);
    vec4 t0 = transformPoint(mvp, pos0);
    vec4 t1 = transformPoint(mvp, pos1);
    vec4 t2 = transformPoint(mvp, pos2);
    uint out_ = 0u;
#if CLIP_PASS
    vec4 poly[MAX_CLIP_VERTICES];
    int n;
    int res = clipTriangle(t0, t1, t2, guard, poly, n);
#if EMIT == 0
    // Listed triangles cross a plane: clipTriangle finds them clipped, or
    // outside after all.
    if (res == CLIP_OUTSIDE) atomicAdd(stats[0], 1u);
    if (res == CLIP_CLIPPED) atomicAdd(stats[1], 1u);
#endif
    if (n >= 3) {
#if SHADE_RECORD_STORE
        storeShadeRecord(primBase + i, pos0, pos1, pos2, t0, t1, t2, v);
#endif
        ivec2 p0;
        uint z0;
        toWindow(poly[0], size, p0, z0);
        for (int k = 1; k + 1 < n; k++) {
            ivec2 p1, p2;
            uint z1, z2;
            toWindow(poly[k], size, p1, z1);
            toWindow(poly[k + 1], size, p2, z2);
            if (emit(p0, p1, p2, uvec3(z0, z1, z2), i, base + out_)) out_++;
        }
    }
#else
    int res = clipClass(t0, t1, t2, guard);
#if EMIT == 0
    if (res == CLIP_OUTSIDE) atomicAdd(stats[0], 1u);
    if (res == CLIP_NONFINITE) atomicAdd(stats[2], 1u);
    if (res == CLIP_CLIPPED) {
        // Counted by CLIP_PASS 1, whose work groups (dispatched
        // indirectly from stats[5]) the lanes that start one count.
        uint k = atomicAdd(stats[4], 1u);
        if (k % uint(WG_SIZE) == 0u) atomicAdd(stats[5], 1u);
        countOrOffset[numIn + 1u + k] = i;
        return;
    }
#endif
    if (res == CLIP_INSIDE) {
#if SHADE_RECORD_STORE
        storeShadeRecord(primBase + i, pos0, pos1, pos2, t0, t1, t2, v);
#endif
        ivec2 p0, p1, p2;
        uint z0, z1, z2;
        toWindow(t0, size, p0, z0);
        toWindow(t1, size, p1, z1);
        toWindow(t2, size, p2, z2);
        if (emit(p0, p1, p2, uvec3(z0, z1, z2), i, base)) out_ = 1u;
    }
#endif
#if EMIT == 0
    countOrOffset[i] = out_;
#endif
}
