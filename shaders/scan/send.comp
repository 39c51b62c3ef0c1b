#version 450
// send: dst[index[i]] = src[i] for records of RECORD_WORDS words, the
// highest i winning where indices collide, in two passes:
//   PASS 0 (one invocation per i): winner[index[i]] = max(.., i+1) for
//          index[i] < dstLen; indices past dst are "do not send".
//   PASS 1 (one invocation per j of dst): where winner[j] = i+1 != 0, copy
//          record i to j and clear winner[j], so the scratch is all zero
//          again for the next call without a separate clear.
// With PASS 2 (the caller promises distinct indices) one pass stores
// directly.
//
// lint: PASS=1 RECORD_WORDS=3
// lint: PASS=2 RECORD_WORDS=2

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef PASS
#define PASS 0
#endif
#ifndef RECORD_WORDS
#define RECORD_WORDS 1
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"

uniform uint n;      // invocations: src records (PASS 0, 2) or dst records (PASS 1)
uniform uint dstLen; // dst records

layout(std430, binding = 0) readonly buffer Src { uint src[]; };
layout(std430, binding = 1) readonly buffer Index { uint index[]; };
layout(std430, binding = 2) buffer Winner { uint winner[]; };
layout(std430, binding = 3) writeonly buffer Dst { uint dst[]; };

void copyRecord(uint to, uint from) {
    for (uint w = 0u; w < uint(RECORD_WORDS); w++) {
        dst[to * uint(RECORD_WORDS) + w] = src[from * uint(RECORD_WORDS) + w];
    }
}

void main() {
    uint i = dpglGlobalIndex();
    if (i >= n) {
        return;
    }
#if PASS == 0
    uint j = index[i];
    if (j < dstLen) {
        atomicMax(winner[j], i + 1u);
    }
#elif PASS == 1
    uint w = winner[i];
    if (w != 0u) {
        copyRecord(i, w - 1u);
        winner[i] = 0u;
    }
#else
    uint j = index[i];
    if (j < dstLen) {
        copyRecord(j, i);
    }
#endif
}
