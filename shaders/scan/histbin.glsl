// evenBin is x's bin among bins equal bins over [lower, upper), or bins
// when x lies outside it (TYPE of elem.glsl): for floats
// min(floor((x - lower) * scale), bins - 1), scale = bins / (upper -
// lower) rounded once on the host; for integers floor((x - lower) * bins /
// (upper - lower)), exact. HistogramEven's and the multi-channel
// histogram's.
uint evenBin(T x, T lower, T upper, float scale, uint bins) {
    if (!(x >= lower && x < upper)) {
        return bins;
    }
#if TYPE == 2
    precise float f = (x - lower) * scale;
    return min(uint(f), bins - 1u);
#else
    // d < r, so the quotient q = floor(d * bins / r) < bins. A float
    // estimate is within a step or two of it for bins < 2^22; exact 64-bit
    // products (umulExtended) correct it.
    uint d = uint(x) - uint(lower);
    uint r = uint(upper) - uint(lower);
    uint q = min(uint(float(d) * (float(bins) / float(r))), bins - 1u);
    uint pHi, pLo;
    umulExtended(d, bins, pHi, pLo);
    for (;;) { // q * r > d * bins: q too high
        uint hi, lo;
        umulExtended(q, r, hi, lo);
        if (q == 0u || hi < pHi || hi == pHi && lo <= pLo) {
            break;
        }
        q--;
    }
    for (;;) { // (q + 1) * r <= d * bins: q too low
        uint hi, lo;
        umulExtended(q + 1u, r, hi, lo);
        if (q + 1u >= bins || hi > pHi || hi == pHi && lo > pLo) {
            break;
        }
        q++;
    }
    return q;
#endif
}
