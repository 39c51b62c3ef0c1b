// The work-group layer: one tile of TILE = 4*VEC*WG_SIZE elements, VEC
// vectors of four per invocation, scanned or reduced by the whole group.
//
// Two layouts and algorithms, chosen when the program is built (SUBGROUP)
// and confirmed at run time (sgUsable):
//   shared memory  invocation t holds vectors t*VEC .. t*VEC+VEC-1 of the
//                  tile ("blocked"); each reduces its 4*VEC elements
//                  serially, the per-invocation totals go through a
//                  Blelloch up-sweep/down-sweep in shared memory (or,
//                  in groups of up to 32, FLAT_GROUP's fold).
//   subgroups      subgroup s owns vectors [s*SG*VEC, (s+1)*SG*VEC); in
//                  step i its lane l holds vector s*SG*VEC + i*SG + l, so
//                  every load of the subgroup is SG consecutive vectors.
//                  Each step is one subgroupExclusive op over the lanes'
//                  vector totals; the subgroup totals are scanned by
//                  subgroup 0.
// Either way pre[i] is the op of every element of the tile before vector i,
// and the return value the op of the whole tile: the order of operations
// is fixed by WG_SIZE, VEC and the layout, never by scheduling.

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef VEC
#define VEC 4
#endif
#ifndef SUBGROUP
#define SUBGROUP 0
#endif
#ifndef SUBGROUP_EMULATE
#define SUBGROUP_EMULATE 0
#endif
#ifndef SG_SIZE
#define SG_SIZE 32
#endif

#define TILE_VECS (WG_SIZE * VEC)

// FLAT_GROUP: the invocations' values cross the group through one barrier,
// after which every invocation folds all WG_SIZE of them from shared memory,
// left to right, where the Blelloch tree takes 2*log2(WG_SIZE) barriers.
// llvmpipe switches between a group's 8-lane chunks at every barrier, and a
// barrier costs it more than a few shared loads at the same address in
// every lane, so small groups (the CPU drivers' default) fold.
#ifndef FLAT_GROUP
#define FLAT_GROUP (WG_SIZE <= 32)
#endif

shared V wgBuf[WG_SIZE];

// groupSync: every invocation has arrived, and its shared-memory writes
// are visible to all (barrier() alone is read as both by most drivers, but
// GLSL only promises the execution barrier).
void groupSync() {
    memoryBarrierShared();
    barrier();
}

// wgUpSweep leaves in wgBuf the Blelloch reduction tree of the invocations'
// values v (FLAT_GROUP: the values), and returns the group's total to
// everyone.
// Node i = (t+1)*2d - 1 at stride d covers [i-2d+1, i]; its left child is
// i-d, so earlier elements stay on the left.
V wgUpSweep(V v) {
    uint t = gl_LocalInvocationIndex;
    wgBuf[t] = v;
    groupSync();
#if FLAT_GROUP
    V all = vIdent();
    for (uint k = 0u; k < uint(WG_SIZE); k++) {
        all = comb(all, wgBuf[k]);
    }
    groupSync();
    return all;
#else
    for (uint d = 1u; d < uint(WG_SIZE); d <<= 1) {
        uint i = (t + 1u) * 2u * d - 1u;
        if (i < uint(WG_SIZE)) {
            wgBuf[i] = comb(wgBuf[i - d], wgBuf[i]);
        }
        groupSync();
    }
    V total = wgBuf[WG_SIZE - 1];
    groupSync();
    return total;
#endif
}

// wgExclusiveScan returns the op of the values of invocations 0..t-1
// (identity for t = 0); total gets the op of all of them.
V wgExclusiveScan(V v, out V total) {
    uint t = gl_LocalInvocationIndex;
#if FLAT_GROUP
    wgBuf[t] = v;
    groupSync();
    V before = vIdent();
    total = vIdent();
    for (uint k = 0u; k < uint(WG_SIZE); k++) {
        V b = wgBuf[k];
        if (k == t) {
            before = total;
        }
        total = comb(total, b);
    }
    groupSync();
    return before;
#else
    total = wgUpSweep(v);
    if (t == 0u) {
        wgBuf[WG_SIZE - 1] = vIdent();
    }
    groupSync();
    // Down-sweep: a node holds the prefix P of its range; its left child gets
    // P, its right child P op (left child's total, which the up-sweep left
    // in the left child).
    for (uint d = uint(WG_SIZE) / 2u; d > 0u; d >>= 1) {
        uint i = (t + 1u) * 2u * d - 1u;
        if (i < uint(WG_SIZE)) {
            V left = wgBuf[i - d];
            wgBuf[i - d] = wgBuf[i];
            wgBuf[i] = comb(wgBuf[i], left);
        }
        groupSync();
    }
    return wgBuf[t];
#endif
}

#if SUBGROUP
// The subgroup vocabulary of the kernels: the built-ins, or with
// SUBGROUP_EMULATE (tests on drivers without subgroups) sgemu.glsl's
// stand-ins, which make the whole group one subgroup.
#if SUBGROUP_EMULATE
#include "sgemu.glsl"
#else
#define SG_LANE gl_SubgroupInvocationID
#define SG_ID gl_SubgroupID
#define SG_COUNT gl_NumSubgroups
#define SG_WIDTH gl_SubgroupSize
#if OP == 0
#define sgExclusive subgroupExclusiveAdd
#define sgAll subgroupAdd
#elif OP == 1
#define sgExclusive subgroupExclusiveMax
#define sgAll subgroupMax
#elif OP == 2
#define sgExclusive subgroupExclusiveMin
#define sgAll subgroupMin
#elif OP == 3
#define sgExclusive subgroupExclusiveAnd
#define sgAll subgroupAnd
#elif OP == 4
#define sgExclusive subgroupExclusiveOr
#define sgAll subgroupOr
#else
#define sgExclusive subgroupExclusiveXor
#define sgAll subgroupXor
#endif
// sgLast returns the last lane's v to every lane.
T sgLast(T v) { return subgroupBroadcast(v, uint(SG_SIZE - 1)); }
// sgMinU is the minimum of the lanes' v.
uint sgMinU(uint v) { return subgroupMin(v); }
#if SEGMENTED
// sgUpU and sgUpT return lane l-d's v to lane l >= d (lanes below d get
// an undefined value); sgLastU is sgLast for uint.
uint sgUpU(uint v, uint d) { return subgroupShuffleUp(v, d); }
T sgUpT(T v, uint d) { return subgroupShuffleUp(v, d); }
uint sgLastU(uint v) { return subgroupBroadcast(v, uint(SG_SIZE - 1)); }
#endif
#endif

// sgExclusiveV, sgAllV and sgLastV are the subgroup operations on V. For
// segmented pairs, which subgroup arithmetic has no operator for, the
// inclusive scan is Hillis and Steele's: log2(SG_SIZE) shuffles up, each
// lane combining the pair d lanes back on its left.
#if SEGMENTED
V sgUpV(V a, uint d) { return Seg(sgUpU(a.f, d), sgUpT(a.v, d)); }
V sgInclusiveV(V a) {
    for (uint d = 1u; d < uint(SG_SIZE); d <<= 1) {
        V b = sgUpV(a, d);
        if (SG_LANE >= d) {
            a = comb(b, a);
        }
    }
    return a;
}
V sgExclusiveV(V a) {
    V e = sgUpV(sgInclusiveV(a), 1u);
    return SG_LANE == 0u ? vIdent() : e;
}
V sgLastV(V a) { return Seg(sgLastU(a.f), sgLast(a.v)); }
V sgAllV(V a) { return sgLastV(sgInclusiveV(a)); }
#else
#define sgExclusiveV sgExclusive
#define sgAllV sgAll
#define sgLastV sgLast
#endif

// SG0_RUNS guards code that only subgroup 0 needs. The stand-ins hold
// group barriers, so with them every subgroup runs it (reading what
// subgroup 0 reads, before its first barrier), and only subgroup 0 stores.
#if SUBGROUP_EMULATE
#define SG0_RUNS true
#else
#define SG0_RUNS (SG_ID == 0u)
#endif

shared V sgBuf[WG_SIZE / SG_SIZE];
shared V sgTotal;

// sgUsable: the driver runs the group as full subgroups of the size the
// program was built for. Otherwise the shared-memory code runs (uniform
// branch), so a driver that breaks the assumption gets slower, not wrong.
bool sgUsable() {
    return SG_WIDTH == uint(SG_SIZE) && SG_COUNT * uint(SG_SIZE) == uint(WG_SIZE);
}

// sgScanTotals replaces each subgroup's total in sgBuf by the op of the
// totals of the subgroups before it, and sets sgTotal. WG_SIZE <= SG_SIZE^2
// (the host checks), so one subgroup scans them all.
void sgScanTotals() {
    groupSync();
    if (SG0_RUNS) {
        uint l = SG_LANE;
        V v = l < SG_COUNT ? sgBuf[l] : vIdent();
        V e = sgExclusiveV(v);
        V all = sgAllV(v);
        if (SG_ID == 0u && l < SG_COUNT) {
            sgBuf[l] = e;
        }
        if (SG_ID == 0u && l == 0u) {
            sgTotal = all;
        }
    }
    groupSync();
}
#else
bool sgUsable() { return false; }
#endif

// tileVec is the index within the tile of this invocation's vector i.
uint tileVec(uint i) {
#if SUBGROUP
    if (sgUsable()) {
        return SG_ID * uint(SG_SIZE * VEC) + i * uint(SG_SIZE) + SG_LANE;
    }
#endif
    return gl_LocalInvocationIndex * uint(VEC) + i;
}

// tileScan sets pre[i] and returns the tile's total (see the top).
V tileScan(V x[VEC][4], out V pre[VEC]) {
#if SUBGROUP
    if (sgUsable()) {
        V carry = vIdent(); // op of this subgroup's earlier steps
        for (uint i = 0u; i < uint(VEC); i++) {
            V t = reduce4(x[i]);
            V e = sgExclusiveV(t);
            pre[i] = comb(carry, e);
            carry = comb(carry, sgLastV(comb(e, t)));
        }
        if (SG_LANE == 0u) {
            sgBuf[SG_ID] = carry;
        }
        sgScanTotals();
        V before = sgBuf[SG_ID];
        for (uint i = 0u; i < uint(VEC); i++) {
            pre[i] = comb(before, pre[i]);
        }
        return sgTotal;
    }
#endif
    V part[VEC];
    V run = vIdent();
    for (uint i = 0u; i < uint(VEC); i++) {
        part[i] = run;
        run = comb(run, reduce4(x[i]));
    }
    V total;
    V before = wgExclusiveScan(run, total);
    for (uint i = 0u; i < uint(VEC); i++) {
        pre[i] = comb(before, part[i]);
    }
    return total;
}

// foldStep combines the total t of this invocation's vector in step i
// into run, its fold of the steps before; groupTotal then returns the op of
// the whole tile to every invocation. In the subgroup layout a lane's steps
// lie SG_SIZE vectors apart, so it may fold them by itself only under a
// commutative operator; the segmented operator is not one, so each step is
// reduced over the subgroup first (and run is the subgroup's, in every
// lane).
V foldStep(V run, V t) {
#if SUBGROUP && SEGMENTED
    if (sgUsable()) {
        return comb(run, sgAllV(t));
    }
#endif
    return comb(run, t);
}

V groupTotal(V run) {
#if SUBGROUP
    if (sgUsable()) {
#if SEGMENTED
        V all = run;
#else
        V all = sgAllV(run);
#endif
        if (SG_LANE == 0u) {
            sgBuf[SG_ID] = all;
        }
        sgScanTotals();
        return sgTotal;
    }
#endif
    return wgUpSweep(run);
}
