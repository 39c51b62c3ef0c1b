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
// The divisions below by doubles, corrected in exact integers: llvmpipe
// has no vector integer division and divides a lane at a time, doubles a
// vector at a time.

// balancerCeilDiv is ceil(a / b) for b > 0: the double quotient of two
// 32-bit integers is within 2^-20 of the true one, so its ceiling is off
// by at most one, which products below 2^34, exact in doubles, correct.
uint balancerCeilDiv(uint a, uint b) {
    double da = double(a), db = double(b);
    double c = ceil(da / db);
    if ((c - 1.0) * db >= da) {
        c -= 1.0;
    } else if (c * db < da) {
        c += 1.0;
    }
    return uint(c);
}

double balancerU64Double(uint64_t v) {
    uvec2 w = unpackUint2x32(v);
    return double(w.y) * 4294967296.0 + double(w.x);
}

// balancerDiv64 is floor(num / den) for num < 2^63, 0 < den < 2^63 and a
// quotient below 2^32: the double estimate is within 2^-20 of it, so one
// step corrects its floor; the remainder's sign is its high word's (Mesa
// 22 miscompiles some 64-bit comparisons: see raster.glsl's neg64).
uint balancerDiv64(uint64_t num, uint64_t den) {
    uint q = uint(floor(balancerU64Double(num) / balancerU64Double(den)));
    uint64_t r = num - uint64_t(q) * den;
    if (int(unpackUint2x32(r).y) < 0) {
        return q - 1u;
    }
    if (int(unpackUint2x32(r - den).y) >= 0) {
        return q + 1u;
    }
    return q;
}

uvec2 assignOf(uint w, uint n, uint avg, uint numIdle, uint64_t sum, uint64_t maskedSum) {
    if (w == 0u) {
        return uvec2(0u);
    }
#if VARIANT == 2
    // w*n < 2^63 and sum >= w, so the quotient is at most n.
    uint a = min(max(balancerDiv64(uint64_t(w) * uint64_t(n), sum), 1u), w);
#else
    if (!isMasked(w, avg) || numIdle == 0u) {
        return uvec2(1u, w);
    }
    // w*numIdle < 2^63 (numIdle < P < 2^31) and maskedSum >= w, so the
    // quotient is at most numIdle: q + 1 fits in a uint.
    uint a = min(balancerDiv64(uint64_t(w) * uint64_t(numIdle), maskedSum) + 1u, w);
#endif
    uint c = balancerCeilDiv(w, a);
    // Chunks of c need ceil(w/c) processors: the last then gets 1..c.
    return uvec2(balancerCeilDiv(w, c), c);
}
