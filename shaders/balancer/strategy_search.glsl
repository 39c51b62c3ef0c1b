// Search (balancer.Search).

#if BALANCER_STRATEGY == BALANCER_SEARCH

// Load-balancing search: one invocation per task, which finds its processor
// by binary search over the offsets.
void balancerIteration() {
    uint g = dpglGlobalIndex();
    if (g >= balancerTasks) {
        return;
    }
    balancerSolveTask(balancerLocate(0u, balancerProcessors, g), g);
}

#endif
