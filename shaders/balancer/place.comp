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
// balancer's maxBlock and maxScatterLoop): a vector then runs as long as
// its largest block, and the blocks of all vectors add up to at most P.
// SCATTER 2: SCATTER 1 without the pointers: where the gathering's last
// pass kept the assignment, it also left each 4096-processor tile's Σ
// assignment (tileTotals, gather.comp PASS 3), and a work group of 256
// invocations takes the tile of the same processors, 16 consecutive ones
// an invocation: its tile's first new processor is the sum of the tiles
// before it, an invocation's the tile's plus the invocations' before it
// (a scan in shared memory), and the invocation walks its owners' blocks
// from there, loading four owners' words at a time (uvec4: llvmpipe loads
// a buffer a lane at a time, four words for about the price of one). No
// exclusive scan of the assignment before it, and its owners' loads a
// quarter as many.
//
// lint: RECORD_WORDS=5 WG_SIZE=64
// lint: RECORD_WORDS=2 SCATTER=1
// lint: RECORD_WORDS=2 SCATTER=2
// lint: RECORD_WORDS=1 SCATTER=2

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef RECORD_WORDS
#define RECORD_WORDS 1
#endif
#ifndef SCATTER
#define SCATTER 0
#endif

#if SCATTER == 2
#undef WG_SIZE
#define WG_SIZE 256 // 16 processors each: gather.comp's tile of 4096
#endif
layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "balancer/assign.glsl"

#if SCATTER == 2
#define OLD readonly // aliased by the uvec4 views below
#else
#define OLD readonly restrict
#endif
layout(std430, binding = 0) OLD buffer Workload { uint workload[]; };
layout(std430, binding = 1) OLD buffer ParallelIndex { uint parallelIndex[]; };
layout(std430, binding = 2) OLD buffer Assignment { uint assignment[]; };
#if SCATTER != 2
layout(std430, binding = 3) OLD buffer Pointers { uint pointers[]; };
#endif
layout(std430, binding = 4) OLD buffer Problem { uint problem[]; };          // RECORD_WORDS per processor
layout(std430, binding = 5) writeonly restrict buffer NewWorkload { uint newWorkload[]; };
layout(std430, binding = 6) writeonly restrict buffer NewParallelIndex { uint newParallelIndex[]; };
layout(std430, binding = 7) writeonly restrict buffer NewProblem { uint newProblem[]; };   // RECORD_WORDS per processor

uniform uint n;     // processors
uniform uint total; // Σ assignment (balancer.Info.TotalAssigned): new processors with work

#if SCATTER == 2
#define TILE 4096u // gather.comp's WG_SIZE * ITEMS
layout(std430, binding = 8) readonly restrict buffer TileTotals { uint tileTotals[]; };
// The same words as the old arrays above, four processors an element.
layout(std430, binding = 0) readonly buffer Workload4 { uvec4 workload4[]; };
layout(std430, binding = 1) readonly buffer ParallelIndex4 { uvec4 parallelIndex4[]; };
layout(std430, binding = 2) readonly buffer Assignment4 { uvec4 assignment4[]; };
layout(std430, binding = 4) readonly buffer Problem4 { uvec4 problem4[]; };
#endif

#if SCATTER == 2
// placeBlock writes the block of a = assignment > 0 new processors from j0
// of an owner of w tasks from first on and record words rec: the k-th
// takes tasks from k*c on (< w: the block has ceil(w/c) processors), c of
// them but the last's remainder.
void placeBlock(uint w, uint first, uint a, uint j0, uint rec[RECORD_WORDS]) {
    uint c = balancerCeilDiv(w, a);
    for (uint k = 0u, off = 0u; k < a; k++, off += c) {
        uint j = j0 + k;
        newWorkload[j] = min(c, w - off);
        newParallelIndex[j] = first + off;
        for (uint i = 0u; i < uint(RECORD_WORDS); i++) {
            newProblem[uint(RECORD_WORDS) * j + i] = rec[i];
        }
    }
}

// Four processors' words from run r (processors 4r..4r+3), zero past n.
#define RUN(arr4, arr, r) (4u * (r) + 3u < n ? arr4[r] : uvec4( \
    4u * (r) < n ? arr[4u * (r)] : 0u, 4u * (r) + 1u < n ? arr[4u * (r) + 1u] : 0u, \
    4u * (r) + 2u < n ? arr[4u * (r) + 2u] : 0u, 0u))

shared uint sPart[WG_SIZE];
shared uint sBase;

void main() {
    uint lid = gl_LocalInvocationID.x;
    uint tile = dpglGroupIndex();
    if (tile * TILE >= n) {
        return; // the whole group: past the last tile
    }
    // The tiles before this one, a share an invocation.
    uint before = 0u;
    for (uint t = lid; t < tile; t += uint(WG_SIZE)) {
        before += tileTotals[t];
    }
    sPart[lid] = before;
    barrier();
    if (lid == 0u) {
        uint b = 0u;
        for (uint i = 0u; i < uint(WG_SIZE); i++) {
            b += sPart[i];
        }
        sBase = b;
    }
    barrier();
    // This invocation's 16 processors' assignments, then the exclusive
    // scan of the invocations' sums.
    uint run0 = (tile * TILE) / 4u + 4u * lid;
    uint mine = 0u;
    for (uint q = 0u; q < 4u; q++) {
        uvec4 a = RUN(assignment4, assignment, run0 + q);
        mine += a.x + a.y + a.z + a.w;
    }
    sPart[lid] = mine;
    barrier();
    if (lid == 0u) {
        uint b = sBase;
        for (uint i = 0u; i < uint(WG_SIZE); i++) {
            uint v = sPart[i];
            sPart[i] = b;
            b += v;
        }
    }
    barrier();
    uint j0 = sPart[lid];
    for (uint q = 0u; q < 4u; q++) {
        uint r = run0 + q;
        if (4u * r >= n) {
            break;
        }
        uvec4 a = RUN(assignment4, assignment, r);
        uvec4 w = RUN(workload4, workload, r);
        uvec4 first = RUN(parallelIndex4, parallelIndex, r);
        uint words[4 * RECORD_WORDS];
        for (uint i = 0u; i < uint(RECORD_WORDS); i++) {
            uvec4 v = 4u * r + 3u < n ? problem4[uint(RECORD_WORDS) * r + i] : uvec4(0u);
            words[4u * i] = v.x;
            words[4u * i + 1u] = v.y;
            words[4u * i + 2u] = v.z;
            words[4u * i + 3u] = v.w;
        }
        for (uint e = 0u; e < 4u; e++) {
            uint p = 4u * r + e;
            if (p >= n) {
                break;
            }
            if (p >= total) {
                // New processor p lies past the last block.
                newWorkload[p] = 0u;
                newParallelIndex[p] = 0u;
                for (uint i = 0u; i < uint(RECORD_WORDS); i++) {
                    newProblem[uint(RECORD_WORDS) * p + i] = 0u;
                }
            }
            if (a[e] != 0u) {
                uint rec[RECORD_WORDS];
                for (uint i = 0u; i < uint(RECORD_WORDS); i++) {
                    // The run's record words, or for a partial run the
                    // processor's own.
                    rec[i] = 4u * r + 3u < n ? words[uint(RECORD_WORDS) * e + i] : problem[uint(RECORD_WORDS) * p + i];
                }
                placeBlock(w[e], first[e], a[e], j0, rec);
                j0 += a[e];
            }
        }
    }
}
#elif SCATTER
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
