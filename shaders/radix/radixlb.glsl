// The scatter's decoupled look-back, one column per digit (as in Adinets &
// Merrill, "Onesweep", 2022), with the scans' bounded wait and fallback
// (shaders/scan/lookback.glsl) so that it assumes neither forward progress
// nor any ordering of memory operations.
//
// Tickets: a group takes the next tile number of this pass when it starts,
// so every tile it waits for belongs to a group that started before it.
//
// State: the word of (tile, digit) holds a flag in its top two bits and a
// count in the other 30 (the host keeps n below 2^30): AGGREGATE, the
// tile's own count of the digit, published as soon as the tile has counted;
// INCLUSIVE, the count over this and every earlier tile, published once
// the tile's look-back ends. One word carries both, so a value is never
// seen half written. The host clears the words before each sort; each pass
// has its own.
//
// Look-back: invocation t walks back the digits t, t+WG_SIZE, ... one
// predecessor at a time, adding aggregates until it meets an inclusive
// count. Waiting for a silent predecessor is bounded (SPIN polls per
// invocation per round); then the group counts that tile's keys itself (its input is
// the pass's source, which no group writes) and every digit stuck there
// takes the count and walks on. The nearest stuck tile goes first, so each
// round frees at least one digit.

#ifndef SPIN
#define SPIN 2048
#endif
// PUBLISH 0 (tests) publishes nothing, so that every tile counts all its
// predecessors itself.
#ifndef PUBLISH
#define PUBLISH 1
#endif

// words[p]: pass p's ticket counter; words[32]: fallbacks (tests and the
// benchmark); the state of (tile, digit) at STATE(tile, d), after the
// header.
layout(std430, binding = 6) coherent buffer LookBack { uint words[]; } lb;

#define HEADER 64u
#define STATE(tile, d) (HEADER + (tile) * uint(RADIX) + (d))
#define ST_AGGREGATE 0x40000000u
#define ST_INCLUSIVE 0x80000000u
#define ST_COUNT 0x3FFFFFFFu
#define SLOTS ((RADIX + WG_SIZE - 1) / WG_SIZE)

shared uint lbTile;
shared uint lbStuck; // 1 + the nearest tile a digit waited for in vain, 0: none
shared uint lbHist[RADIX];

uint takeTicket() {
    if (gl_LocalInvocationIndex == 0u) {
        lbTile = atomicAdd(lb.words[pass], 1u);
        lbStuck = 0u;
    }
    memoryBarrierShared();
    barrier();
    return lbTile;
}

void publish(uint tile, uint d, uint flag, uint count) {
#if PUBLISH
    atomicExchange(lb.words[STATE(tile, d)], flag | count);
#endif
}

// lookBack sets base[d] for every digit, after countTile.
void lookBack(uint tile) {
    uint t = gl_LocalInvocationIndex;
    for (uint d = t; d < uint(RADIX); d += uint(WG_SIZE)) {
        publish(tile, d, tile == 0u ? ST_INCLUSIVE : ST_AGGREGATE, tot[d]);
    }
    uint before[SLOTS]; // the count of digit t+s*WG_SIZE in the tiles walked
    uint at[SLOTS];     // the next tile to look at
    bool done[SLOTS];
    for (uint s = 0u; s < uint(SLOTS); s++) {
        before[s] = 0u;
        at[s] = tile - 1u;
        done[s] = tile == 0u || t + s * uint(WG_SIZE) >= uint(RADIX);
    }
    for (;;) {
        uint stuck = 0u;
        uint spin = uint(SPIN); // this invocation's polls this round, for all its digits
        for (uint s = 0u; s < uint(SLOTS); s++) {
            uint d = t + s * uint(WG_SIZE);
            while (!done[s]) {
                uint w = atomicOr(lb.words[STATE(at[s], d)], 0u);
                if ((w & ST_INCLUSIVE) != 0u) {
                    before[s] += w & ST_COUNT;
                    done[s] = true;
                } else if ((w & ST_AGGREGATE) != 0u) {
                    before[s] += w & ST_COUNT;
                    done[s] = at[s] == 0u; // (tile 0 publishes inclusive counts)
                    at[s]--;
                } else if (spin == 0u) {
                    stuck = max(stuck, at[s] + 1u);
                    break;
                } else {
                    spin--;
                }
            }
        }
        if (stuck != 0u) {
            atomicMax(lbStuck, stuck);
        }
        memoryBarrierShared();
        barrier();
        uint j1 = lbStuck;
        if (j1 == 0u) {
            break; // uniform: every invocation read lbStuck after the barrier
        }
        // Count tile j = j1-1 here.
        uint j = j1 - 1u;
        for (uint d = t; d < uint(RADIX); d += uint(WG_SIZE)) {
            lbHist[d] = 0u;
        }
        memoryBarrierShared();
        barrier();
        uint f0 = firstKey(j);
        for (uint i = 0u; i < uint(ITEMS); i += 4u) {
            uvec4 x = loadVec(f0 + i);
            for (uint l = 0u; l < 4u; l++) {
                if (f0 + i + l < n) {
                    atomicAdd(lbHist[digitOf(x[l])], 1u);
                }
            }
        }
        memoryBarrierShared();
        barrier();
        for (uint s = 0u; s < uint(SLOTS); s++) {
            if (!done[s] && at[s] == j) {
                before[s] += lbHist[t + s * uint(WG_SIZE)];
                done[s] = j == 0u;
                at[s]--;
            }
        }
        if (t == 0u) {
            lbStuck = 0u;
            atomicAdd(lb.words[32], 1u);
        }
        memoryBarrierShared();
        barrier();
    }
    for (uint s = 0u; s < uint(SLOTS); s++) {
        uint d = t + s * uint(WG_SIZE);
        if (d < uint(RADIX)) {
            if (tile != 0u) {
                publish(tile, d, ST_INCLUSIVE, before[s] + tot[d]);
            }
            base[d] = hist[pass * uint(RADIX) + d] + before[s];
        }
    }
    memoryBarrierShared();
    barrier();
}
