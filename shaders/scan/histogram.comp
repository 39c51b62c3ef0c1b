#version 450
// histogram: counts[b] += the samples in bin b, for samples of TYPE (elem.glsl)
// and bins
//   RANGE 0 (even): bins equal parts of [lower, upper): integers
//           b = floor((x - lower) * bins / (upper - lower)), exactly;
//           floats b = min(floor((x - lower) * scale), bins - 1), with
//           scale = float(bins) / (upper - lower) rounded once, on the host
//   RANGE 1: boundaries[b] <= x < boundaries[b + 1], boundaries sorted
//           ascending (bins + 1 of them), found from a lookup table on
//           the keys' high bits that PASS 0 builds (binOf), by PASS 1
//           with LOOP 0 or 1, dispatched indirectly.
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
// lint: RANGE=1 TYPE=2 PASS=0 WG_SIZE=64
// lint: RANGE=1 TYPE=0 SHARED_BINS=0 PRIVATE_BINS=256 WG_SIZE=64 LOOP=1
// lint: RANGE=1 TYPE=2 SHARED_BINS=0 PRIVATE_BINS=256 WG_SIZE=64 TEXELS=1

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
#ifndef PASS
#define PASS 1
#endif
#ifndef LOOP
#define LOOP 0
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
// RANGE 1: the search's lookup table of 2^tableBits entries (binOf),
// after the indirect arguments of PASS 1's two dispatches: LOOP 0 at
// args[0..2], LOOP 1 at args[4..6]; the rest of args pads the table to
// 256 bytes, the largest GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT GL allows, so
// that LOOP 0 reads its entries as texels (TEXELS: one entry a texel; a
// CPU driver fetches a texel for 8 lanes with one gather, where a storage
// load whose address differs between lanes is a scalar load per lane).
uniform uint tableBits;
uniform uint loopGroups; // PASS 0: the groups of PASS 1
layout(std430, binding = 4) buffer Table {
    uint args[64];
    uint table[]; // the entries for LOOP 0, then those for LOOP 1
};
#ifndef TEXELS
#define TEXELS 0
#endif
#if TEXELS
layout(binding = 0) uniform usamplerBuffer tableTexels; // table's LOOP 0 part
#endif

#if PRIVATE_BINS > 0
// Word (b/2)*WG_SIZE + t holds invocation t's counts of bins b & ~1 (low
// half) and b | 1 (high half): no two invocations share a word, so they
// count with plain adds. A half cannot overflow: an invocation counts at
// most 2048 samples per dispatch (the host gives a group at most 64
// tiles of 4*ITEMS = 32 samples per invocation).
shared uint priv[(PRIVATE_BINS / 2) * WG_SIZE];
#elif SHARED_BINS > 0
shared uint local[SHARED_BINS];
#endif

#if RANGE == 0
#include "histbin.glsl"
// binOf returns x's bin, or bins when x lies outside [lower, upper).
uint binOf(T x) {
    return evenBin(x, fromBits(lowerBits), fromBits(upperBits), scale, bins);
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

// The search starts from a lookup table that PASS 0 builds, one
// invocation a bucket. The keys from key(boundaries[0]) up are cut into
// 2^tableBits buckets of 2^shift keys each (as few as cover the range to
// key(boundaries[bins])); lo and hi are the bins of a bucket's first and
// last key (lo the last b with boundaries[b] <= the first, 0 if none), so
// that a sample's bin lies in lo .. hi. Where every bucket holds at most
// one boundary after lo (hi <= lo + 1), there are at most 4096 bins and
// buckets of at most 2^19 keys, LOOP 0 finds the bin in one word a bucket:
// lo in its low 12 bits and in the high 20 the offset of boundary lo+1 in
// the bucket (0xFFFFF, above every offset, where hi = lo), so the bin is
// lo, or lo + 1 from that offset on. Else LOOP 1 searches lo .. hi by
// halves, loading log2(hi - lo) boundaries, with lo in the low 25 bits of
// its own word and hi - lo in the high 7 (SPAN_ALL: up to the last bin).
// PASS 0 says which in the indirect dispatch arguments it leaves in args:
// each dispatch of PASS 1 reads its own, and the other runs no groups. A
// CPU driver runs 8 invocations to a vector and loads for each lane on
// its own (a 16-byte load as four): one load a sample, where 64 splits in
// registers and two loads from boundaries (for 256 bins) ran about 1.4x as
// long on llvmpipe (CPU time, under load); a loop, even one that no lane
// enters, costs about as much as a load.
#define SPAN_ALL 127u
#define FAST_BINS 4096u
#define FAST_SHIFT 19u
uint lowKey, highKey; // key(boundaries[0]), key(boundaries[bins])
uint shift;           // log2 of a bucket's keys

void initSearch() {
    lowKey = key(boundaries[0]);
    highKey = key(boundaries[bins]);
    uint range = highKey > lowKey ? highKey - lowKey : 1u;
    uint need = uint(findMSB(range - 1u) + 1); // range <= 2^need (0 for 1)
    shift = need > tableBits ? need - tableBits : 0u;
}

// bucket is the table entry of key k, which lies in the bins (any entry
// else).
uint bucket(uint k) {
    return ((k - lowKey) >> shift) & ((1u << tableBits) - 1u);
}

#if PASS == 0
// lastAtMost is the last b in 0 .. bins with key(boundaries[b]) <= k for
// sorted boundaries, 0 if there is none.
uint lastAtMost(uint k) {
    uint first = 0u, len = bins + 1u; // boundaries[first..] > k past len
    while (len > 0u) {
        uint h = len / 2u;
        if (key(boundaries[first + h]) <= k) {
            first += h + 1u;
            len -= h + 1u;
        } else {
            len = h;
        }
    }
    return max(first, 1u) - 1u;
}
#endif

uint binOf(T x) {
    uint k = key(toBits(x));
    bool inside = k >= lowKey && k < highKey;
#if TYPE == 2
    inside = inside && (toBits(x) & 0x7fffffffu) <= 0x7f800000u; // not NaN
#endif
    // The last b in lo .. hi with boundaries[b] <= x: for a sample inside
    // the bins, boundaries[lo] <= x (or lo = 0) and boundaries[hi+1] > x.
#if LOOP
    uint e = table[(1u << tableBits) + bucket(k)];
    uint lo = e & 0x1FFFFFFu;
    uint span = e >> 25;
    uint hi = span == SPAN_ALL ? bins - 1u : lo + span;
    while (lo < hi) {
        uint mid = (lo + hi + 1u) >> 1;
        if (key(boundaries[mid]) <= k) {
            lo = mid;
        } else {
            hi = mid - 1u;
        }
    }
#else
#if TEXELS
    uint e = texelFetch(tableTexels, int(bucket(k))).x;
#else
    uint e = table[bucket(k)];
#endif
    uint off = (k - lowKey) & ((1u << shift) - 1u);
    uint lo = (e & 0xFFFu) + (off >= e >> 12 ? 1u : 0u);
#endif
    return inside ? lo : bins;
}
#endif

#if RANGE == 1 && PASS == 0
// Bucket h's entries: the bins lo and hi of its first and last key inside
// the bins, clamped to the last bin. A bucket that LOOP 0 cannot serve
// switches PASS 1 to LOOP 1.
void main() {
    initSearch();
    uint h = dpglGlobalIndex();
    if (h >= 1u << tableBits) {
        return;
    }
    uint lo = bins - 1u, span = 0u;
    uint off = h << shift; // < 2^32: h < 2^tableBits, shift <= 32 - tableBits < 32
    if (highKey > lowKey && off < highKey - lowKey) {
        uint first = lowKey + off;
        uint last = first + min((1u << shift) - 1u, highKey - 1u - first);
        lo = min(lastAtMost(first), bins - 1u);
        span = min(lastAtMost(last), bins - 1u);
        span = span > lo ? span - lo : 0u;
    }
    uint split = 0xFFFFFu;
    if (span == 1u) {
        split = key(boundaries[lo + 1u]) - (lowKey + off);
    }
    table[h] = (lo & 0xFFFu) | split << 12;
    table[(1u << tableBits) + h] = lo | min(span, SPAN_ALL) << 25;
    if (span > 1u || bins > FAST_BINS || shift > FAST_SHIFT) {
        args[0] = 0u;        // the fast dispatch runs no groups
        args[4] = loopGroups; // the loop's runs them all
    }
}
#else
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
        if ((t + 1u) * uint(4 * WG_SIZE * ITEMS) <= n) {
            // A whole tile: the bins of two vectors' eight samples before
            // any count, so that no lookup waits behind a count's store.
            for (uint k = 0u; k < uint(ITEMS); k += 2u) {
                uvec4 v = samples4[first + k * uint(WG_SIZE)];
                uvec4 w = samples4[first + (k + 1u) * uint(WG_SIZE)];
                uvec4 b = uvec4(binOf(fromBits(v.x)), binOf(fromBits(v.y)),
                                binOf(fromBits(v.z)), binOf(fromBits(v.w)));
                uvec4 c = uvec4(binOf(fromBits(w.x)), binOf(fromBits(w.y)),
                                binOf(fromBits(w.z)), binOf(fromBits(w.w)));
                count(b.x);
                count(b.y);
                count(b.z);
                count(b.w);
                count(c.x);
                count(c.y);
                count(c.z);
                count(c.w);
            }
            continue;
        }
        for (uint k = 0u; k < uint(ITEMS); k++) {
            uint j = first + k * uint(WG_SIZE);
            uint e = 4u * j;
            if (e + 3u < n) {
                uvec4 v = samples4[j];
                uvec4 b = uvec4(binOf(fromBits(v.x)), binOf(fromBits(v.y)),
                                binOf(fromBits(v.z)), binOf(fromBits(v.w)));
                count(b.x);
                count(b.y);
                count(b.z);
                count(b.w);
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
#endif
