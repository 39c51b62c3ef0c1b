#version 450
#extension GL_ARB_gpu_shader_int64 : require
// gather: the information gathering phase (§2.3 steps 1–5) as three
// reductions over the workload. Each yields a count, a maximum, a minimum
// and a 64-bit sum, which every work group adds into the info buffer
// (info.glsl) with one atomic per word:
//   PASS 1  num_idle, MAX(workload), the smallest nonzero workload, Σ workload
//   PASS 2  with avg = floor(Σ/P): act_mask's count, -, -, sum_workload
//   PASS 3  with the assignment (assign.glsl): Σ assignment (for
//           Footnote1 possibly above P, which the host checks),
//           MAX(new_workload_values), the smallest workload after
//           redistribution, -; and each processor's assignment
// Each invocation takes ITEMS processors as ITEMS/4 runs of four, one uvec4
// load a run (llvmpipe loads a buffer a lane at a time, and four words
// cost it about what one does: a pass over 100k processors about 1.5x
// faster), the runs strided by the group size so that a group's loads are
// contiguous; the last n mod 4 processors, past the last whole run, one at
// a time in the group whose range holds them. Groups past the last
// processor (a 2-D grid) add identities.
//
// lint: PASS=2
// lint: PASS=3
// lint: PASS=3 VARIANT=1 WG_SIZE=64 ITEMS=4
// lint: PASS=3 VARIANT=2

#ifndef PASS
#define PASS 1
#endif
#ifndef WG_SIZE
#define WG_SIZE 64
#endif
#ifndef ITEMS
#define ITEMS 64
#endif
#if ITEMS % 4 != 0
#error ITEMS must be a multiple of 4
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "balancer/info.glsl"
#include "balancer/assign.glsl"

// The workloads, and (one view of the same words) their runs of four.
layout(std430, binding = 0) readonly buffer Workload { uint workload[]; };
layout(std430, binding = 0) readonly buffer Workload4 { uvec4 workload4[]; };
layout(std430, binding = 1) restrict buffer Info { uint info[]; };
#if PASS == 3
// Each processor's assignment, which the redistribution that may follow
// the gathering takes as it is instead of working it out again (assign.comp
// is for a redistribution on its own). Only where one may follow: where
// both of Bounded's bounds on the savings (balancer.Info's savingsBound
// and idleBound, from PASS 1's counts) exceed keepAbove, the largest
// savings the policy does not act on; then INFO_KEPT says so.
layout(std430, binding = 2) writeonly buffer Assignment { uint assignment[]; };
layout(std430, binding = 2) writeonly buffer Assignment4 { uvec4 assignment4[]; };
// Each group's Σ assignment, where the assignment is kept: place.comp
// SCATTER 2 starts each tile's blocks from the sums of the tiles before it.
layout(std430, binding = 3) writeonly restrict buffer TileTotals { uint tileTotals[]; };
uniform uint keepAbove;
#endif

uniform uint n; // processors
// The gathering describes the workloads after ahead more iterations of the
// solution phase than have run (which the balancer then runs in one batch
// with the iterations after them): each loses ahead tasks, down to 0.
uniform uint ahead;

shared uint sCount, sMax, sMin;
shared uint sSum[2]; // low, high word

// The invocation's reductions (a count, a maximum, a minimum, a sum) and
// the gathering's values its passes read.
uint count = 0u, mx = 0u, mn = 0xFFFFFFFFu;
uint64_t total = 0ul;
#if PASS >= 2
uint64_t sum;
uint avg;
#endif
#if PASS == 3
uint numIdle;
uint64_t maskedSum;
#endif

// visit adds processor workload w to the reductions; PASS 3 returns its
// assignment.
uint visit(uint w) {
    w = w > ahead ? w - ahead : 0u;
#if PASS == 1
    if (w == 0u) {
        count++;
    } else {
        mx = max(mx, w);
        mn = min(mn, w);
        total += uint64_t(w);
    }
    return 0u;
#elif PASS == 2
    if (isMasked(w, avg)) {
        count++;
        total += uint64_t(w);
    }
    return 0u;
#else
    uvec2 ac = assignOf(w, n, avg, numIdle, sum, maskedSum);
    if (ac.x != 0u) {
        count += ac.x;
        mx = max(mx, ac.y);
        mn = min(mn, w - (ac.x - 1u) * ac.y);
    }
    return ac.x;
#endif
}

void main() {
    if (gl_LocalInvocationID.x == 0u) {
        sCount = 0u;
        sMax = 0u;
        sMin = 0xFFFFFFFFu;
        sSum[0] = 0u;
        sSum[1] = 0u;
    }
    barrier();

#if PASS >= 2
    sum = infoPair(info[INFO_SUM_LO], info[INFO_SUM_HI]);
    avg = balancerDiv64(sum, uint64_t(n));
#endif
#if PASS == 3
    numIdle = info[INFO_IDLE];
#if VARIANT == 0
    maskedSum = infoPair(info[INFO_MASKED_SUM_LO], info[INFO_MASKED_SUM_HI]);
#else
    maskedSum = sum;
#endif
    // savings <= MAX - ceil(S/P) and <= MAX - ceil(MAX/(num_idle+1)).
    uint maxW = info[INFO_MAX];
    uint ceilAvg = avg + (uint64_t(avg) * uint64_t(n) != sum ? 1u : 0u);
    uint bound = min(maxW - min(ceilAvg, maxW), maxW - balancerCeilDiv(maxW, numIdle + 1u));
    bool keep = bound > keepAbove;
#endif

    // Run r holds processors 4r to 4r+3; the group's runs start at
    // runs = its first processor / 4.
    uint runs = n / 4u;
    uint base = dpglGroupIndex() * uint(WG_SIZE * ITEMS / 4) + gl_LocalInvocationID.x;
    for (uint i = 0u; i < uint(ITEMS / 4); i++) {
        uint r = base + i * uint(WG_SIZE);
        if (r >= runs) {
            break;
        }
        uvec4 w = workload4[r];
        uvec4 a = uvec4(visit(w.x), visit(w.y), visit(w.z), visit(w.w));
#if PASS == 3
        if (keep) {
            assignment4[r] = a;
        }
#endif
    }
    uint j = 4u * runs + gl_LocalInvocationID.x;
    if (j < n && dpglGroupIndex() == 4u * runs / uint(WG_SIZE * ITEMS)) {
        uint a = visit(workload[j]);
#if PASS == 3
        if (keep) {
            assignment[j] = a;
        }
#endif
    }

    if (count != 0u) atomicAdd(sCount, count);
    if (mx != 0u) atomicMax(sMax, mx);
    if (mn != 0xFFFFFFFFu) atomicMin(sMin, mn);
    if (total != 0ul) ADD_PAIR(sSum, 0, 1, total)
    barrier();
    if (gl_LocalInvocationID.x != 0u) {
        return;
    }
    total = packUint2x32(uvec2(sSum[0], sSum[1]));
#if PASS == 1
    if (sCount != 0u) atomicAdd(info[INFO_IDLE], sCount);
    if (sMax != 0u) atomicMax(info[INFO_MAX], sMax);
    if (sMin != 0xFFFFFFFFu) atomicMin(info[INFO_MIN_ACTIVE], sMin);
    if (total != 0ul) ADD_PAIR(info, INFO_SUM_LO, INFO_SUM_HI, total)
#elif PASS == 2
    if (sCount != 0u) atomicAdd(info[INFO_MASKED], sCount);
    if (total != 0ul) ADD_PAIR(info, INFO_MASKED_SUM_LO, INFO_MASKED_SUM_HI, total)
#else
    if (sCount != 0u) atomicAdd(info[INFO_ASSIGNED], sCount);
    if (keep && dpglGroupIndex() * uint(WG_SIZE * ITEMS) < n) {
        tileTotals[dpglGroupIndex()] = sCount;
    }
    if (keep && dpglGroupIndex() == 0u) info[INFO_KEPT] = 1u;
    if (sMax != 0u) atomicMax(info[INFO_MAX_NEW], sMax);
    if (sMin != 0xFFFFFFFFu) atomicMin(info[INFO_MIN_NEW], sMin);
#endif
}
