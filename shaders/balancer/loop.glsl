// The solution phase of a balancer loop (package balancer): the contract
// between balancer.Loop and the kernel that solves one task.
//
// A solution kernel declares its work group size, defines BALANCER_PROBLEM
// (the GLSL type of a processor's problem data, the std430 twin of the Go
// type T of balancer.Loop[T]; uint when not defined) after declaring that
// type, includes this file, and defines
//
//     void balancerSolve(uint processor, BALANCER_PROBLEM problem, uint task);
//
// which solves task `task` of `problem`, the task index having started at
// the processor's initial parallelIndex and counting up. Its main() (below)
// runs one iteration of Figure 2's WHERE (workload > 0) for every processor
// with work, taking every balancerLanes-th processor per invocation
// (grid-stride), and moves each one to its next task. Define
// BALANCER_CUSTOM_MAIN to write main() yourself around balancerIteration(),
// e.g. to set up or flush shared memory; every invocation of the dispatch
// must call it.
//
// Under a strategy (balancer.Config.Strategy), the balancer builds the
// kernel with BALANCER_STRATEGY defined, and balancerIteration() comes from
// the second half of this file instead: it solves many tasks per processor in one
// dispatch, in any order and on several invocations at once, so
// balancerSolve must not keep per-processor state in plain (non-atomic)
// read-modify-writes; it also leaves binding BALANCER_STRATEGY_BINDING (15)
// to the strategy.
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
uniform uint balancerIterationIndex; // the loop's iteration, from 0

void balancerSolve(uint processor, BALANCER_PROBLEM problem, uint task);

#ifndef BALANCER_STRATEGY
#define BALANCER_STRATEGY 0
#endif
#if BALANCER_STRATEGY == 0
void balancerIteration() {
    uint lane = dpglGlobalIndex();
    if (lane >= balancerLanes) {
        return;
    }
    // Mesa's llvmpipe silently ends an invocation's loops after 65535
    // iterations in all, its own loops included: balancer.Loop keeps a
    // lane's processors to a few thousand there.
    for (uint p = lane; p < balancerProcessors; p += balancerLanes) {
        uint w = balancerWorkload[p];
        if (w == 0u) {
            continue;
        }
        uint task = balancerParallelIndex[p];
        balancerSolve(p, balancerProblem[p], task);
        balancerWorkload[p] = w - 1u;
        balancerParallelIndex[p] = task + 1u;
    }
}
#else
// ---- Strategies ------------------------------------------------------------
//
// Under a strategy of balancer.Strategy other than the paper's loop, the
// balancer builds the kernel with BALANCER_STRATEGY (gpu.Program.Variant)
// and the balancerIteration() below replaces the paper's grid-stride loop;
// the kernel's balancerSolve is unchanged.
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
// Loops: every loop below is bounded per invocation by a number the
// balancer chose (lanes, chunk, grabs, quota) to keep it far below
// llvmpipe's limit on software renderers, and counts the tasks it really
// solved, so that a loop a driver cuts short shows in the balancer's count.

#define BALANCER_ROUND_ROBIN 1
#define BALANCER_RANDOM 2
#define BALANCER_WORK_POOL 3
#define BALANCER_LEFT_RIGHT 4
#define BALANCER_SEARCH 5

#ifndef BALANCER_STRATEGY_BINDING
#define BALANCER_STRATEGY_BINDING 15
#endif
// Rounds of the swap-or-not shuffle of BALANCER_RANDOM.
#define BALANCER_SHUFFLE_ROUNDS 8u

// balancerState: offset[0..P), then at balancerHeader the header words
// below, then at balancerLaneState the blocks' intervals (Left-Right
// Handoff: two sets, one per round parity, of ceil(L/64) blocks x 4 words).
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

#if BALANCER_STRATEGY == BALANCER_ROUND_ROBIN || BALANCER_STRATEGY == BALANCER_RANDOM

uint balancerHash(uint x) {
    x ^= x >> 16;
    x *= 0x7FEB352Du;
    x ^= x >> 15;
    x *= 0x846CA68Bu;
    x ^= x >> 16;
    return x;
}

// balancerPermute is a seeded bijection of [0, S): swap-or-not (Hoang,
// Morris and Rogaway, 2012). Each round pairs x with k - x (mod S) for a
// round key k and swaps the pair or not by a bit of the hash of the pair's
// larger member; both members compute the same bit, so a round is an
// involution, and the composition a permutation, of [0, S).
uint balancerPermute(uint x) {
    uint n = balancerTasks;
    for (uint i = 0u; i < BALANCER_SHUFFLE_ROUNDS; i++) {
        uint roundKey = balancerHash(balancerSeed ^ (i * 0x9E3779B9u));
        uint k = roundKey % n;
        uint partner = k >= x ? k - x : k + (n - x); // (k - x) mod n without wrapping
        if ((balancerHash(max(x, partner) ^ roundKey) & 1u) != 0u) {
            x = partner;
        }
    }
    return x;
}

// Static assignment: lane l takes positions l, l+L, l+2L, ... of the task
// order (round robin), or of a random permutation of it (random): exactly
// ceil((S - l) / L) tasks, fixed before the dispatch.
void balancerIteration() {
    uint lane = dpglGlobalIndex();
    if (lane >= balancerLanes || lane >= balancerTasks) {
        return;
    }
    uint count = (balancerTasks - 1u - lane) / balancerLanes + 1u;
    uint p = 0u;
    // n counts the tasks solved, not count: a loop that a driver cuts short
    // must show in the balancer's count.
    uint n = 0u;
    for (uint j = 0u; j < count; j++) {
        uint x = lane + j * balancerLanes; // < S
#if BALANCER_STRATEGY == BALANCER_ROUND_ROBIN
        p = j == 0u ? balancerLocate(0u, balancerProcessors, x) : balancerSeek(p, x);
        balancerSolveTask(p, x);
#else
        uint g = balancerPermute(x);
        p = balancerLocate(0u, balancerProcessors, g);
        balancerSolveTask(p, g);
#endif
        n++;
    }
    balancerAccount(n);
}

#elif BALANCER_STRATEGY == BALANCER_WORK_POOL

// A centralized work pool: each lane takes chunks of balancerChunk
// consecutive tasks from an atomic counter until the pool is empty or it
// has taken balancerMaxGrabs chunks. No lane waits for another.
void balancerIteration() {
    uint lane = dpglGlobalIndex();
    if (lane >= balancerLanes) {
        return;
    }
    uint n = 0u;
    uint p = 0u;
    for (uint i = 0u; i < balancerMaxGrabs; i++) {
        uint c = atomicAdd(balancerState[balancerHeader + BALANCER_H_POOL], balancerChunk);
        if (c >= balancerTasks) {
            break;
        }
        uint end = min(c + balancerChunk, balancerTasks); // the balancer keeps S + L*chunk < 2^32
        // A lane's chunks come in increasing order: seek forward.
        p = n == 0u ? balancerLocate(0u, balancerProcessors, c) : balancerSeek(p, c);
        for (uint g = c; g < end; g++) {
            if (g != c) {
                p = balancerSeek(p, g);
            }
            balancerSolveTask(p, g);
            n++;
        }
    }
    balancerAccount(n);
}

#elif BALANCER_STRATEGY == BALANCER_LEFT_RIGHT

// Left-Right Handoff between blocks of BALANCER_BLOCK lanes (the last block
// may have fewer). A block's work is at most two disjoint intervals of the
// task order, [x, y) first, then [z, w) (what it was handed); its lanes
// share each round's part of it cyclically, so that the balancing that
// remains to do is between blocks.
#define BALANCER_BLOCK 64u

uint balancerLen(uvec4 s) { return (s.y - s.x) + (s.w - s.z); }

uint balancerBlocks() { return (balancerLanes + BALANCER_BLOCK - 1u) / BALANCER_BLOCK; }

uint balancerBlockWord(uint set, uint block) {
    return balancerLaneState + (set * balancerBlocks() + block) * 4u;
}

uvec4 balancerLoadBlock(uint set, uint block) {
    uint at = balancerBlockWord(set, block);
    return uvec4(balancerState[at], balancerState[at + 1u], balancerState[at + 2u], balancerState[at + 3u]);
}

void balancerStoreBlock(uint set, uint block, uvec4 s) {
    uint at = balancerBlockWord(set, block);
    balancerState[at] = s.x;
    balancerState[at + 1u] = s.y;
    balancerState[at + 2u] = s.z;
    balancerState[at + 3u] = s.w;
}

// The first work of block b: processors [b*P/B, (b+1)*P/B) for B blocks,
// whole runs of base or base+1 processors, and their tasks.
uint balancerFirstProcessor(uint b) {
    uint nb = balancerBlocks();
    uint base = balancerProcessors / nb, extra = balancerProcessors % nb;
    return b * base + min(b, extra);
}

uvec4 balancerNormalize(uvec4 s) {
    if (s.x == s.y) {
        s = uvec4(s.zw, 0u, 0u);
    }
    if (s.z == s.w) {
        s.zw = uvec2(0u);
    }
    return s;
}

// balancerGive moves up to d tasks from the end of the donor's last
// interval to the receiver, where they extend an adjacent interval or fill
// a free one; without room it moves nothing.
void balancerGive(inout uvec4 donor, inout uvec4 receiver, uint d) {
    bool second = donor.z != donor.w;
    uvec2 last = second ? donor.zw : donor.xy;
    uint t = min(d, last.y - last.x);
    uvec2 piece = uvec2(last.y - t, last.y);
    if (receiver.x == receiver.y) {
        receiver.xy = piece;
    } else if (piece.y == receiver.x) {
        receiver.x = piece.x;
    } else if (piece.x == receiver.y) {
        receiver.y = piece.y;
    } else if (receiver.z == receiver.w) {
        receiver.zw = piece;
    } else if (piece.y == receiver.z) {
        receiver.z = piece.x;
    } else if (piece.x == receiver.w) {
        receiver.w = piece.y;
    } else {
        return;
    }
    if (second) {
        donor.w -= t;
    } else {
        donor.y -= t;
    }
    donor = balancerNormalize(donor);
    receiver = balancerNormalize(receiver);
}

// balancerHandoff is the checkpoint of the pair (a, b), a the left block:
// the one with more work hands half the difference to the other. Every
// lane of both blocks computes it from the same two states.
void balancerHandoff(inout uvec4 a, inout uvec4 b) {
    uint na = balancerLen(a), nb = balancerLen(b);
    if (na > nb + 1u) {
        balancerGive(a, b, (na - nb) / 2u);
    } else if (nb > na + 1u) {
        balancerGive(b, a, (nb - na) / 2u);
    }
}

// Round r of Left-Right Handoff: the checkpoint with the partner block of
// this round (right when block + r is even, left when odd), then the
// block's first balancerChunk tasks per lane, shared cyclically.
void balancerIteration() {
    uint lane = dpglGlobalIndex();
    if (lane >= balancerLanes) {
        return;
    }
    uint r = balancerIterationIndex;
    uint h = balancerHeader;
    if (lane == 0u) {
        // Fold round r-1's maximum into the critical path and clear round
        // r+1's slots (round r-2's, read by round r-1 already).
        if (r > 0u) {
            balancerState[h + BALANCER_H_CRITICAL] += balancerState[h + BALANCER_H_ROUND_MAX + (r + 2u) % 3u];
        }
        balancerState[h + BALANCER_H_ROUND_MAX + (r + 1u) % 3u] = 0u;
        balancerState[h + BALANCER_H_LEFT + (r + 1u) % 3u] = 0u;
    }
    uint block = lane / BALANCER_BLOCK, j = lane % BALANCER_BLOCK;
    uint width = min(BALANCER_BLOCK, balancerLanes - block * BALANCER_BLOCK); // lanes in the block
    uint nb = balancerBlocks();
    uvec4 s;
    if (r == 0u) {
        s = balancerNormalize(uvec4(balancerOffset(balancerFirstProcessor(block)), balancerOffset(balancerFirstProcessor(block + 1u)), 0u, 0u));
    } else {
        if (balancerState[h + BALANCER_H_LEFT + (r + 2u) % 3u] == 0u) {
            return; // every block finished in round r-1
        }
        uint prev = (r - 1u) & 1u;
        s = balancerLoadBlock(prev, block);
        bool right = ((block + r) & 1u) == 0u;
        if (right && block + 1u < nb) {
            uvec4 o = balancerLoadBlock(prev, block + 1u);
            balancerHandoff(s, o);
        } else if (!right && block > 0u) {
            uvec4 o = balancerLoadBlock(prev, block - 1u);
            balancerHandoff(o, s);
        }
    }
    // The block solves its first `take` tasks: position k < take is task
    // x + k of the first interval, or z + k - (y - x) of the second; lane j
    // takes k = j, j + width, ..., at most balancerChunk of them.
    uint len0 = s.y - s.x;
    uint take = min(balancerChunk * width, balancerLen(s)); // the balancer keeps chunk * 64 < 2^32
    uint n = 0u;
    uint p = 0u;
    for (uint k = j; k < take; k += width) {
        uint g = k < len0 ? s.x + k : s.z + (k - len0);
        // Forward within an interval; anew at the first task and where the
        // second interval (which may lie anywhere) starts.
        bool fresh = n == 0u || (k >= len0 && k - width < len0);
        p = fresh ? balancerLocate(0u, balancerProcessors, g) : balancerSeek(p, g);
        balancerSolveTask(p, g);
        n++;
    }
    if (j == 0u) {
        if (take >= len0) {
            s = uvec4(s.z + (take - len0), s.w, 0u, 0u);
        } else {
            s.x += take;
        }
        s = balancerNormalize(s);
        balancerStoreBlock(r & 1u, block, s);
        uint left = balancerLen(s);
        if (left != 0u) {
            atomicAdd(balancerState[h + BALANCER_H_LEFT + r % 3u], left);
        }
        if (take != 0u) {
            atomicMax(balancerState[h + BALANCER_H_ROUNDS], r + 1u);
        }
    }
    balancerAccount(n);
}

#elif BALANCER_STRATEGY == BALANCER_SEARCH

// Load-balancing search: one invocation per task, which finds its processor
// by binary search over the offsets.
void balancerIteration() {
    uint g = dpglGlobalIndex();
    if (g >= balancerTasks) {
        return;
    }
    balancerSolveTask(balancerLocate(0u, balancerProcessors, g), g);
}

#else
#error "BALANCER_STRATEGY is not a strategy"
#endif

#endif

#ifndef BALANCER_CUSTOM_MAIN
void main() {
    balancerIteration();
}
#endif
