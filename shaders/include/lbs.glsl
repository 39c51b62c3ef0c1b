// The load-balancing search (moderngpu's term): with offset[] the exclusive
// add-scan of the sizes of LBS_SEGMENTS segments, item g (0 <= g < the sum)
// belongs to the last segment p with offset[p] <= g, as its item
// g - offset[p]. One implementation serves package scan's public
// LoadBalancingSearch (scan/lbs.comp) and package balancer's strategies
// (balancer/loop.glsl), which number their tasks so.
//
// The includer defines, before including this file:
//   LBS_OFFSET(p)  an expression reading offset[p], for p < LBS_SEGMENTS
//   LBS_SEGMENTS   the number of segments, < 2^31
//   LBS_END        a value above every item searched for, read as
//                  offset[LBS_SEGMENTS]

// lbsOffset is offset[p], LBS_END at and past the last segment.
uint lbsOffset(uint p) {
    return p < LBS_SEGMENTS ? LBS_OFFSET(p) : LBS_END;
}

// lbsLocate returns the segment that holds item g, given offset[lo] <= g <
// offset[hi] (offset[LBS_SEGMENTS] = LBS_END): the last p with offset[p]
// <= g, whose size is then nonzero. At most 32 steps. hi is never read,
// so it may be LBS_SEGMENTS.
uint lbsLocate(uint lo, uint hi, uint g) {
    while (hi - lo > 1u) {
        uint mid = lo + (hi - lo) / 2u;
        if (LBS_OFFSET(mid) <= g) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// lbsSeek moves forward from segment p (offset[p] <= g) to the one that
// holds g: probes p+1, p+2, p+4, ... until an offset exceeds g (it does
// at LBS_SEGMENTS), then searches the last stride. Items of one segment
// cost one probe; a jump of d segments about 2*log2(d).
uint lbsSeek(uint p, uint g) {
    uint lo = p, hi = p + 1u, step = 1u;
    while (lbsOffset(hi) <= g) {
        lo = hi;
        step *= 2u;
        hi = min(lo + step, LBS_SEGMENTS); // LBS_SEGMENTS < 2^31: no wrap
    }
    return lbsLocate(lo, hi, g);
}
