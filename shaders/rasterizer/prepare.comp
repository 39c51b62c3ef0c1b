#version 450
// The small per-element kernels around the renderer's loops:
//   STEP 0 scan-conversion problems: problem[i] = (i, spanBase[i]); the
//          loop's parallelIndex[i] = 0, workload[i] = rows[i];
//   STEP 1 z-buffer problems from the spans: problem[i] = i, parallelIndex
//          0, workload = the span's length (0 for an empty row);
//   STEP 2 the visibility buffer cleared: depth DEPTH_MAX, no primitive;
//   STEP 3 the primitive id of each pixel out of the 64-bit visibility
//          buffer (low word);
//   STEP 4 (the emulated 64-bit path, zbuffer.comp VIS64_EMULATE) after a
//          batch: each pixel's winning set-up triangle merged into the
//          64-bit buffer as (depth << 32 | primitive id) where that is
//          less, and the winner cleared for the next batch.
// lint: STEP=1
// lint: STEP=2
// lint: STEP=3 VIS64=1
// lint: STEP=4
#ifndef STEP
#define STEP 0
#endif
#ifndef VIS64
#define VIS64 0
#endif
#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#if VIS64 || STEP == 4
#extension GL_ARB_gpu_shader_int64 : require
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#if STEP == 4
#include "rasterizer/raster.glsl"
#endif

uniform uint n;

#if STEP == 0
layout(std430, binding = 0) readonly restrict buffer Rows { uint rows[]; };
layout(std430, binding = 1) readonly restrict buffer SpanBase { uint spanBase[]; };
layout(std430, binding = 2) writeonly restrict buffer Workload { uint workload[]; };
layout(std430, binding = 3) writeonly restrict buffer ParallelIndex { uint parallelIndex[]; };
layout(std430, binding = 4) writeonly restrict buffer Problem { uvec2 problem[]; };
#elif STEP == 1
layout(std430, binding = 0) readonly restrict buffer Spans { ivec4 spans[]; };
layout(std430, binding = 2) writeonly restrict buffer Workload { uint workload[]; };
layout(std430, binding = 3) writeonly restrict buffer ParallelIndex { uint parallelIndex[]; };
layout(std430, binding = 4) writeonly restrict buffer Problem { uint problem[]; };
#elif STEP == 2
#if VIS64
layout(std430, binding = 0) writeonly restrict buffer Vis { uint64_t vis[]; };
#else
layout(std430, binding = 0) writeonly restrict buffer Depth { uint depthBuf[]; };
layout(std430, binding = 1) writeonly restrict buffer Prim { uint primBuf[]; };
#endif
#elif STEP == 3
layout(std430, binding = 0) readonly restrict buffer Vis { uint64_t vis[]; };
layout(std430, binding = 1) writeonly restrict buffer Prim { uint primBuf[]; };
#else
layout(std430, binding = 0) restrict buffer Vis { uint64_t vis[]; };
layout(std430, binding = 1) restrict buffer Winner { uint winner[]; };
layout(std430, binding = 2) readonly restrict buffer Tris { Tri tris[]; };
uniform int width;
#endif

void main() {
    uint i = dpglGlobalIndex();
    if (i >= n) return;
#if STEP == 0
    workload[i] = rows[i];
    parallelIndex[i] = 0u;
    problem[i] = uvec2(i, spanBase[i]);
#elif STEP == 1
    ivec4 s = spans[i];
    workload[i] = s.z < s.y ? 0u : uint(s.z - s.y + 1);
    parallelIndex[i] = 0u;
    problem[i] = i;
#elif STEP == 2
#if VIS64
    vis[i] = (uint64_t(16777215u) << 32) | uint64_t(0xffffffffu);
#else
    depthBuf[i] = 16777215u;
    primBuf[i] = 0xffffffffu;
#endif
#elif STEP == 3
    primBuf[i] = uint(vis[i] & uint64_t(0xffffffffu));
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
