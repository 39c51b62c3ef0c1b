// dpglHash is an integer hash (lowbias32, Chris Wellons): a bijection of
// the 32-bit integers whose output bits each depend on every input bit.
uint dpglHash(uint x) {
    x ^= x >> 16;
    x *= 0x7FEB352Du;
    x ^= x >> 15;
    x *= 0x846CA68Bu;
    x ^= x >> 16;
    return x;
}

// dpglRandomLane is the lane that static random assignment
// (balancer.RandomAssignment) draws for position x of the shuffled task
// order: uniform over [0, lanes), independently for each x, seeded.
uint dpglRandomLane(uint x, uint seed, uint lanes) {
    return dpglHash(x ^ dpglHash(seed ^ 0xA511E9B3u)) % lanes;
}
