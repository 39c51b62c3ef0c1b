#version 450
// heads: with pointers = the exclusive scan of the assignment (§2.3.1 step
// 1, 0-based), prepare the sends of step 2. For each processor p that is
// assigned a block:
//   - flags[pointers[p]] = 1: p's block starts a segment there (flags was
//     cleared before);
//   - header[p] = (workload, parallelIndex, new workload value c), the
//     record that goes to the head of the block;
//   - pointers[p] stays the send index; idle processors get 0xFFFFFFFF,
//     which the send skips.
// The processors past the last block, [total, n) with total = Σ assignment,
// form one more segment whose head is cleared here (sentHeader[total],
// sentProblem[total]), so that the segmented copy leaves them workload 0,
// index 0 and a zero problem, as the paper's example shows.
//
// lint: RECORD_WORDS=5 WG_SIZE=64

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef RECORD_WORDS
#define RECORD_WORDS 1
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"

layout(std430, binding = 0) readonly restrict buffer Workload { uint workload[]; };
layout(std430, binding = 1) readonly restrict buffer ParallelIndex { uint parallelIndex[]; };
layout(std430, binding = 2) readonly restrict buffer Assignment { uint assignment[]; };
layout(std430, binding = 3) restrict buffer Pointers { uint pointers[]; };
layout(std430, binding = 4) writeonly restrict buffer Flags { uint flags[]; };
layout(std430, binding = 5) writeonly restrict buffer Header { uint header[]; };          // 3 words per processor
layout(std430, binding = 6) writeonly restrict buffer SentHeader { uint sentHeader[]; };  // 3 words per processor
layout(std430, binding = 7) writeonly restrict buffer SentProblem { uint sentProblem[]; }; // RECORD_WORDS per processor

uniform uint n; // processors

void main() {
    uint p = dpglGlobalIndex();
    if (p >= n) {
        return;
    }
    uint a = assignment[p];
    uint ptr = pointers[p];
    if (p == n - 1u && ptr + a < n) {
        uint total = ptr + a;
        flags[total] = 1u;
        for (uint k = 0u; k < 3u; k++) {
            sentHeader[3u * total + k] = 0u;
        }
        for (uint k = 0u; k < uint(RECORD_WORDS); k++) {
            sentProblem[uint(RECORD_WORDS) * total + k] = 0u;
        }
    }
    if (a == 0u) {
        pointers[p] = 0xFFFFFFFFu;
        return;
    }
    uint w = workload[p];
    flags[ptr] = 1u;
    header[3u * p] = w;
    header[3u * p + 1u] = parallelIndex[p];
    header[3u * p + 2u] = dpglCeilDiv(w, a);
}
