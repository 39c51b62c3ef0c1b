// The strategies of package balancer (balancer.Strategy), included by
// balancer/loop.glsl when BALANCER_STRATEGY is defined and not 0: the
// balancer builds a solution kernel with BALANCER_STRATEGY
// (gpu.Program.Variant), and the balancerIteration() of the strategy's
// file (strategy_*.glsl) replaces the paper's grid-stride loop; the
// kernel's balancerSolve is unchanged. This file holds what the strategies
// share: the state, the header words, the search over the offsets and the
// accounting.
//
// Every strategy sees the tasks in one global order: task g (0 <= g < S,
// S = balancerTasks) is task g - offset[p] of processor p, where offset is
// the exclusive scan of the workloads (balancerState[0..P), written by the
// balancer before the first dispatch) and p the last processor with
// offset[p] <= g; that is task parallelIndex[p] + g - offset[p] of
// problem[p]. The workload and parallelIndex arrays are only read here; the
// balancer retires them (workload 0, parallelIndex + workload) after the
// last dispatch.
//
// Loops: every strategy's loop is bounded per invocation by a number the
// balancer chose (lanes, chunk, grabs, quota) to keep it far below
// llvmpipe's limit on software renderers, and counts the tasks it really
// solved, so that a loop a driver cuts short shows in the balancer's count.

#define BALANCER_ROUND_ROBIN 1
#define BALANCER_RANDOM 2
#define BALANCER_WORK_POOL 3
#define BALANCER_LEFT_RIGHT 4
#define BALANCER_SEARCH 5
#define BALANCER_LEFT_RIGHT_RACE 6
#define BALANCER_RANDOM_ASSIGNMENT 7

#ifndef BALANCER_STRATEGY_BINDING
#define BALANCER_STRATEGY_BINDING 15
#endif
// Rounds of the swap-or-not shuffle of BALANCER_RANDOM.
#define BALANCER_SHUFFLE_ROUNDS 8u

// balancerState: offset[0..P), then at balancerHeader the header words
// below, then at balancerLaneState the blocks' intervals (Left-Right
// Handoff: two sets, one per round parity, of ceil(L/64) blocks x 4 words;
// Left-Right Handoff race: 12 words a lane, see its file).
layout(std430, binding = BALANCER_STRATEGY_BINDING) coherent buffer BalancerStrategyState { uint balancerState[]; };

uniform uint balancerTasks;     // S, < 2^32
uniform uint balancerChunk;     // work pool: tasks per grab; Left-Right Handoff: quota per lane and round
uniform uint balancerMaxGrabs;  // work pool: grabs per lane
uniform uint balancerSeed;      // random
uniform uint balancerHeader;    // word index of the header in balancerState
uniform uint balancerLaneState; // word index of the blocks' intervals

// Header words (balancer's hdr* constants).
#define BALANCER_H_POOL 0u      // the work pool's next task
#define BALANCER_H_SOLVED 1u    // tasks solved, all dispatches
#define BALANCER_H_CRITICAL 2u  // sum over finished rounds of the most tasks one lane solved
#define BALANCER_H_ROUNDS 3u    // rounds in which some lane solved a task
#define BALANCER_H_ROUND_MAX 4u // 3-slot ring: the most tasks one lane solved in round r, slot r % 3
#define BALANCER_H_LEFT 7u      // 3-slot ring: tasks left after round r, slot r % 3
#define BALANCER_H_HANDOFFS 10u // Left-Right Handoff race: races that moved tasks

// The search over the offsets is the load-balancing search of package
// scan (include/lbs.glsl), on the offsets in balancerState.
#define LBS_OFFSET(p) balancerState[p]
#define LBS_SEGMENTS balancerProcessors
#define LBS_END balancerTasks
#include "include/lbs.glsl"

uint balancerOffset(uint p) {
    return lbsOffset(p);
}

// balancerLocate returns the processor that holds task g, given
// offset[lo] <= g < offset[hi] (offset[P] = S): the last p with
// offset[p] <= g, whose workload is then nonzero.
uint balancerLocate(uint lo, uint hi, uint g) {
    return lbsLocate(lo, hi, g);
}

// balancerSeek moves forward from processor p (offset[p] <= g) to the one
// that holds g.
uint balancerSeek(uint p, uint g) {
    return lbsSeek(p, g);
}

void balancerSolveTask(uint p, uint g) {
    balancerSolve(p, balancerProblem[p], balancerParallelIndex[p] + (g - balancerState[p]));
}

// balancerAccount adds a lane's tasks of this dispatch to the header.
void balancerAccount(uint n) {
    if (n == 0u) {
        return;
    }
    atomicAdd(balancerState[balancerHeader + BALANCER_H_SOLVED], n);
    uint slot = balancerHeader + BALANCER_H_ROUND_MAX + balancerIterationIndex % 3u;
    if (n > balancerState[slot]) { // a plain read first spares most atomics
        atomicMax(balancerState[slot], n);
    }
}

// Each file holds one strategy and compiles to nothing under the others.
#include "balancer/strategy_round_robin.glsl"
#include "balancer/strategy_random.glsl"
#include "balancer/strategy_work_pool.glsl"
#include "balancer/strategy_left_right.glsl"
#include "balancer/strategy_search.glsl"
#include "balancer/strategy_left_right_race.glsl"

#if BALANCER_STRATEGY < BALANCER_ROUND_ROBIN || BALANCER_STRATEGY > BALANCER_RANDOM_ASSIGNMENT
#error "BALANCER_STRATEGY is not a strategy"
#endif
