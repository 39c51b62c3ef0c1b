// Keys as the sort sees them: the bits of a uint32, int32 or float32 key
// (KEY 0, 1, 2) loaded ITEMS at a time, and their ordered form, a uint
// whose unsigned order is the sort's order.

#ifndef KEY
#define KEY 0
#endif

uniform uint n;        // keys
uniform uint descMask; // 0xFFFFFFFF sorts descending: the ordered form inverted

// Each array is bound twice: the vector view for whole vectors, the scalar
// view for the last, partial one (which the vector view would read past
// the end of the bound range).
layout(std430, binding = 0) readonly buffer KeysVec { uvec4 keys4[]; };
layout(std430, binding = 1) readonly buffer KeysOne { uint keys1[]; };

// ordered maps a key's bits to a uint that orders as the key: int32 by
// flipping the sign bit; float32 by flipping the sign bit of positives and
// every bit of negatives (so -Inf < ... < -0 < +0 < ... < +Inf), and every
// NaN, whatever its sign and payload, to the top (after +Inf).
uint ordered(uint b) {
#if KEY == 1
    b ^= 0x80000000u;
#elif KEY == 2
    if ((b & 0x7FFFFFFFu) > 0x7F800000u) {
        b = 0xFFFFFFFFu;
    } else {
        b ^= (b >> 31) != 0u ? 0xFFFFFFFFu : 0x80000000u;
    }
#endif
    return b ^ descMask;
}

// firstKey is the index of this invocation's first key in tile: it holds
// keys firstKey .. firstKey+ITEMS-1 (those below n).
uint firstKey(uint tile) {
    return (tile * uint(WG_SIZE) + gl_LocalInvocationIndex) * uint(ITEMS);
}

// loadVec returns keys e .. e+3 (e a multiple of 4); those at or past n
// are 0 and must be skipped by the caller.
uvec4 loadVec(uint e) {
    if (e + 3u < n) {
        return keys4[e / 4u];
    }
    uvec4 x = uvec4(0u);
    for (uint j = 0u; j < 4u; j++) {
        if (e + j < n) {
            x[j] = keys1[e + j];
        }
    }
    return x;
}
