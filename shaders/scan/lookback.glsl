// Decoupled look-back (Merrill & Garland, "Single-pass Parallel Prefix Scan
// with Decoupled Look-back", 2016) with a fallback (as in Smith, Levien &
// Owens, "Decoupled Fallback", 2024), so that it needs neither forward
// progress nor any memory ordering from the driver.
//
// Tickets: a group does not scan the tile of its gl_WorkGroupID but takes
// the next tile number when it starts, so every tile it looks at belongs to
// a group that started before it. A tile without an inclusive value is one
// whose group is still running.
//
// Look-back: each tile publishes its own total (the aggregate) as soon as
// it has it, then the op of every element up to its end (the inclusive
// value). A tile combines the aggregates of its predecessors until it meets
// an inclusive value, looking at WINDOW predecessors per step.
//
// Fallback: waiting is bounded (SPIN polls per polling invocation, per
// tile). When it runs out on the nearest silent predecessor j, the whole
// group reduces tile j's input itself, then polls
// j once more: if j published meanwhile, its value is taken (j may have
// started writing its output over its input, in place); if not, j had not
// yet written anything when the group read its input. Bounded waiting is
// not a nicety: llvmpipe ends every loop of an invocation after 65535
// iterations in all (gallivm's loop limiter), so an unbounded spin can
// silently stop early, and the threads running predecessors may be
// descheduled for milliseconds.
//
// Published words validate themselves: each holds 16 bits of a value, the
// head flag and the epoch of the call (15 bits; the host counts calls and
// clears the array when they wrap). A value counts only when both halves
// carry this call's epoch, so no word depends on another becoming visible
// first. Words are read with atomics, each once per poll: llvmpipe re-loads
// a volatile variable at each use.

#ifndef SPIN
#define SPIN 16384
#endif
// PUBLISH 0 (tests only) publishes nothing, so that every tile reduces all
// its predecessors itself; only correct out of place.
#ifndef PUBLISH
#define PUBLISH 1
#endif
// WINDOW predecessors are polled at once, one per invocation: with one at a
// time the inclusive values could only advance one tile per memory round
// trip, which caps a GPU at a few million tiles per second.
#ifndef WINDOW
#define WINDOW 32
#endif
// SG_WALK: subgroup 0 walks back alone (sgWalk). Not for segmented pairs,
// and on the stand-ins only with one subgroup per group (sgemu.glsl).
#if SUBGROUP && !SEGMENTED && (!SUBGROUP_EMULATE || SG_SIZE == WG_SIZE)
#define SG_WALK 1
#else
#define SG_WALK 0
#endif
#if WINDOW > WG_SIZE
#error "WINDOW must not exceed WG_SIZE"
#endif

uniform uint epoch;      // this call's tag, 1 .. 2^15-1
uniform uint ticketBase; // the ticket counter's value before this dispatch

// words[0] is the ticket counter, words[1] counts fallbacks (for tests and
// the benchmark); tile t owns words 4t+4 .. 4t+7: its aggregate's low and
// high half, its inclusive value's low and high half.
layout(std430, binding = 6) coherent buffer LookBack { uint words[]; } lb;

#define AGG_LO(t) (4u * (t) + 4u)
#define INC_LO(t) (4u * (t) + 6u)
#define ST_NONE 0u
#define ST_AGGREGATE 1u
#define ST_INCLUSIVE 2u

shared uint lbTile;
shared uint lbStates[WINDOW];
shared V lbValues[WINDOW];
shared uint lbTake; // how many window slots the step combined
shared uint lbNext; // ST_INCLUSIVE: done, ST_AGGREGATE: next window, ST_NONE: fall back
shared V lbWindow;  // their op

// takeTicket returns this group's tile number to every invocation.
uint takeTicket() {
    if (gl_LocalInvocationIndex == 0u) {
        lbTile = atomicAdd(lb.words[0], 1u) - ticketBase;
    }
    memoryBarrierShared();
    barrier();
    return lbTile;
}

uint loadWord(uint i) { return atomicOr(lb.words[i], 0u); }

// tagged packs 16 bits of bits (hi: the upper ones) with the head flag and
// the epoch.
uint tagged(uint bits, uint head, bool hi) {
    return (epoch << 17) | (head << 16) | (hi ? bits >> 16 : bits & 0xFFFFu);
}

bool current(uint w) { return (w >> 17) == epoch; }

V unpack(uint lo, uint hi) {
    T v = fromBits((hi << 16) | (lo & 0xFFFFu));
#if SEGMENTED
    return Seg((lo >> 16) & 1u, v);
#else
    return vOf(v);
#endif
}

// publish stores v at words i, i+1.
void publish(uint i, V v) {
#if PUBLISH
    uint b = toBits(valOf(v));
    atomicExchange(lb.words[i], tagged(b, headOf(v), false));
    atomicExchange(lb.words[i + 1u], tagged(b, headOf(v), true));
#endif
}

// peek looks at tile j's words once: its state, and in v its value. Every
// word is loaded once (atomics: llvmpipe re-loads a volatile variable at
// each use, so one loaded word could hold two values).
uint peek(uint j, out V v) {
    uint incLo = loadWord(INC_LO(j));
    uint incHi = loadWord(INC_LO(j) + 1u);
    uint aggLo = loadWord(AGG_LO(j));
    uint aggHi = loadWord(AGG_LO(j) + 1u);
    v = vIdent();
    if (current(incLo) && current(incHi)) {
        v = unpack(incLo, incHi);
        return ST_INCLUSIVE;
    }
    if (current(aggLo) && current(aggHi)) {
        v = unpack(aggLo, aggHi);
        return ST_AGGREGATE;
    }
    return ST_NONE;
}

// poll peeks at tile j up to spin+1 times (spin counts down) and leaves
// what it found in window slot k.
void poll(uint j, inout uint spin, uint k) {
    V v;
    uint st = peek(j, v);
    while (st == ST_NONE && spin > 0u) {
        spin--;
        st = peek(j, v);
    }
    lbStates[k] = st;
    lbValues[k] = v;
}

// reduceTile returns the op of tile j's input to every invocation, a vector
// at a time so that it needs no registers for the tile.
V reduceTile(uint j) {
    V run = vIdent();
    for (uint i = 0u; i < uint(VEC); i++) {
        V x[4];
        loadVec(j * uint(TILE_VECS) + tileVec(i), x);
        run = foldStep(run, reduce4(x));
    }
    return groupTotal(run);
}

// combineWindow sets lbTake, lbNext and lbWindow from the window slots:
// the slots up to the nearest inclusive value, or up to the first tile
// that has published nothing, or all of them; earlier tiles on the left.
void combineWindow() {
    if (gl_LocalInvocationIndex == 0u) {
        V w = vIdent();
        uint take = 0u;
        uint next = ST_AGGREGATE;
        for (uint k = 0u; k < uint(WINDOW); k++) {
            uint st = lbStates[k];
            if (st == ST_NONE) {
                next = ST_NONE;
                break;
            }
            w = comb(lbValues[k], w);
            take = k + 1u;
            if (st == ST_INCLUSIVE) {
                next = ST_INCLUSIVE;
                break;
            }
        }
        lbTake = take;
        lbNext = next;
        lbWindow = w;
    }
}

#if SG_WALK
shared uint lbBase;

// sgWalk is the look-back of subgroup 0 alone, without group barriers
// between steps: lane l peeks at tile base-l, the subgroup waits (spin
// counts its rounds) until every tile up to the nearest inclusive one has
// published, combines them and moves SG_SIZE tiles on. It returns the op
// of the tiles it took; done says it reached an inclusive value, else base
// is left at the silent tile to fall back on.
T sgWalk(inout uint base, inout uint spin, out bool done) {
    uint l = SG_LANE;
    T before = ident();
    for (;;) {
        // Tiles before 0 count as an inclusive identity.
        uint st = l > base ? ST_INCLUSIVE : ST_NONE;
        V v = ident();
        uint none, inc;
        for (;;) {
            if (st == ST_NONE) {
                st = peek(base - l, v);
            }
            none = sgMinU(st == ST_NONE ? l : uint(SG_SIZE));
            inc = sgMinU(st == ST_INCLUSIVE ? l : uint(SG_SIZE));
            if (inc < none || none == uint(SG_SIZE) || spin == 0u) {
                break;
            }
            spin--;
        }
        uint take = inc < none ? inc + 1u : none;
        before = op(sgAll(l < take ? v : ident()), before);
        if (inc < none) {
            done = true;
            return before;
        }
        if (none < uint(SG_SIZE)) {
            base -= none;
            done = false;
            return before;
        }
        base -= uint(SG_SIZE); // no lane reached past tile 0
    }
    return before;
}
#endif

// lookBack is run by the whole group after tileScan (every branch below is
// uniform: it depends on shared values read after a barrier). It returns
// the op of every element before the tile, with first (the init value) in
// front, and publishes the tile's values.
V lookBack(uint tile, V total, V first) {
    uint l = gl_LocalInvocationIndex;
    bool lead = l == 0u;
    // A tile's first publication must be visible before any of its output
    // (a fallback on it relies on that in place): the lead fences, and the
    // group's stores wait at a barrier behind it.
    if (tile == 0u) {
        if (lead) {
            publish(INC_LO(0u), comb(first, total));
            memoryBarrierBuffer();
        }
        barrier();
        return first;
    }
    if (lead) {
        publish(AGG_LO(tile), total);
        memoryBarrierBuffer();
    }
    uint spin = uint(SPIN); // each poller's own budget
    V before = vIdent();
    // Window slot k holds tile base-k; tiles before 0 count as an
    // inclusive identity, so a window reaching past tile 0 always ends.
    for (uint base = tile - 1u;;) {
        uint next;
        uint take;
#if SG_WALK
        if (sgUsable() && WINDOW == SG_SIZE) {
            if (SG_ID == 0u) {
                bool done;
                uint b = base;
                T w = sgWalk(b, spin, done);
                if (SG_LANE == 0u) {
                    lbWindow = w;
                    lbNext = done ? ST_INCLUSIVE : ST_NONE;
                    lbBase = b;
                }
            }
            groupSync();
            next = lbNext;
            before = comb(lbWindow, before);
            take = base - lbBase;
            groupSync();
        } else
#endif
        {
            if (l < uint(WINDOW)) {
                if (l <= base) {
                    poll(base - l, spin, l);
                } else {
                    lbStates[l] = ST_INCLUSIVE;
                    lbValues[l] = vIdent();
                }
            }
            groupSync();
            combineWindow();
            groupSync();
            take = lbTake;
            next = lbNext;
            before = comb(lbWindow, before);
            groupSync();
        }
        if (next == ST_INCLUSIVE) {
            break;
        }
        if (next == ST_AGGREGATE) {
            base -= uint(WINDOW); // no slot reached past tile 0, so base >= WINDOW
            continue;
        }
        // Tile j = base-take has published nothing within the wait: reduce
        // its input here.
        uint j = base - take;
        V agg = reduceTile(j);
        // All of tile j's input is read before the lead looks again.
        memoryBarrierBuffer();
        groupSync();
        if (lead) {
            uint none = 0u;
            poll(j, none, 0u);
            if (lbStates[0] == ST_NONE) {
                // Tile 0's inclusive value needs only its own input.
                lbStates[0] = j == 0u ? ST_INCLUSIVE : ST_AGGREGATE;
                lbValues[0] = j == 0u ? comb(first, agg) : agg;
                atomicAdd(lb.words[1], 1u);
            }
        }
        groupSync();
        uint st = lbStates[0];
        before = comb(lbValues[0], before);
        groupSync();
        if (st == ST_INCLUSIVE) {
            break;
        }
        base = j - 1u; // j > 0: tile 0 is always inclusive
    }
    if (lead) {
        publish(INC_LO(tile), comb(before, total));
    }
    return before;
}
