// Random (balancer.Random): static assignment over a seeded permutation pi
// of the task order, lane l taking positions pi(l), pi(l+L), pi(l+2L), ...:
// exactly ceil((S - l) / L) tasks, fixed before the dispatch, each found by
// a binary search.

#if BALANCER_STRATEGY == BALANCER_RANDOM || BALANCER_STRATEGY == BALANCER_RANDOM_ASSIGNMENT

#include "include/hash.glsl"

uint balancerHash(uint x) { return dpglHash(x); }

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

#endif

#if BALANCER_STRATEGY == BALANCER_RANDOM

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
        uint g = balancerPermute(x);
        p = balancerLocate(0u, balancerProcessors, g);
        balancerSolveTask(p, g);
        n++;
    }
    balancerAccount(n);
}

#endif

#if BALANCER_STRATEGY == BALANCER_RANDOM_ASSIGNMENT

// Static random assignment (balancer.RandomAssignment): every position x of
// the permuted task order goes to lane dpglRandomLane(x), drawn uniformly
// and independently, so the lanes' counts vary (binomially, about S/L
// each). balancer/random_counts.comp counted each lane's positions and an
// exclusive scan of the counts put them at balancerStarts: lane l takes
// the tasks pi(x) for x in [start[l], start[l+1]), pi(x) being as random a
// set of that many tasks as the positions drawn for it.
uniform uint balancerStarts; // word index of start[0..L] in balancerState

void balancerIteration() {
    uint lane = dpglGlobalIndex();
    if (lane >= balancerLanes) {
        return;
    }
    uint first = balancerState[balancerStarts + lane], end = balancerState[balancerStarts + lane + 1u];
    uint n = 0u;
    for (uint x = first; x < end; x++) {
        uint g = balancerPermute(x);
        balancerSolveTask(balancerLocate(0u, balancerProcessors, g), g);
        n++;
    }
    balancerAccount(n);
}

#endif
