// Left-Right Handoff (balancer.LeftRightHandoff).

#if BALANCER_STRATEGY == BALANCER_LEFT_RIGHT

// Left-Right Handoff between blocks of BALANCER_BLOCK lanes (the last block
// may have fewer). A block's work is at most two disjoint intervals of the
// task order, [x, y) first, then [z, w) (what it was handed); its lanes
// share each round's part of it cyclically, so that the balancing that
// remains to do is between blocks.
#define BALANCER_BLOCK 64u

uint balancerLen(uvec4 s) { return (s.y - s.x) + (s.w - s.z); }

uint balancerBlocks() { return (balancerLanes + BALANCER_BLOCK - 1u) / BALANCER_BLOCK; }

uint balancerBlockWord(uint set, uint block) {
    return balancerLaneState + (set * balancerBlocks() + block) * 4u;
}

uvec4 balancerLoadBlock(uint set, uint block) {
    uint at = balancerBlockWord(set, block);
    return uvec4(balancerState[at], balancerState[at + 1u], balancerState[at + 2u], balancerState[at + 3u]);
}

void balancerStoreBlock(uint set, uint block, uvec4 s) {
    uint at = balancerBlockWord(set, block);
    balancerState[at] = s.x;
    balancerState[at + 1u] = s.y;
    balancerState[at + 2u] = s.z;
    balancerState[at + 3u] = s.w;
}

// The first work of block b: processors [b*P/B, (b+1)*P/B) for B blocks,
// whole runs of base or base+1 processors, and their tasks.
uint balancerFirstProcessor(uint b) {
    uint nb = balancerBlocks();
    uint base = balancerProcessors / nb, extra = balancerProcessors % nb;
    return b * base + min(b, extra);
}

uvec4 balancerNormalize(uvec4 s) {
    if (s.x == s.y) {
        s = uvec4(s.zw, 0u, 0u);
    }
    if (s.z == s.w) {
        s.zw = uvec2(0u);
    }
    return s;
}

// balancerGive moves up to d tasks from the end of the donor's last
// interval to the receiver, where they extend an adjacent interval or fill
// a free one; without room it moves nothing.
void balancerGive(inout uvec4 donor, inout uvec4 receiver, uint d) {
    bool second = donor.z != donor.w;
    uvec2 last = second ? donor.zw : donor.xy;
    uint t = min(d, last.y - last.x);
    uvec2 piece = uvec2(last.y - t, last.y);
    if (receiver.x == receiver.y) {
        receiver.xy = piece;
    } else if (piece.y == receiver.x) {
        receiver.x = piece.x;
    } else if (piece.x == receiver.y) {
        receiver.y = piece.y;
    } else if (receiver.z == receiver.w) {
        receiver.zw = piece;
    } else if (piece.y == receiver.z) {
        receiver.z = piece.x;
    } else if (piece.x == receiver.w) {
        receiver.w = piece.y;
    } else {
        return;
    }
    if (second) {
        donor.w -= t;
    } else {
        donor.y -= t;
    }
    donor = balancerNormalize(donor);
    receiver = balancerNormalize(receiver);
}

// balancerHandoff is the checkpoint of the pair (a, b), a the left block:
// the one with more work hands half the difference to the other. Every
// lane of both blocks computes it from the same two states.
void balancerHandoff(inout uvec4 a, inout uvec4 b) {
    uint na = balancerLen(a), nb = balancerLen(b);
    if (na > nb + 1u) {
        balancerGive(a, b, (na - nb) / 2u);
    } else if (nb > na + 1u) {
        balancerGive(b, a, (nb - na) / 2u);
    }
}

// Round r of Left-Right Handoff: the checkpoint with the partner block of
// this round (right when block + r is even, left when odd), then the
// block's first balancerChunk tasks per lane, shared cyclically.
void balancerIteration() {
    uint lane = dpglGlobalIndex();
    if (lane >= balancerLanes) {
        return;
    }
    uint r = balancerIterationIndex;
    uint h = balancerHeader;
    if (lane == 0u) {
        // Fold round r-1's maximum into the critical path and clear round
        // r+1's slots (round r-2's, read by round r-1 already).
        if (r > 0u) {
            balancerState[h + BALANCER_H_CRITICAL] += balancerState[h + BALANCER_H_ROUND_MAX + (r + 2u) % 3u];
        }
        balancerState[h + BALANCER_H_ROUND_MAX + (r + 1u) % 3u] = 0u;
        balancerState[h + BALANCER_H_LEFT + (r + 1u) % 3u] = 0u;
    }
    uint block = lane / BALANCER_BLOCK, j = lane % BALANCER_BLOCK;
    uint width = min(BALANCER_BLOCK, balancerLanes - block * BALANCER_BLOCK); // lanes in the block
    uint nb = balancerBlocks();
    uvec4 s;
    if (r == 0u) {
        s = balancerNormalize(uvec4(balancerOffset(balancerFirstProcessor(block)), balancerOffset(balancerFirstProcessor(block + 1u)), 0u, 0u));
    } else {
        if (balancerState[h + BALANCER_H_LEFT + (r + 2u) % 3u] == 0u) {
            return; // every block finished in round r-1
        }
        uint prev = (r - 1u) & 1u;
        s = balancerLoadBlock(prev, block);
        bool right = ((block + r) & 1u) == 0u;
        if (right && block + 1u < nb) {
            uvec4 o = balancerLoadBlock(prev, block + 1u);
            balancerHandoff(s, o);
        } else if (!right && block > 0u) {
            uvec4 o = balancerLoadBlock(prev, block - 1u);
            balancerHandoff(o, s);
        }
    }
    // The block solves its first `take` tasks: position k < take is task
    // x + k of the first interval, or z + k - (y - x) of the second; lane j
    // takes k = j, j + width, ..., at most balancerChunk of them.
    uint len0 = s.y - s.x;
    uint take = min(balancerChunk * width, balancerLen(s)); // the balancer keeps chunk * 64 < 2^32
    uint n = 0u;
    uint p = 0u;
    for (uint k = j; k < take; k += width) {
        uint g = k < len0 ? s.x + k : s.z + (k - len0);
        // Forward within an interval; anew at the first task and where the
        // second interval (which may lie anywhere) starts.
        bool fresh = n == 0u || (k >= len0 && k - width < len0);
        p = fresh ? balancerLocate(0u, balancerProcessors, g) : balancerSeek(p, g);
        balancerSolveTask(p, g);
        n++;
    }
    if (j == 0u) {
        if (take >= len0) {
            s = uvec4(s.z + (take - len0), s.w, 0u, 0u);
        } else {
            s.x += take;
        }
        s = balancerNormalize(s);
        balancerStoreBlock(r & 1u, block, s);
        uint left = balancerLen(s);
        if (left != 0u) {
            atomicAdd(balancerState[h + BALANCER_H_LEFT + r % 3u], left);
        }
        if (take != 0u) {
            atomicMax(balancerState[h + BALANCER_H_ROUNDS], r + 1u);
        }
    }
    balancerAccount(n);
}

#endif
