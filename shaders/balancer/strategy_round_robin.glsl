// Round robin (balancer.RoundRobin): static assignment, lane l takes
// positions l, l+L, l+2L, ... of the task order: exactly ceil((S - l) / L)
// tasks, fixed before the dispatch, each found by walking forward from the
// last one.

#if BALANCER_STRATEGY == BALANCER_ROUND_ROBIN

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
        p = j == 0u ? balancerLocate(0u, balancerProcessors, x) : balancerSeek(p, x);
        balancerSolveTask(p, x);
        n++;
    }
    balancerAccount(n);
}

#endif
