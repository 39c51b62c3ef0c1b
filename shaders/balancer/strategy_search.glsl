// Search (balancer.Search).

#if BALANCER_STRATEGY == BALANCER_SEARCH

// Load-balancing search: one invocation per task, which finds its processor
// by binary search over the offsets. A work group's tasks are consecutive,
// [first, first + size), so one invocation finds the processors of the
// first and the last, and the others search only between them: about
// log2(processors a group's tasks span) steps each instead of log2(P).
// Every invocation of the dispatch reaches the barrier (the contract of
// balancerIteration), those past the tasks included.
shared uint balancerGroupLo, balancerGroupHi;

void balancerIteration() {
    uint g = dpglGlobalIndex();
    uint first = g - gl_LocalInvocationID.x;
    if (gl_LocalInvocationID.x == 0u && first < balancerTasks) {
        uint last = min(first + (gl_WorkGroupSize.x - 1u), balancerTasks - 1u);
        uint lo = balancerLocate(0u, balancerProcessors, first);
        balancerGroupLo = lo;
        // offset[hi] > last, so every task of the group lies in [lo, hi).
        balancerGroupHi = balancerLocate(lo, balancerProcessors, last) + 1u;
    }
    barrier();
    if (g >= balancerTasks) {
        return;
    }
    balancerSolveTask(balancerLocate(balancerGroupLo, balancerGroupHi, g), g);
}

#endif
