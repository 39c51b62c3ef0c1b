// The body of scan.comp (SCAN_KERNEL 0; see there for CARRY, OUT and
// TOTAL) and of reduce.comp (SCAN_KERNEL 1), in one file so that a user's
// predicate kernel (select.glsl) can be built as either: gpu.Expand splices
// includes without evaluating #if, so two files including the same pieces
// under #if could not both be included.

#ifndef SCAN_KERNEL
#define SCAN_KERNEL 0
#endif

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
#ifndef RECORD_WORDS
#define RECORD_WORDS 1
#endif
#ifndef TOTAL
#define TOTAL 0
#endif
// LANE_CARRY (reduce-then-scan's level 0 of unsegmented scans in the
// shared-memory layout): the level above holds one total per
// invocation, not per tile. reduce.comp writes each invocation's total of
// its 4*VEC elements (no group total, no barrier) and the identity after
// the last, so that the exclusive scan of those lanes + 1 totals gives
// every invocation its start and its end (OUT_VALUES: its carry-in);
// scan.comp then walks an invocation's vectors one at a time, storing each
// as it is loaded (no group scan, no barrier, no tile in registers). See
// mainLanes.
#ifndef LANE_CARRY
#define LANE_CARRY 0
#endif
#if LANE_CARRY && (SEGMENTED || SUBGROUP)
#error LANE_CARRY is for unsegmented scans in the shared-memory layout
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
#include "modes.glsl"

#ifndef OUT
#define OUT OUT_VALUES
#endif
#ifndef MAP
#if OUT == OUT_SEGMENTED_COPY
#define MAP MAP_HEAD_INDEX
#elif OUT != OUT_VALUES
#define MAP MAP_COUNT
#else
#define MAP MAP_VALUES
#endif
#endif
// A segmented scan scans (head flag, value) pairs into values:
// compactions and keys are for unsegmented scans.
#if SEGMENTED && OUT != OUT_VALUES
#error SEGMENTED is for OUT_VALUES
#endif
#if OUT != OUT_VALUES
// Records of uint words at binding 1 (load.glsl's src1; T is uint).
#define LOAD_RECORDS 1
#endif

#include "elem.glsl"
#include "load.glsl"
#include "tile.glsl"

// (KEY_WORDS has its default from load.glsl here.)
#if SEGMENTED && KEY_WORDS > 0
#error SEGMENTED reads head flags and no KEY_WORDS
#endif

// The elements of one invocation (LANE_CARRY).
#define LANE (4 * VEC)

#if SCAN_KERNEL == 1
// reduce.comp: the op of each tile's elements (MAP), as bits, to
// partial[partialAt + tile]; for SEGMENTED also whether the tile holds a
// head, to partialHeads[partialAt + tile].

uniform uint numTiles;
uniform uint partialAt;

layout(std430, binding = 6) writeonly buffer Partial { uint partial[]; };
#if SEGMENTED
layout(std430, binding = 7) writeonly buffer PartialHeads { uint partialHeads[]; };
#endif

void main() {
    uint tile = dpglGroupIndex();
    if (tile >= numTiles) {
        return;
    }
#if LANE_CARRY
    // Invocation t of the tile holds elements (tile * WG_SIZE + t) * LANE
    // on (the blocked layout): lane totals in element order.
    uint lane = tile * uint(WG_SIZE) + gl_LocalInvocationIndex;
    uint lanes = dpglCeilDiv(n, uint(LANE));
    V acc = vIdent();
    uint v0 = tile * uint(TILE_VECS);
#if MAP == MAP_VALUES && !SEGMENTED
    if ((lane + 1u) * uint(LANE) <= n) {
        // A whole invocation's values: no test of n per vector or element.
        for (uint i = 0u; i < uint(VEC); i++) {
            T4 v = src4[v0 + tileVec(i)];
            acc = comb(acc, comb(comb(comb(v.x, v.y), v.z), v.w));
        }
        partial[partialAt + lane] = toBits(valOf(acc));
        if (lane == 0u) {
            partial[partialAt + lanes] = toBits(ident());
        }
        return;
    }
#endif
    uint key = keyBefore(v0 + tileVec(0u));
    for (uint i = 0u; i < uint(VEC); i++) {
        V x[4];
        loadVecAfter(v0 + tileVec(i), key, x);
        acc = comb(acc, reduce4(x));
    }
    if (lane < lanes) {
        partial[partialAt + lane] = toBits(valOf(acc));
    }
    if (lane == 0u) {
        partial[partialAt + lanes] = toBits(ident());
    }
    return;
#endif
    // Each vector folded as it is loaded, not all loaded first: no
    // registers for the tile (llvmpipe: a fifth faster).
    V run = vIdent();
    for (uint i = 0u; i < uint(VEC); i++) {
        V x[4];
        loadVec(tile * uint(TILE_VECS) + tileVec(i), x);
        run = foldStep(run, reduce4(x));
    }
    V total = groupTotal(run);
    if (gl_LocalInvocationIndex == 0u) {
        partial[partialAt + tile] = toBits(valOf(total));
#if SEGMENTED
        partialHeads[partialAt + tile] = headOf(total);
#endif
    }
}

#else // SCAN_KERNEL == 0: scan.comp

#if CARRY == 2
#include "lookback.glsl"
#endif

uniform uint numTiles;
uniform uint initBits;     // the prefix of element 0 (exclusive scan's init)
uniform uint inclusive;    // OUT_VALUES: write inclusive values
uniform uint resetAtHeads; // OUT_VALUES, SEGMENTED exclusive: identity at heads
uniform uint dstLen;       // OUT_COMPACT: records that fit in dst
uniform uint totalAt;
uniform uint countAt;      // OUT_PARTITION

#if OUT == OUT_VALUES
layout(std430, binding = 4) writeonly buffer DstVec { T4 dst4[]; };
layout(std430, binding = 5) writeonly buffer DstOne { T dst1[]; };
#else
layout(std430, binding = 4) writeonly buffer RecDstVec { uvec4 recDst4[]; };
layout(std430, binding = 5) writeonly buffer RecDst { uint recDst[]; };
#endif
#if CARRY == 1
layout(std430, binding = 6) readonly buffer Carry { uint carryIn[]; };
#endif
#if TOTAL
layout(std430, binding = 7) writeonly buffer Total { uint totalOut[]; };
#elif OUT == OUT_PARTITION
layout(std430, binding = 7) readonly buffer Count { uint countIn[]; };
#endif

#if OUT != OUT_VALUES
// The records moved.
#define recSrc src1
#if LANE_CARRY && RECORD_WORDS == 1 && !RECORDS_LOADED
// One-word records a vector at a time (the scalar view reads the last,
// partial vector).
layout(std430, binding = 0) readonly buffer RecSrcVec { uvec4 recSrc4[]; };
#endif
void copyRecord(uint to, uint from) {
    for (uint w = 0u; w < uint(RECORD_WORDS); w++) {
        recDst[to * uint(RECORD_WORDS) + w] = recSrc[from * uint(RECORD_WORDS) + w];
    }
}
#endif

#if OUT == OUT_COMPACT
// In the blocked layout (invocation t holds consecutive elements, see
// tile.glsl) an invocation also writes the elements that are not kept
// before its last kept element: such an element's slot is that of the next
// kept element, which lies in the same invocation and overwrites it later,
// in program order. A CPU driver runs a store as a branch per lane; taken
// by a random half of the lanes it is mispredicted, taken by every lane up
// to its last kept element it is not (llvmpipe, select-if of half of 2^22
// floats: 2x faster). keepEnd is 1 + the invocation's last kept element as
// the number of elements it holds before it, 0 for none or in the subgroup
// layout, whose invocations do not hold consecutive elements.
uint keepEnd = 0u;
#endif

#if OUT == OUT_PARTITION
uint selected = 0u; // countIn[countAt], loaded once by main
#endif

// store writes vector j (elements 4j..4j+3), the invocation's vector i,
// given each element, its exclusive and its inclusive scan value.
void store(uint j, uint i, V x[4], V ex[4], V inc[4], uvec4 words) {
    uint e0 = 4u * j;
#if OUT == OUT_VALUES
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
    }
    for (uint e = e0; e < tailEnd(e0); e++) {
        dst1[e] = o[e - e0];
    }
#elif OUT == OUT_SEGMENTED_COPY
    // inc[k] is the index of element e0+k's head.
    bool whole = RECORD_WORDS == 1 && e0 + 3u < n;
    if (whole) {
        recDst4[j] = uvec4(src1[inc[0]], src1[inc[1]], src1[inc[2]], src1[inc[3]]);
    }
    // Element by element otherwise, in a loop (see loadVec).
    for (uint e = e0; e < (whole ? e0 : min(e0 + 4u, n)); e++) {
        copyRecord(e, inc[e - e0]);
    }
#elif OUT == OUT_PARTITION
    // x[k] is 1 for a selected element, ex[k] the number selected before
    // it, so e - ex[k] the number rejected before it.
    for (uint k = 0u; k < 4u; k++) {
        uint e = e0 + k;
        if (e < n) {
            copyRecord(x[k] != 0u ? ex[k] : selected + (e - ex[k]), e);
        }
    }
#else
    // OUT_COMPACT: x[k] counts 1 for a kept element (a run's head), ex[k]
    // the number kept before it.
    for (uint k = 0u; k < 4u; k++) {
        uint r = ex[k];
        if ((x[k] != 0u || 4u * i + k < keepEnd) && r < dstLen) {
#if RECORDS_LOADED
            recDst[r] = words[k];
#else
            copyRecord(r, e0 + k);
#endif
        }
    }
#endif
#if TOTAL && OUT == OUT_VALUES
    if (n - 1u - e0 < 4u) {
        totalOut[totalAt] = toBits(valOf(inc[n - 1u - e0]));
    }
#elif TOTAL
    if (n - 1u - e0 < 4u) {
        totalOut[totalAt] = inc[n - 1u - e0];
    }
#endif
}

#if LANE_CARRY && OUT == OUT_VALUES
#if MAP != MAP_VALUES
#error LANE_CARRY's OUT_VALUES scans values
#endif
// mainLanes is level 0 of a plain scan under LANE_CARRY: invocation lane
// (of the whole dispatch) starts from carryIn[lane], the op of everything
// before its elements (the init value in front), and walks its elements
// one at a time from there, storing each vector as it loads it. Float add
// therefore sums an invocation's elements left to right onto its carry.
void mainLanes(uint tile) {
    uint lane = tile * uint(WG_SIZE) + gl_LocalInvocationIndex;
    if (lane >= dpglCeilDiv(n, uint(LANE))) {
        return;
    }
    V run = vOf(fromBits(carryIn[lane]));
    uint v0 = tile * uint(TILE_VECS);
    if ((lane + 1u) * uint(LANE) <= n) {
        // A whole invocation: no test of n per vector or element
        // (llvmpipe, with reduce.comp's likewise: a 2^22 u32 scan
        // 1.5-2x faster).
        for (uint i = 0u; i < uint(VEC); i++) {
            uint j = v0 + tileVec(i);
            T4 v = src4[j];
            T4 o;
            for (uint k = 0u; k < 4u; k++) {
                V ex = run;
                run = comb(run, v[k]);
                o[k] = valOf(inclusive != 0u ? run : ex);
            }
            dst4[j] = o;
        }
#if TOTAL
        if ((lane + 1u) * uint(LANE) == n) {
            totalOut[totalAt] = toBits(valOf(run));
        }
#endif
        return;
    }
    for (uint i = 0u; i < uint(VEC); i++) {
        uint j = v0 + tileVec(i);
        uint e0 = 4u * j;
        V x[4];
        loadVec(j, x);
        T4 o;
        V inc[4];
        for (uint k = 0u; k < 4u; k++) {
            V ex = run;
            run = comb(run, x[k]);
            inc[k] = run;
            o[k] = valOf(inclusive != 0u ? run : ex);
        }
        if (e0 + 3u < n) {
            dst4[j] = o;
        }
        for (uint e = e0; e < tailEnd(e0); e++) {
            dst1[e] = o[e - e0];
        }
#if TOTAL
        if (n - 1u - e0 < 4u) {
            totalOut[totalAt] = toBits(valOf(inc[n - 1u - e0]));
        }
#endif
    }
}
#elif LANE_CARRY
// mainLanes is level 0 of a compaction under LANE_CARRY: invocation lane
// (of the whole dispatch) starts from carryIn[lane], the count before its
// elements, and
// the next entry is the count before the next invocation's, so it knows
// where its own output ends without looking ahead. It loads, scans and
// stores one vector at a time.
//   OUT_COMPACT  element e (kept or not) stores its record at r, the count
//                before it, while r < the lane's end (and dstLen): an
//                element that is not kept is overwritten by the next kept
//                one, which lies in the same invocation, later in program
//                order; those after the last kept one (r = the end) store
//                nothing. A CPU driver runs a store as a branch per lane,
//                taken by a prefix of each invocation's elements here:
//                predicted.
//   OUT_PARTITION every element stores, kept or not.
// One-word records are moved from registers: the words loadVec read (the
// predicate's elements, one-word keys) or a vector load of their own.
void mainLanes(uint tile) {
    uint lane = tile * uint(WG_SIZE) + gl_LocalInvocationIndex;
    if (lane >= dpglCeilDiv(n, uint(LANE))) {
        return;
    }
    uint r = carryIn[lane];
    uint end = carryIn[lane + 1u];
#if OUT == OUT_COMPACT
    uint stop = min(end, dstLen);
#endif
#if OUT == OUT_PARTITION
    uint sel = countIn[countAt];
#endif
    uint v0 = tile * uint(TILE_VECS);
    uint key = keyBefore(v0 + tileVec(0u));
    for (uint i = 0u; i < uint(VEC); i++) {
        uint j = v0 + tileVec(i);
        uint e0 = 4u * j;
        V x[4];
        loadVecAfter(j, key, x);
#if RECORD_WORDS == 1
#if RECORDS_LOADED
        uvec4 w = loadedWords;
#else
        uvec4 w = uvec4(0u);
        if (e0 + 3u < n) {
            w = recSrc4[j];
        }
        for (uint e = e0; e < tailEnd(e0); e++) {
            w[e - e0] = recSrc[e];
        }
#endif
#endif
        for (uint k = 0u; k < 4u; k++) {
#if OUT == OUT_COMPACT
            bool put = r < stop;
            uint to = r;
#else
            bool put = e0 + k < n;
            uint to = x[k] != 0u ? r : sel + (e0 + k - r);
#endif
            if (put) {
#if RECORD_WORDS == 1
                recDst[to] = w[k];
#else
                copyRecord(to, e0 + k);
#endif
            }
            r += x[k];
        }
    }
#if TOTAL
    if (lane + 1u == dpglCeilDiv(n, uint(LANE))) {
        totalOut[totalAt] = end;
    }
#endif
}
#endif

void main() {
#if LANE_CARRY
    uint tile0 = dpglGroupIndex();
    if (tile0 < numTiles) {
        mainLanes(tile0);
    }
    return;
#endif
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
#if RECORDS_LOADED
    uvec4 words[VEC];
#endif
    for (uint i = 0u; i < uint(VEC); i++) {
        loadVec(v0 + tileVec(i), x[i]);
#if RECORDS_LOADED
        words[i] = loadedWords;
#endif
    }
#if OUT == OUT_COMPACT
    keepEnd = 0u;
    if (!sgUsable()) {
        for (uint i = 0u; i < uint(VEC); i++) {
            for (uint k = 0u; k < 4u; k++) {
                keepEnd = x[i][k] != 0u ? 4u * i + k + 1u : keepEnd;
            }
        }
    }
#endif
#if OUT == OUT_PARTITION
    selected = countIn[countAt];
#endif
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
        uvec4 w = uvec4(0u);
#if RECORDS_LOADED
        w = words[i];
#endif
        store(v0 + tileVec(i), i, x[i], ex, inc, w);
    }
}

#endif // SCAN_KERNEL
