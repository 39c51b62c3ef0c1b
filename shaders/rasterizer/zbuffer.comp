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
//            atomics): the one-pass path with a lock-free stand-in for
//            atomicMin (visMin below).
// A large mesh is drawn in batches into the same buffers (the renderer's
// Render): the buffers then hold the earlier batches' winners, and every
// rule above keeps the least (depth, id) of all batches.
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
#include "rasterizer/layout.glsl"
#define BALANCER_PROBLEM uint
#include "balancer/loop.glsl"
#include "rasterizer/raster.glsl"

layout(std430, binding = BINDING_SPANS) readonly restrict buffer Spans { Span spans[]; };
layout(std430, binding = BINDING_TRIS) readonly restrict buffer Tris { Tri tris[]; };
#if VIS64 && VIS64_EMULATE
// The stand-in for 64-bit atomicMin keeps, per pixel, the set-up triangle
// (an index into tris, NO_PRIMITIVE for none) whose (depth, primitive id)
// is the least of this batch so far: one 32-bit word holds the whole 64-bit
// key, since the triangle gives both halves back (triDepth at the pixel,
// its id). A test that beats the winner swaps itself in with
// atomicCompSwap; a swap fails only because another test installed a
// smaller key meanwhile, so a lane retries at most once per test that beats
// it at its pixel, and never waits for another invocation to finish. (A
// lock that waiting lanes spin on is unsound here: when the holder's thread
// is descheduled, llvmpipe ends the spinning loop after 65,535 iterations
// and the depth test is lost.) prepare.comp STEP 4 merges the winners into
// the packed 64-bit buffer after the batch.
layout(std430, binding = BINDING_WINNER) restrict buffer Winner { uint winner[]; };

void visMin(uint pix, uint d, uint id, uint self, int x, int y) {
    uint cur = winner[pix]; // a guess: the swap checks it
    for (;;) {
        if (cur != NO_PRIMITIVE) {
            Tri w = tris[cur];
            uint wd = triDepth(w, x, y);
            if (!(d < wd || (d == wd && id < w.z.w))) {
                return;
            }
        }
        uint seen = atomicCompSwap(winner[pix], cur, self);
        if (seen == cur) {
            return;
        }
        cur = seen;
    }
}
#elif VIS64
layout(std430, binding = BINDING_VISIBILITY) restrict buffer Vis { uint64_t vis[]; };
#else
layout(std430, binding = BINDING_VISIBILITY) restrict buffer Depth { uint depthBuf[]; };
layout(std430, binding = BINDING_PRIMS) restrict buffer Prim { uint primBuf[]; };
#endif

uniform int width;
#if !VIS64 && PASS == 1
uniform int laterBatch; // 1 when earlier batches of the frame left ids
#endif

void balancerSolve(uint processor, uint span, uint task) {
    Span s = spans[span];
    int x = s.x0 + int(task);
    Tri t = tris[s.tri];
    uint d = triDepth(t, x, s.y);
    uint pix = uint(s.y * width + x);
#if VIS64 && VIS64_EMULATE
    visMin(pix, d, t.z.w, uint(s.tri), x, s.y);
#elif VIS64
    atomicMin(vis[pix], (uint64_t(d) << 32) | uint64_t(t.z.w));
#elif PASS == 1
    // A nearer depth makes the id that an earlier batch left here stale:
    // clear it for PASS 2 (every writer stores the same value). The first
    // batch finds every id cleared already.
    if (atomicMin(depthBuf[pix], d) > d && laterBatch != 0) {
        primBuf[pix] = NO_PRIMITIVE;
    }
#else
    if (depthBuf[pix] == d) atomicMin(primBuf[pix], t.z.w);
#endif
}
