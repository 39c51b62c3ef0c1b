#version 450
#extension GL_ARB_gpu_shader_int64 : require
// The scan-conversion loop's solution phase (balancer loop): problem data is
// a set-up triangle, one task is one scanline it covers; solving it writes
// the span (y, first x, last x, triangle) at the triangle's own place in the
// span array, so the spans come out in one order whatever processor solved
// them (an empty row gives x1 < x0).
// lint: WG_SIZE=128
#ifndef WG_SIZE
#define WG_SIZE 64
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

layout(std430, binding = BINDING_TRIS) readonly restrict buffer Tris { Tri tris[]; };
layout(std430, binding = BINDING_SPANS) writeonly restrict buffer Spans { ivec4 spans[]; }; // Span's words

uniform int width;

ScanState balancerBegin(uint processor, uvec2 words) {
    ScanProblem pr = ScanProblem(words.x, words.y);
    Tri t = tris[pr.tri];
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
