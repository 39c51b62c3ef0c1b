// Steps 2, 4 and 5 of the information gathering phase for one processor,
// exactly as balancer/info.go's masked and assign compute them: its
// assignment a (the size of its block after redistribution) and its new
// workload value c (every processor of the block but the last gets c, the
// last w - (a-1)*c, between 1 and c). Needs GL_ARB_gpu_shader_int64.
//
// FLOAT_VARIANT 1 is footnote 1 of §2.3: no mask, every active processor
// shares the idle ones.

#ifndef FLOAT_VARIANT
#define FLOAT_VARIANT 0
#endif

bool isMasked(uint w, uint avg) {
#if FLOAT_VARIANT
    return w > 0u;
#else
    return w > avg;
#endif
}

// returns (a, c); (0, 0) for an idle processor.
uvec2 assignOf(uint w, uint avg, uint numIdle, uint64_t maskedSum) {
    if (w == 0u) {
        return uvec2(0u);
    }
    if (!isMasked(w, avg) || numIdle == 0u) {
        return uvec2(1u, w);
    }
    // w*numIdle < 2^64 and maskedSum >= w, so the quotient fits in a uint.
    uint64_t q = uint64_t(w) * uint64_t(numIdle) / maskedSum;
    uint a = uint(min(q + 1ul, uint64_t(w)));
    uint c = dpglCeilDiv(w, a);
    // Chunks of c need ceil(w/c) processors: the last then gets 1..c.
    return uvec2(dpglCeilDiv(w, c), c);
}
