#version 450
#extension GL_ARB_gpu_shader_int64 : require
#if VIS64
#extension GL_NV_shader_atomic_int64 : require
#endif
// The z-buffer loop's solution phase (balancer loop): problem data is a
// span (its index), one task is one pixel of it; solving it is the depth
// test into the visibility buffer, where the nearest surface wins and ties
// go to the lowest primitive id, whatever the order of the tests:
//   VIS64 1: one pass, atomicMin on (depth << 32 | primitive id), where the
//            driver has 64-bit atomics;
//   VIS64 0: two passes of the same loop: PASS 1 takes atomicMin of the
//            depth, PASS 2 atomicMin of the primitive id among the tests
//            whose depth equals the minimum.
// lint: PASS=2
// lint: VIS64=1
#ifndef VIS64
#define VIS64 0
#endif
#ifndef PASS
#define PASS 1
#endif
#ifndef WG_SIZE
#define WG_SIZE 64
#endif

layout(local_size_x = WG_SIZE) in;
#define BALANCER_PROBLEM uint
#include "balancer/loop.glsl"
#include "rasterizer/raster.glsl"

layout(std430, binding = 3) readonly restrict buffer Spans { ivec4 spans[]; };
layout(std430, binding = 4) readonly restrict buffer Tris { Tri tris[]; };
#if VIS64
layout(std430, binding = 5) restrict buffer Vis { uint64_t vis[]; };
#else
layout(std430, binding = 5) restrict buffer Depth { uint depthBuf[]; };
layout(std430, binding = 6) restrict buffer Prim { uint primBuf[]; };
#endif

uniform int width;

void balancerSolve(uint processor, uint span, uint task) {
    ivec4 s = spans[span];
    int x = s.y + int(task);
    Tri t = tris[s.w];
    uint d = triDepth(t, x, s.x);
    uint pix = uint(s.x * width + x);
#if VIS64
    atomicMin(vis[pix], (uint64_t(d) << 32) | uint64_t(t.z.w));
#elif PASS == 1
    atomicMin(depthBuf[pix], d);
#else
    if (depthBuf[pix] == d) atomicMin(primBuf[pix], t.z.w);
#endif
}
