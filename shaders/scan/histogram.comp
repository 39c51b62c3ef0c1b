#version 450
// histogram: counts[b] += the samples in bin b, for samples of TYPE (elem.glsl)
// and bins
//   RANGE 0 (even): bins equal parts of [lower, upper): integers
//           b = floor((x - lower) * bins / (upper - lower)), exactly;
//           floats b = min(floor((x - lower) * scale), bins - 1), with
//           scale = float(bins) / (upper - lower) rounded once, on the host
//   RANGE 1: boundaries[b] <= x < boundaries[b + 1], boundaries sorted
//           ascending (bins + 1 of them), found by a search of fixed
//           steps (binOf).
// Samples outside the bins, and NaN (every comparison with it is false),
// count nowhere. Counts wrap around at 2^32.
//
// Privatized (SHARED_BINS > 0, bins <= SHARED_BINS): each group counts its
// samples into shared memory, then adds each nonzero bin to counts with one
// atomic; else every sample is a global atomic. Privatized per invocation
// (PRIVATE_BINS > 0, bins <= PRIVATE_BINS, for CPU drivers, where every
// atomic is a locked instruction per lane): each invocation counts into
// words of its own in shared memory, without atomics, and the group sums
// them per bin at the end. A group takes tiles of
// WG_SIZE*ITEMS consecutive 16-byte vectors of samples, grid-stride over
// the dispatch's groups, its invocations reading consecutive vectors.
// Samples are bound twice, as vectors and as scalars for the last, partial
// vector (see load.glsl).
//
// lint: RANGE=1 TYPE=2 SHARED_BINS=0
// lint: RANGE=0 TYPE=1 SHARED_BINS=256 WG_SIZE=64
// lint: RANGE=0 TYPE=2 SHARED_BINS=4096
// lint: RANGE=1 TYPE=0 SHARED_BINS=1024
// lint: RANGE=0 TYPE=2 SHARED_BINS=0 PRIVATE_BINS=256 WG_SIZE=64
// lint: RANGE=1 TYPE=1 SHARED_BINS=0 PRIVATE_BINS=16 WG_SIZE=8

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef RANGE
#define RANGE 0
#endif
#ifndef SHARED_BINS
#define SHARED_BINS 256
#endif
#ifndef ITEMS
#define ITEMS 8
#endif
#ifndef PRIVATE_BINS
#define PRIVATE_BINS 0
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "elem.glsl"

uniform uint n;     // samples
uniform uint bins;  // counts' length, >= 1
uniform uint tiles; // ceil(n / (4 * WG_SIZE * ITEMS))
uniform uint lowerBits, upperBits; // RANGE 0: the range's ends, as bits
uniform float scale; // RANGE 0, floats: bins / (upper - lower)

layout(std430, binding = 0) readonly buffer SamplesVec { uvec4 samples4[]; };
layout(std430, binding = 3) readonly buffer SamplesOne { uint samples1[]; };
layout(std430, binding = 1) readonly buffer Boundaries { uint boundaries[]; };
layout(std430, binding = 2) buffer Counts { uint counts[]; };

#if PRIVATE_BINS > 0
// Word (b/2)*WG_SIZE + t holds invocation t's counts of bins b & ~1 (low
// half) and b | 1 (high half): no two invocations share a word, so they
// count with plain adds. A half cannot overflow: an invocation counts at
// most 2048 samples per dispatch (the host gives a group at most 128
// tiles of 4*ITEMS samples per invocation).
shared uint priv[(PRIVATE_BINS / 2) * WG_SIZE];
#elif SHARED_BINS > 0
shared uint local[SHARED_BINS];
#endif

#if RANGE == 0
// binOf returns x's bin, or bins when x lies outside [lower, upper).
uint binOf(T x) {
    T lower = fromBits(lowerBits);
    T upper = fromBits(upperBits);
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
#else
// Boundaries and samples are compared as keys: unsigned integers in the
// order of T. Floats are compared by ordered bit patterns, not as floats:
// GLSL lets a driver flush denormals to zero in comparisons (lavapipe
// does), which would merge the bins between denormal boundaries; the
// integer order of the keys is exact everywhere. -0 becomes +0 first, so
// that the two compare equal as floats do. NaN samples are left out
// before.
uint key(uint b) {
#if TYPE == 2
    b = b == 0x80000000u ? 0u : b;
    return (b & 0x80000000u) != 0u ? ~b : b | 0x80000000u;
#elif TYPE == 1
    return b ^ 0x80000000u;
#else
    return b;
#endif
}

// The search runs the same steps in every invocation, without branches
// (CPU drivers run 8 invocations to a vector, and load for each lane on
// its own): SPLITS keys of boundaries a stride apart, the same for every
// sample, sit in registers, and log2(SPLITS) halvings of a window of them,
// with selects, give a sample's stride of bins; log2(stride) halving
// steps, each a load from boundaries, find the bin within it. Indices
// past bins read boundaries[bins], which is above every key searched.
// 64 splits: 256 u32 bins on llvmpipe about twice as fast as a binary
// search over boundaries, and 1.1x as fast as 32 or 128 splits, or as
// counting the splits below the key (under load).
#define SPLITS 64
uvec4 split[SPLITS / 4];
uint stride;          // a power of two, SPLITS * stride >= bins
uint lowKey, highKey; // key(boundaries[0]), key(boundaries[bins])

void initSearch() {
    uint p = 1u << findMSB(max(bins, 1u) * 2u - 1u); // >= bins
    stride = max(p / uint(SPLITS), 1u);
    for (uint i = 0u; i < uint(SPLITS / 4); i++) {
        uint b = (4u * i + 1u) * stride;
        split[i] = uvec4(key(boundaries[min(b, bins)]), key(boundaries[min(b + stride, bins)]),
            key(boundaries[min(b + 2u * stride, bins)]), key(boundaries[min(b + 3u * stride, bins)]));
    }
    lowKey = key(boundaries[0]);
    highKey = key(boundaries[bins]);
}

uint binOf(T x) {
    uint k = key(toBits(x));
    bool inside = k >= lowKey && k < highKey;
#if TYPE == 2
    inside = inside && (toBits(x) & 0x7fffffffu) <= 0x7f800000u; // not NaN
#endif
    // The last b with boundaries[b] <= x. Window entry i is the split
    // boundaries[(lo + i + 1) * stride] (lo counting strides); the window's
    // last is above k throughout.
    uvec4 w[SPLITS / 4] = split;
    uint lo = 0u;
    bool up;
#define HALVE(q) \
    up = w[q - 1].w <= k; \
    lo += up ? 4u * q : 0u; \
    for (int j = 0; j < q; j++) { \
        w[j] = up ? w[q + j] : w[j]; \
    }
    HALVE(8)
    HALVE(4)
    HALVE(2)
    HALVE(1)
    up = w[0].y <= k;
    lo += up ? 2u : 0u;
    uvec2 p = up ? w[0].zw : w[0].xy;
    lo += p.x <= k ? 1u : 0u;
    lo *= stride;
    for (uint s = stride >> 1; s != 0u; s >>= 1) {
        uint m = lo + s;
        lo = key(boundaries[min(m, bins)]) <= k ? m : lo;
    }
    return inside ? lo : bins;
}
#endif

void count(uint b) {
#if PRIVATE_BINS > 0
    // A sample outside the bins adds 0 to the last bin's word, without a
    // branch (a CPU driver runs a store under one as a branch per lane):
    // llvmpipe 1.07x faster on 256 bins (under load).
    uint add = b < bins ? 1u << ((b & 1u) << 4) : 0u;
    b = min(b, bins - 1u);
    priv[(b >> 1) * uint(WG_SIZE) + gl_LocalInvocationIndex] += add;
#else
    if (b >= bins) {
        return;
    }
#if SHARED_BINS > 0
    atomicAdd(local[b], 1u);
#else
    atomicAdd(counts[b], 1u);
#endif
#endif
}

void main() {
    uint lid = gl_LocalInvocationID.x;
    uint group = dpglGroupIndex();
    uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
    uint pairs = (bins + 1u) / 2u;
#if RANGE == 1
    initSearch();
#endif
#if PRIVATE_BINS > 0
    for (uint w = lid; w < pairs * uint(WG_SIZE); w += uint(WG_SIZE)) {
        priv[w] = 0u;
    }
    memoryBarrierShared();
    barrier();
#elif SHARED_BINS > 0
    for (uint b = lid; b < bins; b += uint(WG_SIZE)) {
        local[b] = 0u;
    }
    barrier();
#endif
    for (uint t = group; t < tiles; t += groups) {
        uint first = t * uint(WG_SIZE * ITEMS) + lid;
        for (uint k = 0u; k < uint(ITEMS); k++) {
            uint j = first + k * uint(WG_SIZE);
            uint e = 4u * j;
            if (e + 3u < n) {
                uvec4 v = samples4[j];
                count(binOf(fromBits(v.x)));
                count(binOf(fromBits(v.y)));
                count(binOf(fromBits(v.z)));
                count(binOf(fromBits(v.w)));
            } else {
                for (uint q = e; q < n && q < e + 4u; q++) {
                    count(binOf(fromBits(samples1[q])));
                }
            }
        }
    }
#if PRIVATE_BINS > 0
    memoryBarrierShared();
    barrier();
    for (uint q = lid; q < pairs; q += uint(WG_SIZE)) {
        uint lo = 0u, hi = 0u;
        for (uint t = 0u; t < uint(WG_SIZE); t++) {
            uint w = priv[q * uint(WG_SIZE) + t];
            lo += w & 0xFFFFu;
            hi += w >> 16;
        }
        if (lo != 0u) {
            atomicAdd(counts[2u * q], lo);
        }
        if (hi != 0u) { // never for the missing bin of an odd count
            atomicAdd(counts[2u * q + 1u], hi);
        }
    }
#elif SHARED_BINS > 0
    barrier();
    for (uint b = lid; b < bins; b += uint(WG_SIZE)) {
        uint v = local[b];
        if (v != 0u) {
            atomicAdd(counts[b], v);
        }
    }
#endif
}
