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
//   VIS64 0, KEYS 1: one pass in 32-bit atomics: a depth filter (a test
//            that finds a nearer depth there has lost),
//            and for the tests that pass it, their key (depth, primitive
//            id) stored in the batch's slot of the test, and that slot
//            swapped into the pixel's winner while the key beats the
//            winner's (keysMin below); prepare.comp MERGE_KEYS then takes
//            the winners' keys into the depth and id buffers;
//   VIS64 0, KEYS 0: two passes of the same loop: PASS 1 takes atomicMin
//            of the depth, PASS 2 atomicMin of the primitive id among the
//            tests whose depth equals the minimum (the renderer's fallback
//            for a batch whose tests' keys outgrow a storage block).
//   VIS64_EMULATE (with VIS64, for tests on drivers without 64-bit
//            atomics): the one-pass path with a lock-free stand-in for
//            atomicMin (visMin below).
// A large mesh is drawn in batches into the same buffers (the renderer's
// Render): the buffers then hold the earlier batches' winners, and every
// rule above keeps the least (depth, id) of all batches.
// lint: PASS=2
// lint: KEYS=1
// lint: VIS64=1
// lint: VIS64=1 VIS64_EMULATE=1
// lint: KEYS=1 TEXELS=1
// lint: KEYS=1 TEXELS=1 EXACT_DEPTH=1
// lint: VIS64=1 EXACT_DEPTH=1
// lint: KEYS=1 TEXELS=1 EXACT_DEPTH=1 BALANCER_ONE_PER_LANE=1
// lint: PASS=2 BALANCER_ONE_PER_LANE=1
#ifndef VIS64
#define VIS64 0
#endif
#ifndef VIS64_EMULATE
#define VIS64_EMULATE 0
#endif
#ifndef PASS
#define PASS 1
#endif
#ifndef KEYS
#define KEYS 0
#endif
#ifndef TEXELS
#define TEXELS 0 // 1: read the spans and triangles as buffer textures
#endif
#ifndef EXACT_DEPTH
// 1: every set-up triangle of the batch has area2 below 2^28 (setup.comp
// counts those that do not), and a pixel's depth is worked out in doubles
// (raster.glsl's rowDepthExactAt: the same depth, exactly, in a chain of
// short operations); 0: in 64-bit integers (rowDepthAt).
#define EXACT_DEPTH 0
#endif
#ifndef WG_SIZE
#define WG_SIZE 64
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "rasterizer/layout.glsl"
#include "rasterizer/raster.glsl"

// ZState is what a span's pixels share (balancerBegin): the loop solves a
// processor's tasks of a dispatch from it, loading the span and its
// triangle and working out the depth's row constants once.
struct ZState {
#if EXACT_DEPTH
    RowDepthExact rd;
#else
    RowDepth rd;
#endif
    int x0, y;
    uint rowBase; // y * width
    uint tri;     // index into tris
    uint id;      // primitive id
    uint j0;      // KEYS: the span's first test's slot
};
#define BALANCER_STATE ZState
#define BALANCER_PROBLEM uint
#include "balancer/loop.glsl"

layout(std430, binding = BINDING_SPANS) readonly restrict buffer Spans { ivec4 spans[]; }; // Span's words
layout(std430, binding = BINDING_TRIS) readonly restrict buffer Tris { Tri tris[]; };
#if TEXELS
// A span and its triangle's words as buffer textures (zbuffer.go): llvmpipe
// fetches a texel for a SIMD vector's lanes with one gather, where a
// storage block's load with lanes' own addresses is a scalar access per
// lane and word.
layout(binding = UNIT_SPANS) uniform isamplerBuffer spanTexels;
layout(binding = UNIT_TRIS) uniform isamplerBuffer triTexels;
ivec4 spanWordsOf(uint s) { return texelFetch(spanTexels, int(s)); }
Tri triOf(uint t) {
    int k = 4 * int(t);
    Tri r;
    r.v01 = texelFetch(triTexels, k);
    r.v2a = texelFetch(triTexels, k + 1);
    r.z = uvec4(texelFetch(triTexels, k + 2));
    r.rows = ivec4(0); // the z-buffer needs no rows
    return r;
}
#else
ivec4 spanWordsOf(uint s) { return spans[s]; }
Tri triOf(uint t) { return tris[t]; }
#endif
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
#elif KEYS
// winner[2p]: the batch's winning test at pixel p (its slot, NO_PRIMITIVE
// for none); winner[2p + 1]: the filter, a depth tested at p in the frame
// so far (about the least; 0xffffffff, above every depth, before any, so
// that the cleared pairs are one word repeated); winnerPairs[p]: both, in
// one access.
// zkeys[s], s < keyBase: span s's first test's slot (the exclusive scan of
// the spans' lengths); zkeys[keyBase + 2j], zkeys[keyBase + 2j + 1] (keyBase
// even): test j's depth and primitive id, written by the test before it
// offers slot j as the winner.
// coherent: a lane reads the keys other invocations wrote in this dispatch.
layout(std430, binding = BINDING_WINNER) coherent buffer Winner { uint winner[]; };
layout(std430, binding = BINDING_WINNER) coherent buffer WinnerPairs { uvec2 winnerPairs[]; };
// The same words as uvec2s (keyBase is even): a key in one access (llvmpipe
// accesses a buffer a lane at a time, a vector for about a word's price).
layout(std430, binding = BINDING_Z_KEYS) coherent buffer ZKeys { uint zkeys[]; };
layout(std430, binding = BINDING_Z_KEYS) coherent buffer ZKeyPairs { uvec2 zkeyPairs[]; };
uniform uint keyBase;

// keysMin makes test j of key (d, id) the winner at pixel pix if its key
// is the least offered there: the key of every slot a winner holds is
// written before the slot is offered, so a lane compares with the current
// winner's key and swaps itself in with atomicCompSwap, which fails only
// because another test installed a smaller key meanwhile; a lane retries
// at most once per test that beats it at its pixel and never waits for
// another invocation (a spin lock is unsound on llvmpipe: see VIS64_EMULATE).
// The filter lets through every test at the pixel's least depth, the
// pixel's final winner among them, so the least key of the batch is
// offered.
void keysMin(uint pix, uint d, uint id, uint j) {
    // The filter needs no atomics: every value it ever holds is some
    // test's depth (or the cleared 0xffffffff), never below the pixel's
    // least, so a stale read or a lost store only lets more tests through.
    uvec2 wf = winnerPairs[pix];
    uint f = wf.y;
    if (f < d) {
        return; // a nearer surface is drawn here
    }
    if (f > d) {
        winner[2u * pix + 1u] = d;
    }
    uint pairs = keyBase / 2u; // test j's key is pair pairs + j
    zkeyPairs[pairs + j] = uvec2(d, id);
    memoryBarrierBuffer();
    uint cur = wf.x; // a guess: the swap checks it
    for (;;) {
        if (cur != NO_PRIMITIVE) {
            uvec2 wk = zkeyPairs[pairs + cur];
            uint wd = wk.x, wid = wk.y;
            if (!(d < wd || (d == wd && id < wid))) {
                return;
            }
        }
        uint seen = atomicCompSwap(winner[2u * pix], cur, j);
        if (seen == cur) {
            return;
        }
        cur = seen;
    }
}
#else
layout(std430, binding = BINDING_VISIBILITY) restrict buffer Depth { uint depthBuf[]; };
layout(std430, binding = BINDING_PRIMS) restrict buffer Prim { uint primBuf[]; };
#endif

uniform int width;
#if !VIS64 && !KEYS && PASS == 1
uniform int laterBatch; // 1 when earlier batches of the frame left ids
#endif

ZState balancerBegin(uint processor, uint span) {
    Span s = spanOf(spanWordsOf(span));
    Tri t = triOf(uint(s.tri));
    ZState z;
#if EXACT_DEPTH
    z.rd = rowDepthExact(t, s.y);
#else
    z.rd = rowDepth(t, s.y);
#endif
    z.x0 = s.x0;
    z.y = s.y;
    z.rowBase = uint(s.y * width);
    z.tri = uint(s.tri);
    z.id = t.z.w;
#if !VIS64 && KEYS
    z.j0 = zkeys[span];
#else
    z.j0 = 0u;
#endif
    return z;
}

void balancerSolveIn(ZState z, uint task) {
    int x = z.x0 + int(task);
#if EXACT_DEPTH
    uint d = rowDepthExactAt(z.rd, x);
#else
    uint d = rowDepthAt(z.rd, x);
#endif
    uint pix = z.rowBase + uint(x);
#if VIS64 && VIS64_EMULATE
    visMin(pix, d, z.id, z.tri, x, z.y);
#elif VIS64
    atomicMin(vis[pix], (uint64_t(d) << 32) | uint64_t(z.id));
#elif KEYS
    keysMin(pix, d, z.id, z.j0 + task);
#elif PASS == 1
    // A nearer depth makes the id that an earlier batch left here stale:
    // clear it for PASS 2 (every writer stores the same value). The first
    // batch finds every id cleared already.
    if (atomicMin(depthBuf[pix], d) > d && laterBatch != 0) {
        primBuf[pix] = NO_PRIMITIVE;
    }
#else
    if (depthBuf[pix] == d) atomicMin(primBuf[pix], z.id);
#endif
}

void balancerSolve(uint processor, uint span, uint task) {
    balancerSolveIn(balancerBegin(processor, span), task);
}
