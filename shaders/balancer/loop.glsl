// The solution phase of a balancer loop (package balancer): the contract
// between balancer.Loop and the kernel that solves one task.
//
// A solution kernel declares its work group size, defines BALANCER_PROBLEM
// (the GLSL type of a processor's problem data, the std430 twin of the Go
// type T of balancer.Loop[T]; uint when not defined) after declaring that
// type, includes this file, and defines
//
//     void balancerSolve(uint processor, BALANCER_PROBLEM problem, uint task);
#ifdef BALANCER_STATE
BALANCER_STATE balancerBegin(uint processor, BALANCER_PROBLEM problem);
void balancerSolveIn(BALANCER_STATE state, uint task);
#endif
//
// which solves task `task` of `problem`, the task index having started at
// the processor's initial parallelIndex and counting up. Its main() (below)
// runs iterations of Figure 2's WHERE (workload > 0) for every processor
// with work, taking every balancerLanes-th processor per invocation
// (grid-stride): one a dispatch, or several where the policy has nothing to
// decide between them (balancer.Config.Batch), a processor's tasks in order
// on its invocation. Define BALANCER_CUSTOM_MAIN to write main() yourself
// around balancerIteration(); every invocation of a dispatch must call it.
//
// A kernel whose tasks of one processor share work (a span's pixels: the
// span and its triangle loaded, the edge functions' constants worked out)
// may also define BALANCER_STATE as a type before the include, and
//
//     BALANCER_STATE balancerBegin(uint processor, BALANCER_PROBLEM problem);
//     void balancerSolveIn(BALANCER_STATE state, uint task);
//
// which the paper's loop calls instead of balancerSolve: balancerBegin once
// per processor and dispatch, balancerSolveIn for each of its tasks there.
// It must solve what balancerSolve(processor, problem, task) solves (the
// strategies still call that).
//
// Under a strategy (balancer.Config.Strategy), the balancer builds the
// kernel with BALANCER_STRATEGY defined, and balancerIteration() comes from
// balancer/strategies.glsl and the file of the strategy instead: it solves
// many tasks per processor in one dispatch, in any order and on several
// invocations at once, so balancerSolve must not keep per-processor state
// in plain (non-atomic) read-modify-writes; it also leaves binding
// BALANCER_STRATEGY_BINDING (15) to the strategy.
//
// Bindings 0, 1 and 2 hold the processor arrays (balancer.BindingWorkload,
// BindingParallelIndex, BindingProblem); the kernel's own buffers start at
// BALANCER_FIRST_FREE_BINDING (3). The balancer sets the uniforms and
// dispatches ceil(balancerLanes / work group size) groups (balancer.Iteration.Dispatch).
//
//     #version 450
//     layout(local_size_x = 64) in;
//     struct Span { int y, x0; uint depth, prim; };
//     #define BALANCER_PROBLEM Span
//     #include "balancer/loop.glsl"
//     layout(std430, binding = 3) buffer Visibility { uint vis[]; };
//     void balancerSolve(uint processor, Span s, uint x) { ... pixel (x, s.y) ... }

#include "include/common.glsl"

#ifndef BALANCER_PROBLEM
#define BALANCER_PROBLEM uint
#endif
#define BALANCER_FIRST_FREE_BINDING 3

layout(std430, binding = 0) restrict buffer BalancerWorkload { uint balancerWorkload[]; };
layout(std430, binding = 1) restrict buffer BalancerParallelIndex { uint balancerParallelIndex[]; };
layout(std430, binding = 2) readonly restrict buffer BalancerProblems { BALANCER_PROBLEM balancerProblem[]; };

uniform uint balancerProcessors; // P
uniform uint balancerLanes;      // invocations that take processors, <= P
#ifndef BALANCER_STRATEGY
#define BALANCER_STRATEGY 0
#endif
#if BALANCER_STRATEGY == 0
// One dispatch runs iterations balancerFirstIteration to
// balancerFirstIteration + balancerBatch - 1 (balancer.Config.Batch);
// balancerIterationIndex is the iteration of the task being solved.
uniform uint balancerFirstIteration;
uniform uint balancerBatch; // >= 1
uint balancerIterationIndex;
#else
uniform uint balancerIterationIndex; // the strategy's round, from 0
#endif

void balancerSolve(uint processor, BALANCER_PROBLEM problem, uint task);

#if BALANCER_STRATEGY == 0
#ifndef BALANCER_ONE_PER_LANE
#define BALANCER_ONE_PER_LANE 0
#endif
// balancerProcessor runs balancerBatch iterations of the paper's loop for
// processor p: with work, it solves its next min(workload, balancerBatch)
// tasks in order, as that many dispatches of one iteration would, but
// with no barrier between the iterations of different processors; the
// balancer batches only iterations its policy decides nothing between.
// Mesa's llvmpipe silently ends an invocation's loops after 65535
// iterations in all, balancerSolve's included: balancer.Loop keeps a
// lane's processors, and its solves a dispatch, to a few thousand there,
// and a cut loop leaves the tasks it did not solve in the workload, where
// the balancer's final count finds them.
void balancerProcessor(uint p) {
    uint w = balancerWorkload[p];
    if (w == 0u) {
        return;
    }
    uint n = min(w, balancerBatch);
    uint task = balancerParallelIndex[p];
    BALANCER_PROBLEM problem = balancerProblem[p];
#ifdef BALANCER_STATE
    BALANCER_STATE state = balancerBegin(p, problem);
#endif
    uint k = 0u;
    for (; k < n; k++) {
        balancerIterationIndex = balancerFirstIteration + k;
#ifdef BALANCER_STATE
        balancerSolveIn(state, task + k);
#else
        balancerSolve(p, problem, task + k);
#endif
    }
    balancerWorkload[p] = w - k;
    balancerParallelIndex[p] = task + k;
}

// balancerIteration takes every balancerLanes-th processor from its
// lane's (grid-stride). BALANCER_ONE_PER_LANE 1 is the variant that
// balancer.Iteration.Dispatch runs where there are at least as many lanes
// as processors: lane p takes processor p alone, with no loop around it.
// (llvmpipe runs a loop's body at least once whatever its lanes do, and
// the code in it by a slower path: the texel fetches of a span's
// triangle, for one, cost about three times theirs outside a loop. The
// renderer's two loops, one lane a processor, took 15-25% less time
// without it.)
void balancerIteration() {
    uint lane = dpglGlobalIndex();
    if (lane >= balancerLanes) {
        return;
    }
#if BALANCER_ONE_PER_LANE
    if (lane < balancerProcessors) {
        balancerProcessor(lane);
    }
#else
    for (uint p = lane; p < balancerProcessors; p += balancerLanes) {
        balancerProcessor(p);
    }
#endif
}
#else
#include "balancer/strategies.glsl"
#endif

#ifndef BALANCER_CUSTOM_MAIN
void main() {
    balancerIteration();
}
#endif
