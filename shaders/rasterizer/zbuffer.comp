#version 450
#extension GL_ARB_gpu_shader_int64 : require
#if VIS64 && !VIS64_EMULATE
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
//   VIS64_EMULATE (with VIS64, for tests on drivers without 64-bit
//            atomics): the one-pass path with a stand-in for atomicMin.
// lint: PASS=2
// lint: VIS64=1
// lint: VIS64=1 VIS64_EMULATE=1
#ifndef VIS64
#define VIS64 0
#endif
#ifndef VIS64_EMULATE
#define VIS64_EMULATE 0
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
#if VIS64 && VIS64_EMULATE
// The 64-bit word of pixel p as the uint64_t layout stores it: the
// primitive id in word 2p, the depth in word 2p+1. 24-bit depths leave bit
// 31 of the depth word free for a lock. A lane takes the lock, updates and
// releases it within one pass of the loop, so lanes that run in lockstep
// never wait on each other.
layout(std430, binding = 5) restrict buffer Vis { uint visWords[]; };
const uint VIS_LOCK = 0x80000000u;

void visMin(uint pix, uint d, uint id) {
    for (;;) {
        uint hi = atomicOr(visWords[2u * pix + 1u], VIS_LOCK);
        if ((hi & VIS_LOCK) == 0u) {
            uint lo = atomicOr(visWords[2u * pix], 0u);
            if (d < hi || (d == hi && id < lo)) {
                atomicExchange(visWords[2u * pix], id);
                memoryBarrierBuffer();
                atomicExchange(visWords[2u * pix + 1u], d); // and unlock
            } else {
                atomicAnd(visWords[2u * pix + 1u], ~VIS_LOCK);
            }
            break;
        }
    }
}
#elif VIS64
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
#if VIS64 && VIS64_EMULATE
    visMin(pix, d, t.z.w);
#elif VIS64
    atomicMin(vis[pix], (uint64_t(d) << 32) | uint64_t(t.z.w));
#elif PASS == 1
    atomicMin(depthBuf[pix], d);
#else
    if (depthBuf[pix] == d) atomicMin(primBuf[pix], t.z.w);
#endif
}
