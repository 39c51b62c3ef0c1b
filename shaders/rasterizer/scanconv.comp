#version 450
#extension GL_ARB_gpu_shader_int64 : require
// The scan-conversion loop's solution phase (balancer loop): problem data is
// a set-up triangle, one task is one scanline it covers; solving it writes
// the span (y, first x, last x, triangle) at the triangle's own place in the
// span array, so the spans come out in one order whatever processor solved
// them (an empty row gives x1 < x0).
// lint: WG_SIZE=128
// lint: TEXELS=1
// lint: TEXELS=1 BALANCER_ONE_PER_LANE=1
#ifndef WG_SIZE
#define WG_SIZE 64
#endif
#ifndef TEXELS
#define TEXELS 0 // 1: read the set-up triangles as a buffer texture
#endif

layout(local_size_x = WG_SIZE) in;

#include "include/common.glsl"
#include "rasterizer/layout.glsl"
#include "rasterizer/raster.glsl"

// ScanState is what a triangle's rows share (balancerBegin): the loop
// solves a processor's tasks of a dispatch from it, loading the triangle
// and working out its edges' constants once.
struct ScanState {
    SpanEdges se;
    int y0;        // the triangle's first row
    uint spanBase; // its first span
    int tri;
};
#define BALANCER_STATE ScanState
#define BALANCER_PROBLEM uvec2 // ScanProblem's words (layout.glsl)
#include "balancer/loop.glsl"

#if TEXELS
// The set-up triangles as a buffer texture of four texels each
// (scanconv.go): llvmpipe fetches a texel for a SIMD vector's lanes with
// one gather, where a storage block's load with lanes' own addresses is a
// scalar access per lane and word.
layout(binding = UNIT_TRIS) uniform isamplerBuffer triTexels;
Tri triOf(uint t) {
    int k = 4 * int(t);
    Tri r;
    r.v01 = texelFetch(triTexels, k);
    r.v2a = texelFetch(triTexels, k + 1);
    r.z = uvec4(0u); // the scan conversion needs no depths
    r.rows = texelFetch(triTexels, k + 3);
    return r;
}
#else
layout(std430, binding = BINDING_TRIS) readonly restrict buffer Tris { Tri tris[]; };
Tri triOf(uint t) { return tris[t]; }
#endif
layout(std430, binding = BINDING_SPANS) writeonly restrict buffer Spans { ivec4 spans[]; }; // Span's words

uniform int width;

ScanState balancerBegin(uint processor, uvec2 words) {
    ScanProblem pr = ScanProblem(words.x, words.y);
    Tri t = triOf(pr.tri);
    return ScanState(spanEdges(t), t.rows.x, pr.spanBase, int(pr.tri));
}

void balancerSolveIn(ScanState st, uint task) {
    int y = st.y0 + int(task);
    ivec2 xs = spanAt(st.se, y, width);
    spans[st.spanBase + task] = spanWords(Span(y, xs.x, xs.y, st.tri));
}

void balancerSolve(uint processor, uvec2 pr, uint task) {
    balancerSolveIn(balancerBegin(processor, pr), task);
}
