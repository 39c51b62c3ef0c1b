#version 450
// histmulti: the multi-channel even histogram (CUB's MultiHistogramEven).
// samples holds n pixels of CHANNELS interleaved samples (TYPE of
// elem.glsl); channel c < ACTIVE counts sample c of every pixel into
// counts c (bound at 1 + c) of chBins[c] equal bins over [lower, upper)
// of its own (histbin.glsl's evenBin). SHARED_BINS > 0: each group counts
// into shared memory, channel c at local[chBase[c]], and adds its nonzero
// counts to the global ones at the end; 0: global atomics. Groups stride
// over the pixels, one pixel an invocation a step.
//
// lint: ACTIVE=3 CHANNELS=4 SHARED_BINS=1024
// lint: ACTIVE=1 CHANNELS=2 TYPE=2 SHARED_BINS=0
// lint: ACTIVE=4 CHANNELS=4 TYPE=1 SHARED_BINS=256

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef CHANNELS
#define CHANNELS 4
#endif
#ifndef ACTIVE
#define ACTIVE 3
#endif
#ifndef SHARED_BINS
#define SHARED_BINS 1024
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "elem.glsl"
#include "histbin.glsl"

uniform uint n; // pixels
uniform uint chBins[ACTIVE];
uniform uint chLower[ACTIVE], chUpper[ACTIVE]; // bits
uniform float chScale[ACTIVE];
#if SHARED_BINS > 0
uniform uint chBase[ACTIVE];
shared uint local[SHARED_BINS];
#endif

layout(std430, binding = 0) readonly buffer Samples { uint samples[]; };
layout(std430, binding = 1) buffer Counts0 { uint counts0[]; };
#if ACTIVE > 1
layout(std430, binding = 2) buffer Counts1 { uint counts1[]; };
#endif
#if ACTIVE > 2
layout(std430, binding = 3) buffer Counts2 { uint counts2[]; };
#endif
#if ACTIVE > 3
layout(std430, binding = 4) buffer Counts3 { uint counts3[]; };
#endif

void addGlobal(uint c, uint b, uint k) {
    if (c == 0u) {
        atomicAdd(counts0[b], k);
    }
#if ACTIVE > 1
    else if (c == 1u) {
        atomicAdd(counts1[b], k);
    }
#endif
#if ACTIVE > 2
    else if (c == 2u) {
        atomicAdd(counts2[b], k);
    }
#endif
#if ACTIVE > 3
    else {
        atomicAdd(counts3[b], k);
    }
#endif
}

void main() {
    uint lid = gl_LocalInvocationID.x;
#if SHARED_BINS > 0
    for (uint b = lid; b < uint(SHARED_BINS); b += uint(WG_SIZE)) {
        local[b] = 0u;
    }
    barrier();
#endif
    uint stride = gl_NumWorkGroups.x * gl_NumWorkGroups.y * uint(WG_SIZE);
    for (uint p = dpglGlobalIndex(); p < n; p += stride) {
        for (uint c = 0u; c < uint(ACTIVE); c++) {
            T x = fromBits(samples[p * uint(CHANNELS) + c]);
            uint b = evenBin(x, fromBits(chLower[c]), fromBits(chUpper[c]), chScale[c], chBins[c]);
            if (b < chBins[c]) {
#if SHARED_BINS > 0
                atomicAdd(local[chBase[c] + b], 1u);
#else
                addGlobal(c, b, 1u);
#endif
            }
        }
        if (p + stride < p) {
            break; // the next p would wrap around
        }
    }
#if SHARED_BINS > 0
    barrier();
    for (uint c = 0u; c < uint(ACTIVE); c++) {
        for (uint b = lid; b < chBins[c]; b += uint(WG_SIZE)) {
            uint k = local[chBase[c] + b];
            if (k != 0u) {
                addGlobal(c, b, k);
            }
        }
    }
#endif
}
