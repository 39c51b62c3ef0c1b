#version 450
// The small per-element kernels around the renderer's loops, one per STEP
// (Go: rasterizer.prepareStep, whose names these are):
//   SCAN_PROBLEMS   the scan-conversion loop's processors from the set-up
//                   triangles: problem[i] = (i, spanBase[i]),
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

#if STEP == SCAN_PROBLEMS
layout(std430, binding = BINDING_ROWS) readonly restrict buffer Rows { uint rows[]; };
layout(std430, binding = BINDING_SPAN_BASE) readonly restrict buffer SpanBase { uint spanBase[]; };
layout(std430, binding = BINDING_WORKLOAD) writeonly restrict buffer Workload { uint workload[]; };
layout(std430, binding = BINDING_PARALLEL_INDEX) writeonly restrict buffer ParallelIndex { uint parallelIndex[]; };
layout(std430, binding = BINDING_PROBLEM) writeonly restrict buffer Problem { ScanProblem problem[]; };
#elif STEP == SPAN_PROBLEMS
layout(std430, binding = BINDING_SPANS) readonly restrict buffer Spans { Span spans[]; };
layout(std430, binding = BINDING_WORKLOAD) writeonly restrict buffer Workload { uint workload[]; };
layout(std430, binding = BINDING_PARALLEL_INDEX) writeonly restrict buffer ParallelIndex { uint parallelIndex[]; };
layout(std430, binding = BINDING_PROBLEM) writeonly restrict buffer Problem { uint problem[]; };
#elif STEP == CLEAR_VISIBILITY
layout(std430, binding = BINDING_VISIBILITY) writeonly restrict buffer Vis { uint64_t vis[]; };
#elif STEP == EXTRACT_PRIMS
layout(std430, binding = BINDING_VISIBILITY) readonly restrict buffer Vis { uint64_t vis[]; };
layout(std430, binding = BINDING_PRIMS) writeonly restrict buffer Prim { uint primBuf[]; };
#elif STEP == MERGE_KEYS
layout(std430, binding = BINDING_VISIBILITY) restrict buffer Depth { uint depthBuf[]; };
layout(std430, binding = BINDING_PRIMS) restrict buffer Prim { uint primBuf[]; };
layout(std430, binding = BINDING_WINNER) restrict buffer Winner { uint winner[]; };
layout(std430, binding = BINDING_Z_KEYS) readonly restrict buffer ZKeyPairs { uvec2 zkeyPairs[]; }; // zbuffer.comp's keys
uniform uint keyBase; // even: test j's key is pair keyBase/2 + j
uniform int cleared;  // 1: nothing was drawn into the depth and id buffers since they were cleared
#else
layout(std430, binding = BINDING_VISIBILITY) restrict buffer Vis { uint64_t vis[]; };
layout(std430, binding = BINDING_WINNER) restrict buffer Winner { uint winner[]; };
layout(std430, binding = BINDING_TRIS) readonly restrict buffer Tris { Tri tris[]; };
uniform int width;
#endif

void main() {
    uint i = dpglGlobalIndex();
    if (i >= n) return;
#if STEP == SCAN_PROBLEMS
    workload[i] = rows[i];
    parallelIndex[i] = 0u;
    problem[i] = ScanProblem(i, spanBase[i]);
#elif STEP == SPAN_PROBLEMS
    Span s = spans[i];
    workload[i] = s.x1 < s.x0 ? 0u : uint(s.x1 - s.x0 + 1);
    parallelIndex[i] = 0u;
    problem[i] = i;
#elif STEP == CLEAR_VISIBILITY
    vis[i] = (uint64_t(16777215u) << 32) | uint64_t(0xffffffffu);
#elif STEP == EXTRACT_PRIMS
    primBuf[i] = uint(vis[i] & uint64_t(0xffffffffu));
#elif STEP == MERGE_KEYS
    uint j = winner[2u * i]; // zbuffer.comp KEYS: the winner, then the filter
    if (j == NO_PRIMITIVE) {
        return;
    }
    winner[2u * i] = NO_PRIMITIVE;
    uvec2 key = zkeyPairs[keyBase / 2u + j];
    uint d = key.x, id = key.y;
    // Into the cleared buffers the winner goes as it is: every key is at
    // most (DEPTH_MAX, id < NO_PRIMITIVE), less than the cleared pair.
    if (cleared != 0 || d < depthBuf[i] || (d == depthBuf[i] && id < primBuf[i])) {
        depthBuf[i] = d;
        primBuf[i] = id;
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
