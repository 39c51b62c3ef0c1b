#version 450
// scan: one level of a device-wide scan, one tile per work group.
//
// Each group loads its tile (load.glsl), scans it in the group (tile.glsl),
// gets the op of everything before the tile (CARRY), and writes (OUT).
//   CARRY 0  the tile is the whole array: the prefix is the init value.
//   CARRY 1  reduce-then-scan: carry[tile] holds the prefix, written by
//            the scan of the level above (partials of reduce.comp).
//   CARRY 2  single pass: decoupled look-back (lookback.glsl).
//   OUT 0    dst[e] = the exclusive or inclusive scan value of e (values of
//            T); with resetAtHeads, exclusive values restart at heads.
//   OUT 1    segmented copy of records of RECORD_WORDS words: dst[e] =
//            src[head of e], the head index found by a max-scan (MAP 2).
//   OUT 2    compaction: record e goes to dst[exclusive count of flags
//            before e] when flags[e] != 0 and that position < dstLen.
//   TOTAL    also write the op of all n elements (bits) to total[totalAt].
//
// lint: TYPE=1 OP=1 CARRY=1
// lint: TYPE=2 OP=2 CARRY=2 WG_SIZE=64 VEC=2
// lint: TYPE=2 OP=0 SEGMENTED=1 CARRY=2 SPIN=0 PUBLISH=0 WG_SIZE=8 WINDOW=8
// lint: TYPE=0 OP=1 SEGMENTED=1 CARRY=1 WG_SIZE=8 VEC=1
// lint: OP=1 OUT=1 CARRY=2 RECORD_WORDS=1
// lint: OP=1 OUT=1 CARRY=1 RECORD_WORDS=3
// lint: OP=0 OUT=2 CARRY=2 RECORD_WORDS=2 TOTAL=1
// lint: OP=0 OUT=2 CARRY=0 RECORD_WORDS=1 TOTAL=1
// lint: SUBGROUP=1 SG_SIZE=32 CARRY=2
// lint: SUBGROUP=1 SG_SIZE=32 CARRY=1 TYPE=2 OP=1 WG_SIZE=1024 VEC=1
// lint: SUBGROUP=1 SG_SIZE=16 CARRY=2 TYPE=1 OP=2 WG_SIZE=128 WINDOW=16
// lint: SUBGROUP=1 SG_SIZE=32 CARRY=2 OP=1 OUT=1 RECORD_WORDS=1
// lint: SUBGROUP=1 SG_SIZE=64 CARRY=2 OP=0 OUT=2 RECORD_WORDS=1 TOTAL=1 WINDOW=64
// lint: SUBGROUP=1 SUBGROUP_EMULATE=1 SG_SIZE=32 WG_SIZE=32 CARRY=2 TYPE=2 OP=2 WINDOW=32
// lint: SUBGROUP=1 SUBGROUP_EMULATE=1 SG_SIZE=8 WG_SIZE=8 CARRY=1 TYPE=1 OP=1
// lint: SUBGROUP=1 SG_SIZE=32 SEGMENTED=1 CARRY=2 TYPE=2 OP=0
// lint: SUBGROUP=1 SG_SIZE=32 SEGMENTED=1 CARRY=1 TYPE=1 OP=2 WG_SIZE=1024 VEC=1
// lint: SUBGROUP=1 SUBGROUP_EMULATE=1 SG_SIZE=8 WG_SIZE=8 SEGMENTED=1 CARRY=2 OP=1 WINDOW=8
// lint: SUBGROUP=1 SUBGROUP_EMULATE=1 SG_SIZE=8 WG_SIZE=32 SEGMENTED=1 CARRY=2 TYPE=2 OP=0 WINDOW=8
// lint: SUBGROUP=1 SUBGROUP_EMULATE=1 SG_SIZE=8 WG_SIZE=32 CARRY=2 OP=1 OUT=1 RECORD_WORDS=1 WINDOW=8

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef SUBGROUP
#define SUBGROUP 0
#endif
#ifndef SUBGROUP_EMULATE
#define SUBGROUP_EMULATE 0
#endif
#ifndef SEGMENTED
#define SEGMENTED 0
#endif
#ifndef CARRY
#define CARRY 0
#endif
#ifndef OUT
#define OUT 0
#endif
#ifndef RECORD_WORDS
#define RECORD_WORDS 1
#endif
#ifndef TOTAL
#define TOTAL 0
#endif

#if SUBGROUP && !SUBGROUP_EMULATE
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#if SEGMENTED
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#endif
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"

#if OUT == 1
#define MAP 2
#elif OUT == 2
#define MAP 1
#else
#define MAP 0
#endif

#include "elem.glsl"
#include "load.glsl"
#include "tile.glsl"
#if CARRY == 2
#include "lookback.glsl"
#endif

uniform uint numTiles;
uniform uint initBits;     // the prefix of element 0 (exclusive scan's init)
uniform uint inclusive;    // OUT 0: write inclusive values
uniform uint resetAtHeads; // OUT 0, SEGMENTED exclusive: identity at heads
uniform uint dstLen;       // OUT 2: records that fit in dst
uniform uint totalAt;

#if OUT == 0
layout(std430, binding = 4) writeonly buffer DstVec { T4 dst4[]; };
layout(std430, binding = 5) writeonly buffer DstOne { T dst1[]; };
#else
layout(std430, binding = 1) readonly buffer RecSrc { uint recSrc[]; };
layout(std430, binding = 4) writeonly buffer RecDstVec { uvec4 recDst4[]; };
layout(std430, binding = 5) writeonly buffer RecDst { uint recDst[]; };
#endif
#if CARRY == 1
layout(std430, binding = 6) readonly buffer Carry { uint carryIn[]; };
#endif
#if TOTAL
layout(std430, binding = 7) writeonly buffer Total { uint totalOut[]; };
#endif

#if OUT != 0
void copyRecord(uint to, uint from) {
    for (uint w = 0u; w < uint(RECORD_WORDS); w++) {
        recDst[to * uint(RECORD_WORDS) + w] = recSrc[from * uint(RECORD_WORDS) + w];
    }
}
#endif

// store writes vector j (elements 4j..4j+3) given each element, its
// exclusive and its inclusive scan value.
void store(uint j, V x[4], V ex[4], V inc[4]) {
    uint e0 = 4u * j;
#if OUT == 0
    T4 o;
    for (uint k = 0u; k < 4u; k++) {
        o[k] = valOf(inclusive != 0u ? inc[k] : ex[k]);
#if SEGMENTED
        if (resetAtHeads != 0u && inclusive == 0u && headOf(x[k]) != 0u) {
            o[k] = ident();
        }
#endif
    }
    if (e0 + 3u < n) {
        dst4[j] = o;
    } else {
        for (uint k = 0u; k < 4u; k++) {
            if (e0 + k < n) {
                dst1[e0 + k] = o[k];
            }
        }
    }
#elif OUT == 1
    // inc[k] is the index of element e0+k's head.
    if (RECORD_WORDS == 1 && e0 + 3u < n) {
        recDst4[j] = uvec4(recSrc[inc[0]], recSrc[inc[1]], recSrc[inc[2]], recSrc[inc[3]]);
    } else {
        for (uint k = 0u; k < 4u; k++) {
            if (e0 + k < n) {
                copyRecord(e0 + k, inc[k]);
            }
        }
    }
#else
    // x[k] is 1 for a kept element, ex[k] the number kept before it.
    for (uint k = 0u; k < 4u; k++) {
        if (x[k] != 0u && ex[k] < dstLen) {
            copyRecord(ex[k], e0 + k);
        }
    }
#endif
#if TOTAL
    if (n - 1u - e0 < 4u) {
        totalOut[totalAt] = toBits(valOf(inc[n - 1u - e0]));
    }
#endif
}

void main() {
#if CARRY == 2
    uint tile = takeTicket();
#else
    uint tile = dpglGroupIndex();
#endif
    if (tile >= numTiles) {
        return;
    }
    uint v0 = tile * uint(TILE_VECS);
    V x[VEC][4];
    for (uint i = 0u; i < uint(VEC); i++) {
        loadVec(v0 + tileVec(i), x[i]);
    }
    V pre[VEC];
    V total = tileScan(x, pre);
    V first = vOf(fromBits(initBits));
#if CARRY == 0
    V before = first;
#elif CARRY == 1
    V before = vOf(fromBits(carryIn[tile]));
#else
    V before = lookBack(tile, total, first);
#endif
#if TOTAL
    if (n == 0u && gl_LocalInvocationIndex == 0u) {
        totalOut[totalAt] = initBits;
    }
#endif
    for (uint i = 0u; i < uint(VEC); i++) {
        V ex[4];
        V inc[4];
        V run = comb(before, pre[i]);
        for (uint k = 0u; k < 4u; k++) {
            ex[k] = run;
            run = comb(run, x[i][k]);
            inc[k] = run;
        }
        store(v0 + tileVec(i), x[i], ex, inc);
    }
}
