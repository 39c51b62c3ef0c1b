// Work pool (balancer.WorkPool).

#if BALANCER_STRATEGY == BALANCER_WORK_POOL

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

#endif
