#version 450
// The small per-element kernels around the renderer's loops, one per STEP
// (Go: rasterizer.prepareStep, whose names these are):
//   SCAN_PROBLEMS   the scan-conversion loop's processors from the set-up
//                   triangles: problem[i] = (slots[i], spanBase[i]),
//                   parallelIndex[i] = 0, workload[i] = rows[i];
//   SPAN_PROBLEMS   the z-buffer loop's processors from the spans:
//                   problem[i] = i, parallelIndex 0, workload = the span's
//                   length (0 for an empty row);
//   CLEAR_VISIBILITY (the 64-bit paths) the visibility buffer cleared:
//                   depth DEPTH_MAX, no primitive (the 32-bit path's two
//                   buffers are filled by glClearBufferSubData);
//   EXTRACT_PRIMS   the primitive id of each pixel out of the 64-bit
//                   visibility buffer (low word);
//   MERGE_WINNERS   (the emulated 64-bit path, zbuffer.comp VIS64_EMULATE)
//                   after a batch: each pixel's winning set-up triangle
//                   merged into the 64-bit buffer as (depth << 32 |
//                   primitive id) where that is less, and the winner
//                   cleared for the next batch;
//   MERGE_KEYS      (the 32-bit path, zbuffer.comp KEYS) after a batch:
//                   each pixel's winning test's key (depth, primitive id)
//                   merged into the depth and id buffers where it is
//                   less, and the winner cleared for the next batch.
// SCAN_PROBLEMS, SPAN_PROBLEMS and MERGE_KEYS take four elements an
// invocation (Go: prepareStep.perInvocation), loading and storing four
// elements' words as one uvec4 where all four lie below n, and element by
// element in a last partial four: llvmpipe accesses a buffer a lane at a
// time, four words for about the price of one.
// lint: STEP=1
// lint: STEP=2 VIS64=1
// lint: STEP=3 VIS64=1
// lint: STEP=4
// lint: STEP=5
#define SCAN_PROBLEMS 0
#define SPAN_PROBLEMS 1
#define CLEAR_VISIBILITY 2
#define EXTRACT_PRIMS 3
#define MERGE_WINNERS 4
#define MERGE_KEYS 5
#ifndef STEP
#define STEP SCAN_PROBLEMS
#endif
#ifndef VIS64
#define VIS64 0
#endif
#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#if VIS64 || STEP == MERGE_WINNERS || STEP == MERGE_KEYS
#extension GL_ARB_gpu_shader_int64 : require
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "rasterizer/layout.glsl"
#if STEP == MERGE_WINNERS || STEP == MERGE_KEYS
#include "rasterizer/raster.glsl"
#endif

uniform uint n;

#if STEP == SCAN_PROBLEMS || STEP == SPAN_PROBLEMS
// The loop's arrays, a word an element and (the same words) four elements
// a uvec4.
layout(std430, binding = BINDING_WORKLOAD) writeonly buffer Workload { uint workload[]; };
layout(std430, binding = BINDING_WORKLOAD) writeonly buffer Workload4 { uvec4 workload4[]; };
layout(std430, binding = BINDING_PARALLEL_INDEX) writeonly buffer ParallelIndex { uint parallelIndex[]; };
layout(std430, binding = BINDING_PARALLEL_INDEX) writeonly buffer ParallelIndex4 { uvec4 parallelIndex4[]; };
#endif
#if STEP == SCAN_PROBLEMS
layout(std430, binding = BINDING_ROWS) readonly buffer Rows { uint rows[]; };
layout(std430, binding = BINDING_ROWS) readonly buffer Rows4 { uvec4 rows4[]; };
layout(std430, binding = BINDING_SPAN_BASE) readonly buffer SpanBase { uint spanBase[]; };
layout(std430, binding = BINDING_SPAN_BASE) readonly buffer SpanBase4 { uvec4 spanBase4[]; };
layout(std430, binding = BINDING_TRI_SLOTS) readonly buffer Slots { uint slots[]; };
layout(std430, binding = BINDING_TRI_SLOTS) readonly buffer Slots4 { uvec4 slots4[]; };
layout(std430, binding = BINDING_PROBLEM) writeonly buffer Problem { ScanProblem problem[]; };
layout(std430, binding = BINDING_PROBLEM) writeonly buffer Problem4 { uvec4 problem4[]; }; // two problems each
#elif STEP == SPAN_PROBLEMS
layout(std430, binding = BINDING_SPANS) readonly buffer Spans { Span spans[]; };
layout(std430, binding = BINDING_SPANS) readonly buffer Spans4 { ivec4 spans4[]; }; // Span's words
layout(std430, binding = BINDING_PROBLEM) writeonly buffer Problem { uint problem[]; };
layout(std430, binding = BINDING_PROBLEM) writeonly buffer Problem4 { uvec4 problem4[]; };
#elif STEP == CLEAR_VISIBILITY
layout(std430, binding = BINDING_VISIBILITY) writeonly restrict buffer Vis { uint64_t vis[]; };
#elif STEP == EXTRACT_PRIMS
layout(std430, binding = BINDING_VISIBILITY) readonly restrict buffer Vis { uint64_t vis[]; };
layout(std430, binding = BINDING_PRIMS) writeonly restrict buffer Prim { uint primBuf[]; };
#elif STEP == MERGE_KEYS
layout(std430, binding = BINDING_VISIBILITY) buffer Depth { uint depthBuf[]; };
layout(std430, binding = BINDING_VISIBILITY) buffer Depth4 { uvec4 depth4[]; };
layout(std430, binding = BINDING_PRIMS) buffer Prim { uint primBuf[]; };
layout(std430, binding = BINDING_PRIMS) buffer Prim4 { uvec4 prim4[]; };
layout(std430, binding = BINDING_WINNER) buffer Winner { uint winner[]; };
layout(std430, binding = BINDING_WINNER) buffer Winner4 { uvec4 winner4[]; }; // two pixels' (winner, filter) each
// boxQuads > 0: invocation g takes the (g % boxQuads)-th four pixels of
// row g / boxQuads of the box from boxOrigin (x a multiple of 4) in an
// image width pixels wide (a multiple of 4), where the batch's every test
// lies (resolve.go's shadedBox, checked by setup); 0: pixels 4g...4g+3.
uniform uint boxQuads;
uniform uvec2 boxOrigin;
uniform uint width;
#else
layout(std430, binding = BINDING_VISIBILITY) restrict buffer Vis { uint64_t vis[]; };
layout(std430, binding = BINDING_WINNER) restrict buffer Winner { uint winner[]; };
layout(std430, binding = BINDING_TRIS) readonly restrict buffer Tris { Tri tris[]; };
uniform int width;
#endif

#if STEP == SPAN_PROBLEMS
// spanLength is the pixels of span s: its z-buffer workload.
uint spanLength(Span s) { return s.x1 < s.x0 ? 0u : uint(s.x1 - s.x0 + 1); }
#endif

#if STEP == MERGE_KEYS
#include "rasterizer/mergekey.glsl"
#endif

void main() {
#if STEP == SCAN_PROBLEMS || STEP == SPAN_PROBLEMS || STEP == MERGE_KEYS
    uint g = dpglGlobalIndex(); // elements 4g..4g+3
#if STEP == MERGE_KEYS
    if (boxQuads > 0u) {
        g = ((boxOrigin.y + g / boxQuads) * width + boxOrigin.x) / 4u + g % boxQuads;
    }
#endif
    uint i0 = 4u * g;
    if (i0 >= n) return;
    bool whole = i0 + 3u < n;
#else
    uint i = dpglGlobalIndex();
    if (i >= n) return;
#endif
#if STEP == SCAN_PROBLEMS
    if (whole) {
        uvec4 sb = spanBase4[g], sl = slots4[g];
        workload4[g] = rows4[g];
        parallelIndex4[g] = uvec4(0u);
        problem4[2u * g] = uvec4(sl.x, sb.x, sl.y, sb.y);
        problem4[2u * g + 1u] = uvec4(sl.z, sb.z, sl.w, sb.w);
        return;
    }
    for (uint i = i0; i < n; i++) {
        workload[i] = rows[i];
        parallelIndex[i] = 0u;
        problem[i] = ScanProblem(slots[i], spanBase[i]);
    }
#elif STEP == SPAN_PROBLEMS
    if (whole) {
        workload4[g] = uvec4(spanLength(spanOf(spans4[i0])), spanLength(spanOf(spans4[i0 + 1u])),
                             spanLength(spanOf(spans4[i0 + 2u])), spanLength(spanOf(spans4[i0 + 3u])));
        parallelIndex4[g] = uvec4(0u);
        problem4[g] = uvec4(i0, i0 + 1u, i0 + 2u, i0 + 3u);
        return;
    }
    for (uint i = i0; i < n; i++) {
        workload[i] = spanLength(spans[i]);
        parallelIndex[i] = 0u;
        problem[i] = i;
    }
#elif STEP == CLEAR_VISIBILITY
    vis[i] = (uint64_t(16777215u) << 32) | uint64_t(0xffffffffu);
#elif STEP == EXTRACT_PRIMS
    primBuf[i] = uint(vis[i] & uint64_t(0xffffffffu));
#elif STEP == MERGE_KEYS
    // zbuffer.comp KEYS: per pixel its winner, then its filter.
    if (whole) {
        uvec4 wa = winner4[2u * g], wb = winner4[2u * g + 1u]; // pixels i0, i0+1; i0+2, i0+3
        uvec4 j = uvec4(wa.x, wa.z, wb.x, wb.z);
        if (all(equal(j, uvec4(NO_PRIMITIVE)))) {
            return;
        }
        winner4[2u * g] = uvec4(NO_PRIMITIVE, wa.y, NO_PRIMITIVE, wa.w);
        winner4[2u * g + 1u] = uvec4(NO_PRIMITIVE, wb.y, NO_PRIMITIVE, wb.w);
        // Cleared, the buffers hold (DEPTH_MAX, NO_PRIMITIVE) everywhere.
        uvec4 d = uvec4(DEPTH_MAX), id = uvec4(NO_PRIMITIVE);
        if (cleared == 0) {
            d = depth4[g];
            id = prim4[g];
        }
        for (uint e = 0u; e < 4u; e++) {
            uvec2 k = mergeKey(j[e], uvec2(d[e], id[e]));
            d[e] = k.x;
            id[e] = k.y;
        }
        depth4[g] = d;
        prim4[g] = id;
        return;
    }
    for (uint i = i0; i < n; i++) {
        uint j = winner[2u * i];
        if (j == NO_PRIMITIVE) {
            continue;
        }
        winner[2u * i] = NO_PRIMITIVE;
        uvec2 dp = cleared != 0 ? uvec2(DEPTH_MAX, NO_PRIMITIVE) : uvec2(depthBuf[i], primBuf[i]);
        uvec2 k = mergeKey(j, dp);
        depthBuf[i] = k.x;
        primBuf[i] = k.y;
    }
#else
    uint t = winner[i];
    if (t == NO_PRIMITIVE) {
        return;
    }
    winner[i] = NO_PRIMITIVE;
    Tri w = tris[t];
    uint d = triDepth(w, int(i % uint(width)), int(i / uint(width)));
    uvec2 old = unpackUint2x32(vis[i]); // (id, depth)
    if (d < old.y || (d == old.y && w.z.w < old.x)) {
        vis[i] = packUint2x32(uvec2(w.z.w, d));
    }
#endif
}
