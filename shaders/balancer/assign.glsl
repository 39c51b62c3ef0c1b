// Steps 2, 4 and 5 of the information gathering phase for one processor,
// exactly as balancer/info.go's masked, assign and assignFootnote1 compute
// them: its assignment a (the size of its block after redistribution) and
// its new workload value c (every processor of the block but the last gets
// c, the last w - (a-1)*c, between 1 and c). Needs
// GL_ARB_gpu_shader_int64.
//
// VARIANT is balancer.Variant: 0 the integer steps, 1 Unmasked (no mask,
// every active processor shares the idle ones), 2 Footnote1 (every active
// processor's share of all n processors, at least 1).

#ifndef VARIANT
#define VARIANT 0
#endif

bool isMasked(uint w, uint avg) {
#if VARIANT == 0
    return w > avg;
#else
    return w > 0u;
#endif
}

// returns (a, c); (0, 0) for an idle processor. n is P, sum Σ workload,
// maskedSum sum_workload.
uvec2 assignOf(uint w, uint n, uint avg, uint numIdle, uint64_t sum, uint64_t maskedSum) {
    if (w == 0u) {
        return uvec2(0u);
    }
#if VARIANT == 2
    // w*n < 2^63 and sum >= w, so the quotient is at most n.
    uint64_t q = uint64_t(w) * uint64_t(n) / sum;
    uint a = uint(min(max(q, 1ul), uint64_t(w)));
#else
    if (!isMasked(w, avg) || numIdle == 0u) {
        return uvec2(1u, w);
    }
    // w*numIdle < 2^64 and maskedSum >= w, so the quotient fits in a uint.
    uint64_t q = uint64_t(w) * uint64_t(numIdle) / maskedSum;
    uint a = uint(min(q + 1ul, uint64_t(w)));
#endif
    uint c = dpglCeilDiv(w, a);
    // Chunks of c need ceil(w/c) processors: the last then gets 1..c.
    return uvec2(dpglCeilDiv(w, c), c);
}
