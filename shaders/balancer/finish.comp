#version 450
// finish: the end of redistribution (§2.3.1 steps 3 and 4). Every
// processor holds its block's header (workload w, parallelIndex, new
// workload value c) from the segmented copy.
//   STEP 0: chunk[j] = c, for the segmented scan.
//   STEP 1: with offset = the segmented exclusive scan of chunk (k*c for
//           the k-th processor of a block): workload = min(c, w - offset),
//           so that the last processor takes the remainder, and
//           parallelIndex = parallelIndex + offset. Past the last block
//           the header is zero, and so is everything.
//
// lint: STEP=1

#ifndef STEP
#define STEP 0
#endif
#ifndef WG_SIZE
#define WG_SIZE 256
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"

layout(std430, binding = 0) readonly restrict buffer Header { uint header[]; }; // 3 words per processor
#if STEP == 0
layout(std430, binding = 1) writeonly restrict buffer Chunk { uint chunk[]; };
#else
layout(std430, binding = 1) readonly restrict buffer Offset { uint offset[]; };
layout(std430, binding = 2) writeonly restrict buffer Workload { uint workload[]; };
layout(std430, binding = 3) writeonly restrict buffer ParallelIndex { uint parallelIndex[]; };
#endif

uniform uint n; // processors

void main() {
    uint j = dpglGlobalIndex();
    if (j >= n) {
        return;
    }
    uint c = header[3u * j + 2u];
#if STEP == 0
    chunk[j] = c;
#else
    uint off = offset[j];
    workload[j] = c == 0u ? 0u : min(c, header[3u * j] - off);
    parallelIndex[j] = header[3u * j + 1u] + off;
#endif
}
