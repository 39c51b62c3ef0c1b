#version 450
// synthetic: the solution phase of the balancer's tests and benchmark. A
// processor's problem data is a problem id (uint).
//   MODE 0 (tally): counts every (problem, task) pair solved, in
//          tally[start + task - first] where problems[problem] = (start,
//          first task, tasks, -); a task outside its problem's range counts
//          in errors[0], the first such (problem, task) in errors[1..2].
//   MODE 1 (work): WORK rounds of integer hashing per task, folded into the
//          processor's own word of sink, so that every iteration costs
//          about the same per active processor.
//
// CUSTOM_MAIN 1 (tally) wraps balancerIteration() in a main() of its own
// that counts the processors solved per work group in shared memory, as a
// kernel aggregating its output would: solved[0] += tasks solved.
//
// lint: MODE=1 WORK=64 WG_SIZE=128
// lint: CUSTOM_MAIN=1
// lint: CUSTOM_MAIN=1 BALANCER_ONE_PER_LANE=1
// lint: BALANCER_STRATEGY=1
// lint: BALANCER_STRATEGY=2
// lint: BALANCER_STRATEGY=3
// lint: BALANCER_STRATEGY=4 CUSTOM_MAIN=1
// lint: BALANCER_STRATEGY=5 MODE=1

#ifndef CUSTOM_MAIN
#define CUSTOM_MAIN 0
#endif
#if CUSTOM_MAIN
#define BALANCER_CUSTOM_MAIN
#endif
#ifndef MODE
#define MODE 0
#endif
#ifndef WORK
#define WORK 16
#endif
#ifndef WG_SIZE
#define WG_SIZE 64
#endif

layout(local_size_x = WG_SIZE) in;
#include "balancer/loop.glsl"

#if MODE == 0
layout(std430, binding = 3) readonly restrict buffer Problems { uvec4 problems[]; };
layout(std430, binding = 4) restrict buffer Tally { uint tally[]; };
layout(std430, binding = 5) restrict buffer Errors { uint errors[]; };

#if CUSTOM_MAIN
layout(std430, binding = 6) restrict buffer Solved { uint solved[]; };
shared uint groupSolved;

void main() {
    if (gl_LocalInvocationID.x == 0u) {
        groupSolved = 0u;
    }
    barrier();
    balancerIteration();
    barrier();
    if (gl_LocalInvocationID.x == 0u && groupSolved != 0u) {
        atomicAdd(solved[0], groupSolved);
    }
}
#endif

void balancerSolve(uint processor, uint problem, uint task) {
#if CUSTOM_MAIN
    atomicAdd(groupSolved, 1u);
#endif
    uvec4 pr = problems[problem];
    uint k = task - pr.y;
    if (k < pr.z) {
        atomicAdd(tally[pr.x + k], 1u);
    } else if (atomicAdd(errors[0], 1u) == 0u) {
        errors[1] = problem;
        errors[2] = task;
    }
}
#else
layout(std430, binding = 3) restrict buffer Sink { uint sink[]; };

void balancerSolve(uint processor, uint problem, uint task) {
    uint h = problem * 0x9E3779B9u ^ task;
    for (int i = 0; i < WORK; i++) {
        h ^= h >> 16;
        h *= 0x7FEB352Du;
        h ^= h >> 15;
        h *= 0x846CA68Bu;
    }
    sink[processor] ^= h;
}
#endif
