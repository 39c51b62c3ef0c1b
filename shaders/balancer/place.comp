#version 450
#extension GL_ARB_gpu_shader_int64 : require
// place: redistribution (§2.3.1 steps 2-4) in one kernel, a client of the
// load-balancing search. With pointers = the exclusive scan of the
// assignment (step 1, 0-based), processor p's block is [pointers[p],
// pointers[p] + assignment[p]) of the new arrays, and total = Σ assignment.
// Each new processor j < total finds its block's owner p, the last
// processor with pointers[p] <= j (its assignment is then nonzero), and
// takes, as the k = j - pointers[p]-th of the block, with w = workload[p]
// and the new workload value c = ceil(w / assignment[p]):
//   workload      min(c, w - k*c)  (the last of the block the remainder)
//   parallelIndex parallelIndex[p] + k*c
//   problem       problem[p]
// which is what the paper's send to the block heads, segmented copy and
// segmented scan of c compute. New processors past the last block, [total,
// n), get workload 0, index 0 and a zero problem, as the paper's example
// shows.
//
// SCATTER 0: one invocation a new processor j. A work group's
// destinations are consecutive: one invocation finds the owners of its
// first and last, and the others search only between them.
// SCATTER 1: one invocation an old processor p, which writes its block's
// assignment[p] new processors itself, and the new processors past the
// last block, j = p >= total: no search, and each owner's words loaded
// once, not once a new processor. A lane loops over its block, so the
// balancer takes this form only where every assignment is known to be
// small (at most MAX(workload) and num_idle + 1, or P for Footnote1; see
// balancer's maxScatterBlock): a vector then runs as long as its largest
// block, and the blocks of all vectors add up to at most P.
//
// lint: RECORD_WORDS=5 WG_SIZE=64
// lint: RECORD_WORDS=2 SCATTER=1

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef RECORD_WORDS
#define RECORD_WORDS 1
#endif
#ifndef SCATTER
#define SCATTER 0
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "balancer/assign.glsl"

layout(std430, binding = 0) readonly restrict buffer Workload { uint workload[]; };
layout(std430, binding = 1) readonly restrict buffer ParallelIndex { uint parallelIndex[]; };
layout(std430, binding = 2) readonly restrict buffer Assignment { uint assignment[]; };
layout(std430, binding = 3) readonly restrict buffer Pointers { uint pointers[]; };
layout(std430, binding = 4) readonly restrict buffer Problem { uint problem[]; };          // RECORD_WORDS per processor
layout(std430, binding = 5) writeonly restrict buffer NewWorkload { uint newWorkload[]; };
layout(std430, binding = 6) writeonly restrict buffer NewParallelIndex { uint newParallelIndex[]; };
layout(std430, binding = 7) writeonly restrict buffer NewProblem { uint newProblem[]; };   // RECORD_WORDS per processor

uniform uint n;     // processors
uniform uint total; // Σ assignment (balancer.Info.TotalAssigned): new processors with work

#if SCATTER
void main() {
    uint p = dpglGlobalIndex();
    if (p >= n) {
        return;
    }
    if (p >= total) {
        newWorkload[p] = 0u;
        newParallelIndex[p] = 0u;
        for (uint i = 0u; i < uint(RECORD_WORDS); i++) {
            newProblem[uint(RECORD_WORDS) * p + i] = 0u;
        }
    }
    uint a = assignment[p];
    if (a == 0u) {
        return;
    }
    uint w = workload[p];
    uint c = balancerCeilDiv(w, a);
    uint j0 = pointers[p];
    uint first = parallelIndex[p];
    uint record[RECORD_WORDS];
    for (uint i = 0u; i < uint(RECORD_WORDS); i++) {
        record[i] = problem[uint(RECORD_WORDS) * p + i];
    }
    // The block's k-th processor: tasks from k*c on (< w: the block has
    // ceil(w/c) processors), c of them but the last's remainder.
    for (uint k = 0u, off = 0u; k < a; k++, off += c) {
        uint j = j0 + k;
        newWorkload[j] = min(c, w - off);
        newParallelIndex[j] = first + off;
        for (uint i = 0u; i < uint(RECORD_WORDS); i++) {
            newProblem[uint(RECORD_WORDS) * j + i] = record[i];
        }
    }
}
#else
#define LBS_OFFSET(p) pointers[p]
#define LBS_SEGMENTS n
#define LBS_END total
#include "include/lbs.glsl"

shared uint sLo, sHi;

void main() {
    uint j = dpglGlobalIndex();
    uint first = j - gl_LocalInvocationID.x;
    if (gl_LocalInvocationID.x == 0u && first < total) {
        uint last = min(first + uint(WG_SIZE - 1), total - 1u);
        uint lo = lbsLocate(0u, n, first);
        sLo = lo;
        sHi = lbsLocate(lo, n, last) + 1u; // pointers[sHi] > last
    }
    barrier();
    if (j >= n) {
        return;
    }
    if (j >= total) {
        newWorkload[j] = 0u;
        newParallelIndex[j] = 0u;
        for (uint i = 0u; i < uint(RECORD_WORDS); i++) {
            newProblem[uint(RECORD_WORDS) * j + i] = 0u;
        }
        return;
    }
    uint p = lbsLocate(sLo, sHi, j);
    uint w = workload[p];
    uint c = balancerCeilDiv(w, assignment[p]);
    uint off = (j - pointers[p]) * c; // < w: the block has ceil(w/c) processors
    newWorkload[j] = min(c, w - off);
    newParallelIndex[j] = parallelIndex[p] + off;
    for (uint i = 0u; i < uint(RECORD_WORDS); i++) {
        newProblem[uint(RECORD_WORDS) * j + i] = problem[uint(RECORD_WORDS) * p + i];
    }
}
#endif
