#version 450
// radix: the kernels of package scan/radix's stable LSD radix sort, one
// digit of DIGIT_BITS bits per pass, RADIX = 2^DIGIT_BITS buckets.
//
//   STAGE 0  histograms: the digit counts of every pass in one read of
//            the keys from memory (one tile per group, counted once per
//            pass as in STAGE 2), added into hist.
//   STAGE 1  bases: hist[p][d] becomes the number of keys whose pass-p
//            digit is below d (an exclusive scan per pass, in place).
//   STAGE 2  tile counts (the counts path): counts[d*numTiles + tile] =
//            the keys of the tile with digit d; the host then scans counts
//            (digit-major, so each entry becomes the tile's first output
//            position for the digit) with package scan's reduce-then-scan.
//            The tile's scanned counter matrix goes to columns, so that
//            the scatter ranks without counting the tile again.
//   STAGE 3  scatter: each tile ranks its keys stably and writes them (and
//            their values) to base[d] + rank. The tile's base per digit
//            comes from the scanned counts (LOOKBACK 0), or (LOOKBACK 1)
//            from the bases of STAGE 1 plus a decoupled look-back over the
//            counts the tiles before it publish (radixlb.glsl).
//
// A tile is WG_SIZE invocations of ITEMS consecutive keys each ("blocked"):
// invocation t holds keys t*ITEMS .. t*ITEMS+ITEMS-1 of the tile. Ranking
// is stable by construction: invocation t counts its keys' digits in its
// own column of the shared matrix cnt, each row (digit pair) is scanned
// across the columns, and t then walks its keys in order, so a key's rank
// is (keys with its digit in columns before t) + (before it in t).
//
// lint: STAGE=0 KEY=2 DIGIT_BITS=8 WG_SIZE=32 ITEMS=1024
// lint: STAGE=1 DIGIT_BITS=8 WG_SIZE=32
// lint: STAGE=2 KEY=1 DIGIT_BITS=1 WG_SIZE=8 ITEMS=4
// lint: STAGE=3 LOOKBACK=0 KEY=2 RECORD_WORDS=3
// lint: STAGE=3 LOOKBACK=1 KEY=1 DIGIT_BITS=8 WG_SIZE=32 ITEMS=32 RECORD_WORDS=1
// lint: STAGE=3 LOOKBACK=1 DIGIT_BITS=2 WG_SIZE=8 ITEMS=4 SPIN=0 PUBLISH=0

#ifndef WG_SIZE
#define WG_SIZE 64
#endif
#ifndef ITEMS
#define ITEMS 16
#endif
#ifndef DIGIT_BITS
#define DIGIT_BITS 4
#endif
#ifndef STAGE
#define STAGE 3
#endif
#ifndef LOOKBACK
#define LOOKBACK 1
#endif
#ifndef RECORD_WORDS
#define RECORD_WORDS 0
#endif

#if ITEMS % 4 != 0
#error "ITEMS must be a multiple of 4"
#endif
#if DIGIT_BITS < 1 || DIGIT_BITS > 8
#error "DIGIT_BITS must be 1..8"
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "keys.glsl"

#define RADIX (1 << DIGIT_BITS)
// A row of cnt holds digits d and d+ROWS, in the low and high 16 bits of a
// word: counts stay below 2^16 because a tile holds at most 2^15 keys.
#define ROWS (RADIX / 2)
#define TILE (WG_SIZE * ITEMS)

uniform uint numTiles;
uniform uint pass;      // this pass (STAGE 2, 3)
uniform uint shift;     // its digit's lowest bit
uniform uint digitMask; // its digit's mask (narrower in a last, short pass)

// hist (STAGE 0, 1, 3): RADIX words per pass.
layout(std430, binding = 5) buffer Hist { uint hist[]; };

// cnt[r*WG_SIZE + t]: invocation t's count of digits r (low half) and
// r+ROWS (high half); after countTile, the count in columns before t.
shared uint cnt[ROWS * WG_SIZE];
shared uint tot[RADIX];  // the tile's count of each digit

uint digitOf(uint key) { return (ordered(key) >> shift) & digitMask; }

// countTile fills cnt and tot from this invocation's keys, of which the
// first is element e0, for the digit (ordered(key) >> sh) & m.
void countTile(uint e0, uint sh, uint m) {
    uint t = gl_LocalInvocationIndex;
    for (uint r = 0u; r < uint(ROWS); r++) {
        cnt[r * uint(WG_SIZE) + t] = 0u;
    }
    for (uint i = 0u; i < uint(ITEMS); i += 4u) {
        uvec4 x = loadVec(e0 + i);
        for (uint j = 0u; j < 4u; j++) {
            if (e0 + i + j < n) {
                uint d = (ordered(x[j]) >> sh) & m;
                cnt[(d & uint(ROWS - 1)) * uint(WG_SIZE) + t] += d >= uint(ROWS) ? 0x10000u : 1u;
            }
        }
    }
    memoryBarrierShared();
    barrier();
    // Both halves of a row scan at once: neither carries into the other
    // since a tile's count of one digit is below 2^16.
    for (uint r = t; r < uint(ROWS); r += uint(WG_SIZE)) {
        uint run = 0u;
        for (uint c = 0u; c < uint(WG_SIZE); c++) {
            uint v = cnt[r * uint(WG_SIZE) + c];
            cnt[r * uint(WG_SIZE) + c] = run;
            run += v;
        }
        tot[r] = run & 0xFFFFu;
        tot[r + uint(ROWS)] = run >> 16;
    }
    memoryBarrierShared();
    barrier();
}

#if STAGE == 0
uniform uint passes;
uniform uint begin; // lowest bit of pass 0
uniform uint end;   // one past the highest bit of the last pass

// One tile per group, its keys counted once per pass (the tile stays in
// cache) without atomics: llvmpipe runs shared-memory atomics lane by lane
// as locked instructions, and four of them per key cost more than a pass's
// plain counting.
void main() {
    uint tile = dpglGroupIndex();
    if (tile >= numTiles) {
        return;
    }
    uint e0 = firstKey(tile);
    for (uint p = 0u; p < passes; p++) {
        uint sh = begin + p * uint(DIGIT_BITS);
        countTile(e0, sh, (1u << min(uint(DIGIT_BITS), end - sh)) - 1u);
        for (uint d = gl_LocalInvocationIndex; d < uint(RADIX); d += uint(WG_SIZE)) {
            if (tot[d] != 0u) {
                atomicAdd(hist[p * uint(RADIX) + d], tot[d]);
            }
        }
    }
}

#elif STAGE == 1
uniform uint passes;

void main() {
    for (uint p = gl_LocalInvocationIndex; p < passes; p += uint(WG_SIZE)) {
        uint run = 0u;
        for (uint d = 0u; d < uint(RADIX); d++) {
            uint c = hist[p * uint(RADIX) + d];
            hist[p * uint(RADIX) + d] = run;
            run += c;
        }
    }
}

#elif STAGE == 2
layout(std430, binding = 7) writeonly buffer Counts { uint counts[]; };
layout(std430, binding = 6) writeonly buffer Columns { uint columns[]; };

void main() {
    uint tile = dpglGroupIndex();
    if (tile >= numTiles) {
        return;
    }
    uint t = gl_LocalInvocationIndex;
    countTile(firstKey(tile), shift, digitMask);
    for (uint d = t; d < uint(RADIX); d += uint(WG_SIZE)) {
        counts[d * numTiles + tile] = tot[d];
    }
    // The scanned matrix, which the scatter takes instead of counting the
    // tile again: ROWS words per invocation against its ITEMS keys' loads
    // and counter updates.
    for (uint r = 0u; r < uint(ROWS); r++) {
        columns[(tile * uint(ROWS) + r) * uint(WG_SIZE) + t] = cnt[r * uint(WG_SIZE) + t];
    }
}

#else
shared uint base[RADIX]; // the output position of the tile's first key of each digit

layout(std430, binding = 2) writeonly buffer DstKeys { uint dstKeys[]; };
#if RECORD_WORDS > 0
layout(std430, binding = 3) readonly buffer SrcVals { uint srcVals[]; };
layout(std430, binding = 4) writeonly buffer DstVals { uint dstVals[]; };
#endif
#if LOOKBACK
#include "radixlb.glsl"
#else
layout(std430, binding = 7) readonly buffer Counts { uint counts[]; };
layout(std430, binding = 6) readonly buffer Columns { uint columns[]; };
#endif

void main() {
#if LOOKBACK
    uint tile = takeTicket();
#else
    uint tile = dpglGroupIndex();
#endif
    if (tile >= numTiles) {
        return;
    }
    uint t = gl_LocalInvocationIndex;
    uint e0 = firstKey(tile);
#if LOOKBACK
    countTile(e0, shift, digitMask);
    lookBack(tile);
#else
    // STAGE 2 counted this tile and left its scanned matrix in columns.
    for (uint r = 0u; r < uint(ROWS); r++) {
        cnt[r * uint(WG_SIZE) + t] = columns[(tile * uint(ROWS) + r) * uint(WG_SIZE) + t];
    }
    for (uint d = t; d < uint(RADIX); d += uint(WG_SIZE)) {
        base[d] = counts[d * numTiles + tile];
    }
    memoryBarrierShared();
    barrier();
#endif
    // Only this invocation's column of cnt changes from here on. After
    // countTile the keys are read again (from cache, on a CPU) rather
    // than kept in registers.
    for (uint i = 0u; i < uint(ITEMS); i += 4u) {
        uvec4 x = loadVec(e0 + i);
        for (uint j = 0u; j < 4u; j++) {
            uint e = e0 + i + j;
            if (e < n) {
                uint d = digitOf(x[j]);
                uint at = (d & uint(ROWS - 1)) * uint(WG_SIZE) + t;
                uint w = cnt[at];
                bool hi = d >= uint(ROWS);
                cnt[at] = w + (hi ? 0x10000u : 1u);
                uint to = base[d] + (hi ? w >> 16 : w & 0xFFFFu);
                dstKeys[to] = x[j];
#if RECORD_WORDS > 0
                for (uint w = 0u; w < uint(RECORD_WORDS); w++) {
                    dstVals[to * uint(RECORD_WORDS) + w] = srcVals[e * uint(RECORD_WORDS) + w];
                }
#endif
            }
        }
    }
}
#endif
