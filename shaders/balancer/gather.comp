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
// Each invocation takes ITEMS processors strided by the group size, so a
// group's loads are contiguous. Groups past the last processor (a 2-D grid)
// add identities.
//
// lint: PASS=2
// lint: PASS=3
// lint: PASS=3 VARIANT=1 WG_SIZE=64 ITEMS=1
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

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "balancer/info.glsl"
#include "balancer/assign.glsl"

layout(std430, binding = 0) readonly restrict buffer Workload { uint workload[]; };
layout(std430, binding = 1) restrict buffer Info { uint info[]; };
#if PASS == 3
// Each processor's assignment, which the redistribution that may follow
// the gathering takes as it is instead of working it out again (assign.comp
// is for a redistribution on its own). Only where one may follow: where
// both of Bounded's bounds on the savings (balancer.Info's savingsBound
// and idleBound, from PASS 1's counts) exceed keepAbove, the largest
// savings the policy does not act on; then INFO_KEPT says so.
layout(std430, binding = 2) writeonly restrict buffer Assignment { uint assignment[]; };
uniform uint keepAbove;
#endif

uniform uint n; // processors
// The gathering describes the workloads after ahead more iterations of the
// solution phase than have run (which the balancer then runs in one batch
// with the iterations after them): each loses ahead tasks, down to 0.
uniform uint ahead;

shared uint sCount, sMax, sMin;
shared uint sSum[2]; // low, high word

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
    uint64_t sum = infoPair(info[INFO_SUM_LO], info[INFO_SUM_HI]);
    uint avg = balancerDiv64(sum, uint64_t(n));
#endif
#if PASS == 3
    uint numIdle = info[INFO_IDLE];
#if VARIANT == 0
    uint64_t maskedSum = infoPair(info[INFO_MASKED_SUM_LO], info[INFO_MASKED_SUM_HI]);
#else
    uint64_t maskedSum = sum;
#endif
    // savings <= MAX - ceil(S/P) and <= MAX - ceil(MAX/(num_idle+1)).
    uint maxW = info[INFO_MAX];
    uint ceilAvg = avg + (uint64_t(avg) * uint64_t(n) != sum ? 1u : 0u);
    uint bound = min(maxW - min(ceilAvg, maxW), maxW - balancerCeilDiv(maxW, numIdle + 1u));
    bool keep = bound > keepAbove;
#endif

    uint count = 0u, mx = 0u, mn = 0xFFFFFFFFu;
    uint64_t total = 0ul;
    uint base = dpglGroupIndex() * uint(WG_SIZE * ITEMS) + gl_LocalInvocationID.x;
    for (uint i = 0u; i < uint(ITEMS); i++) {
        uint j = base + i * uint(WG_SIZE);
        if (j >= n) {
            break;
        }
        uint w = workload[j];
        w = w > ahead ? w - ahead : 0u;
#if PASS == 1
        if (w == 0u) {
            count++;
        } else {
            mx = max(mx, w);
            mn = min(mn, w);
            total += uint64_t(w);
        }
#elif PASS == 2
        if (isMasked(w, avg)) {
            count++;
            total += uint64_t(w);
        }
#else
        uvec2 ac = assignOf(w, n, avg, numIdle, sum, maskedSum);
        if (keep) {
            assignment[j] = ac.x;
        }
        if (ac.x != 0u) {
            count += ac.x;
            mx = max(mx, ac.y);
            mn = min(mn, w - (ac.x - 1u) * ac.y);
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
    if (keep && dpglGroupIndex() == 0u) info[INFO_KEPT] = 1u;
    if (sMax != 0u) atomicMax(info[INFO_MAX_NEW], sMax);
    if (sMin != 0xFFFFFFFFu) atomicMin(info[INFO_MIN_NEW], sMin);
#endif
}
