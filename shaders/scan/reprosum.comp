#version 450
// reprosum: the reproducible float sum. Every float32 is an integer
// multiple of 2^-149 below 2^128, so the exact sum of up to 2^31 of them
// is an integer of at most 308 bits in units of 2^-149. Each invocation
// adds its floats exactly into DIGITS signed 16-bit digits held in ints
// (digit k weighs 2^(16k - 149); a float's 24-bit significand shifted by
// its exponent touches three of them), which leave room for 2^15 additions
// before a carry must move; the work group adds its invocations' digits,
// and the sum is rounded once, to nearest, ties to even. Integer additions
// are associative, so the bits do not depend on the order, the group size,
// the number of groups or the driver.
//
// PASS 0: each group sums ITEMS 16-byte vectors per invocation (strided by
// the group size, as the copy kernel) and writes its digits, normalized,
// to partial[group * WORDS ...], or, when it is the only group, the
// rounded sum to dst[at]. PASS 1: one group sums the groups' digits and
// writes the rounded sum to dst[at]. Infinities and NaNs are kept as flags
// beside the digits: NaN if any NaN or both infinities, else the infinity.
//
// lint: PASS=0
// lint: PASS=1 WG_SIZE=32

#ifndef WG_SIZE
#define WG_SIZE 64
#endif
#ifndef ITEMS
#define ITEMS 4
#endif
#ifndef PASS
#define PASS 0
#endif

#define DIGITS 20
#define WORDS (DIGITS + 1) // the digits and the flags
#define FLAG_POS 1
#define FLAG_NEG 2
#define FLAG_NAN 4

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"

uniform uint n;      // PASS 0: floats; PASS 1: groups of PASS 0
uniform uint at;     // where the sum goes in dst
uniform uint single; // PASS 0: 1 when it runs as one group, which rounds

layout(std430, binding = 0) readonly buffer SrcVec { uvec4 src4[]; };
layout(std430, binding = 1) readonly buffer SrcOne { uint src1[]; };
layout(std430, binding = 2) buffer Partial { int partial[]; };
layout(std430, binding = 3) writeonly buffer Dst { uint dst[]; };

shared int digitsOf[WORDS][WG_SIZE];
shared int total[WORDS];

int acc[WORDS];

// normalize moves every digit's carry up: digits 0..DIGITS-2 end in
// [0, 2^16), the top one holds the sign.
void normalize() {
    for (int k = 0; k < DIGITS - 1; k++) {
        int c = acc[k] >> 16; // arithmetic: floor(acc[k] / 2^16)
        acc[k] -= c << 16;
        acc[k + 1] += c;
    }
}

// addFloat adds the float of bits b exactly.
void addFloat(uint b) {
    uint e = (b >> 23) & 0xFFu;
    uint m = b & 0x7FFFFFu;
    if (e == 255u) {
        acc[DIGITS] |= m != 0u ? FLAG_NAN : (b >> 31 != 0u ? FLAG_NEG : FLAG_POS);
        return;
    }
    uint sh = 0u; // the significand's shift in units of 2^-149
    if (e != 0u) {
        m |= 0x800000u;
        sh = e - 1u;
    }
    // m << sh, 24 bits shifted by up to 253, as digits k, k+1, k+2:
    // bits 0-15 of m << s, 16-31 and the rest (m >> (16 - s) holds
    // bits 16 and up, s < 16).
    uint k = sh >> 4, s = sh & 15u;
    uint t = m >> (16u - s);
    int d0 = int((m << s) & 0xFFFFu), d1 = int(t & 0xFFFFu), d2 = int(t >> 16);
    if (b >> 31 != 0u) {
        d0 = -d0;
        d1 = -d1;
        d2 = -d2;
    }
    acc[k] += d0;
    acc[k + 1u] += d1;
    acc[k + 2u] += d2;
}

// rounded returns the float bits nearest the normalized acc, ties to even.
uint rounded() {
    int f = acc[DIGITS];
    if ((f & FLAG_NAN) != 0 || (f & (FLAG_POS | FLAG_NEG)) == (FLAG_POS | FLAG_NEG)) {
        return 0x7FC00000u;
    }
    if (f != 0) {
        return f == FLAG_POS ? 0x7F800000u : 0xFF800000u;
    }
    uint sign = 0u;
    if (acc[DIGITS - 1] < 0) {
        sign = 0x80000000u;
        for (int k = 0; k < DIGITS; k++) {
            acc[k] = -acc[k];
        }
        normalize();
    }
    int h = DIGITS - 1;
    while (h >= 0 && acc[h] == 0) {
        h--;
    }
    if (h < 0) {
        return 0u; // an exact zero is +0
    }
    uint hi = uint(acc[h]);
    int p = findMSB(hi);
    int msb = 16 * h + p; // the sum's top bit, in units of 2^-149
    if (msb < 24) {
        // Below 2^24 units every integer is a float, its bits the
        // integer itself (subnormal below 2^23, exponent 1 above).
        return sign | (uint(acc[0]) | (h >= 1 ? uint(acc[1]) << 16 : 0u));
    }
    // The window W of digits h, h-1, h-2 (48 bits: hi2 its bits 16-47,
    // lo its bits 0-15) holds the top bit at 32 + p; the significand is
    // W >> r, the guard bit W's bit r - 1.
    uint mid = uint(acc[h - 1]);
    uint lo = h >= 2 ? uint(acc[h - 2]) : 0u;
    bool sticky = false;
    for (int k = 0; k < h - 2; k++) {
        sticky = sticky || acc[k] != 0;
    }
    uint hi2 = (hi << 16) | mid;
    int r = 9 + p; // 32 + p - 23
    uint m = r >= 16 ? hi2 >> (r - 16) : (hi2 << (16 - r)) | (lo >> r);
    int g = r - 1;
    uint guard;
    bool rest;
    if (g >= 16) {
        guard = (hi2 >> (g - 16)) & 1u;
        rest = (hi2 & ((1u << (g - 16)) - 1u)) != 0u || lo != 0u;
    } else {
        guard = (lo >> g) & 1u;
        rest = (lo & ((1u << g) - 1u)) != 0u;
    }
    if (guard == 1u && (rest || sticky || (m & 1u) == 1u)) {
        m++;
    }
    int e = msb - 22; // the biased exponent: m * 2^(msb - 23 - 149)
    if (m == 0x1000000u) {
        m >>= 1;
        e++;
    }
    if (e >= 255) {
        return sign | 0x7F800000u;
    }
    return sign | (uint(e) << 23) | (m & 0x7FFFFFu);
}

// combine adds the group's accumulators into acc of invocation 0, which it
// normalizes.
void combine() {
    uint l = gl_LocalInvocationID.x;
    for (int k = 0; k < WORDS; k++) {
        digitsOf[k][l] = acc[k];
    }
    barrier();
    // Invocation k sums digit k over the group: normalized digits below
    // 2^16 (the top one small), WG_SIZE of them, fit an int.
    for (uint k = l; k < uint(WORDS); k += uint(WG_SIZE)) {
        int sum = 0;
        for (uint i = 0u; i < uint(WG_SIZE); i++) {
            sum = k == uint(DIGITS) ? sum | digitsOf[k][i] : sum + digitsOf[k][i];
        }
        total[k] = sum;
    }
    barrier();
    if (l == 0u) {
        for (int k = 0; k < WORDS; k++) {
            acc[k] = total[k];
        }
        normalize();
    }
}

void main() {
    for (int k = 0; k < WORDS; k++) {
        acc[k] = 0;
    }
#if PASS == 0
    uint base = dpglGroupIndex() * uint(WG_SIZE * ITEMS) + gl_LocalInvocationID.x;
    for (uint q = 0u; q < uint(ITEMS); q++) {
        uint j = base + q * uint(WG_SIZE);
        uint e = 4u * j;
        if (e + 3u < n) {
            uvec4 v = src4[j];
            addFloat(v.x);
            addFloat(v.y);
            addFloat(v.z);
            addFloat(v.w);
        } else {
            for (uint i = e; i < n && i < e + 4u; i++) {
                addFloat(src1[i]);
            }
        }
    }
    normalize();
    combine();
    if (gl_LocalInvocationID.x == 0u) {
        if (single != 0u) {
            dst[at] = rounded();
        } else {
            uint g = dpglGroupIndex() * uint(WORDS);
            for (int k = 0; k < WORDS; k++) {
                partial[g + uint(k)] = acc[k];
            }
        }
    }
#else
    // Each group's digits are normalized (each below 2^16): an invocation
    // adds 2^14 groups' at most between carries.
    uint c = 0u;
    for (uint g = gl_LocalInvocationID.x; g < n; g += uint(WG_SIZE)) {
        for (int k = 0; k < DIGITS; k++) {
            acc[k] += partial[g * uint(WORDS) + uint(k)];
        }
        acc[DIGITS] |= partial[g * uint(WORDS) + uint(DIGITS)];
        if (++c == 0x4000u) {
            normalize();
            c = 0u;
        }
    }
    normalize();
    combine();
    if (gl_LocalInvocationID.x == 0u) {
        dst[at] = rounded();
    }
#endif
}
