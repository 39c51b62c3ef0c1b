#version 450
#extension GL_ARB_gpu_shader_int64 : require
// Transform, clip and set up triangles [first, first+numTris) of a soup
// (3 vertices each; a batch of a larger mesh, or all of it), whose
// primitive ids are primBase, primBase+1, ...; i below is the index in the
// batch. Two passes over the same arithmetic (raster.SetupMesh):
//   EMIT 0: count[i] = set-up triangles that input triangle i becomes
//           (0..7), and the skip statistics;
//   EMIT 1: with offset[i] = the exclusive scan of count, write them to
//           tris[offset[i] ...] (in fan order) and their scanline workload;
//           a triangle that made none returns at once.
// Both passes compute the same integers, so the counts and the writes agree.
// lint: EMIT=1
#ifndef EMIT
#define EMIT 0
#endif
#ifndef WG_SIZE
#define WG_SIZE 64
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "rasterizer/raster.glsl"
#include "rasterizer/layout.glsl"

layout(std430, binding = BINDING_POSITIONS) readonly restrict buffer Positions { vec4 pos[]; }; // xyz, w unused
layout(std430, binding = BINDING_SETUP_COUNTS) restrict buffer Counts { uint countOrOffset[]; };
layout(std430, binding = BINDING_TRIS) writeonly restrict buffer Tris { Tri tris[]; };
layout(std430, binding = BINDING_ROWS) writeonly restrict buffer Rows { uint rows[]; };
// stats: outside, clipped, non-finite, zero-area (raster.SetupStats)
layout(std430, binding = BINDING_SETUP_STATS) restrict buffer Stats { uint stats[4]; };

uniform mat4 mvp;
uniform uint numTris;
#if EMIT == 1
uniform uint numOut; // the set-up triangles of the batch: the counts' sum
#endif
uniform uint first;
uniform uint primBase;
uniform ivec2 size;
uniform vec2 guard;

void main() {
    uint i = dpglGlobalIndex();
    if (i >= numTris) return;
#if EMIT == 1
    // The counting pass found this triangle's outputs: none (outside the
    // view, not finite, of zero area) leaves nothing to redo.
    uint base = countOrOffset[i];
    if ((i + 1u < numTris ? countOrOffset[i + 1u] : numOut) == base) return;
#endif
    uint v = 3u * (first + i);
    vec4 t0 = transformPoint(mvp, pos[v].xyz);
    vec4 t1 = transformPoint(mvp, pos[v + 1u].xyz);
    vec4 t2 = transformPoint(mvp, pos[v + 2u].xyz);
    vec4 poly[MAX_CLIP_VERTICES];
    int n;
    int res = clipTriangle(t0, t1, t2, guard, poly, n);
#if EMIT == 0
    if (res == CLIP_OUTSIDE) atomicAdd(stats[0], 1u);
    if (res == CLIP_CLIPPED) atomicAdd(stats[1], 1u);
    if (res == CLIP_NONFINITE) atomicAdd(stats[2], 1u);
#endif
    uint out_ = 0u;
    if (n >= 3) {
        ivec2 p0;
        uint z0;
        toWindow(poly[0], size, p0, z0);
        for (int k = 1; k + 1 < n; k++) {
            ivec2 p1, p2;
            uint z1, z2;
            toWindow(poly[k], size, p1, z1);
            toWindow(poly[k + 1], size, p2, z2);
            Tri t;
            if (!triSetup(p0, p1, p2, uvec3(z0, z1, z2), primBase + i, size.y, t)) {
#if EMIT == 0
                atomicAdd(stats[3], 1u);
#endif
                continue;
            }
#if EMIT == 1
            tris[base + out_] = t;
            rows[base + out_] = triRows(t);
#endif
            out_++;
        }
    }
#if EMIT == 0
    countOrOffset[i] = out_;
#endif
}
