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

#include "rasterizer/layout.glsl"
#define BALANCER_PROBLEM ScanProblem
#include "balancer/loop.glsl"
#include "rasterizer/raster.glsl"

layout(std430, binding = BINDING_TRIS) readonly restrict buffer Tris { Tri tris[]; };
layout(std430, binding = BINDING_SPANS) writeonly restrict buffer Spans { Span spans[]; };

uniform int width;

void balancerSolve(uint processor, ScanProblem pr, uint task) {
    Tri t = tris[pr.tri];
    int y = t.rows.x + int(task);
    ivec2 xs = triSpan(t, y, width);
    spans[pr.spanBase + task] = Span(y, xs.x, xs.y, int(pr.tri));
}
