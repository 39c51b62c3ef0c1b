// Left-Right Handoff as the protocol's text runs it (balancer.LeftRightHandoffRace):
// one dispatch, no rounds in lockstep.

#if BALANCER_STRATEGY == BALANCER_LEFT_RIGHT_RACE

// Every lane is a processor. Lane i starts with the text's block
// distribution, the block [i*S/L, (i+1)*S/L) of the task order (or, with
// balancerRuns, a test's, the tasks of the processors [i*P/L, (i+1)*P/L));
// it works in rounds, at
// its own pace: a round's row is all the tasks it holds, solved from the
// front; its checkpoint is half-way through the row. In round r it races
// its right neighbour when i + r is even, its left one when odd, so a pair
// (i, i+1) races in the rounds r with i + r even, the same rounds for both.
//
// A pair's race word (balancerState[balancerLaneState + 12*i]) is 0 or
// (r+1) << 2 | state for the pair's latest race r, and the race is decided
// by compare-and-swap on it:
//
//	SIGNAL(side)  the first to reach its checkpoint (side 0 the left lane)
//	              posts what it has left and its room, then goes on
//	HANDOFF       its neighbour, still before its own checkpoint, saw the
//	              signal and moved the tail of its work to the payload
//	CLOSED        the signaller, at its row's end, took the handoff or
//	              closed the race unanswered
//
// Only the lane that holds tasks moves them: a donor cuts [hi-d, hi) off its
// own interval only if its swap SIGNAL -> HANDOFF succeeded, and the
// signaller takes them only from HANDOFF; a signaller that waited long
// enough swaps SIGNAL -> CLOSED, after which no handoff can land. So every
// task has one owner at a time, and no lane ever waits without a bound: a
// neighbour that is not running (llvmpipe runs a work group's SIMD vectors
// one after the other) just leaves the race unanswered.
#define BALANCER_RACE_WORDS 12u
#define BALANCER_SIGNAL0 0u
#define BALANCER_SIGNAL1 1u
#define BALANCER_HANDOFF 2u
#define BALANCER_CLOSED 3u
// Tries of a compare-and-swap that the neighbour keeps changing: it can
// change the word at most twice between two of our reads.
#define BALANCER_RACE_TRIES 4u

uniform uint balancerSpin;      // polls of the race word at a row's end
uniform uint balancerMaxRounds; // rounds a lane may run (its loop budget)
uniform uint balancerRoom;      // the most tasks a lane may solve in the dispatch
uniform uint balancerRuns;      // 1: lanes start with runs of processors; 0: equal blocks of tasks

// Words of pair i (lanes i and i+1): the race word, lane i's done flag, the
// signal payloads of sides 0 and 1 (left, room), the handoff payloads of
// sides 0 and 1 (first task, count).
uint balancerRaceAt(uint pair) { return balancerLaneState + pair * BALANCER_RACE_WORDS; }

uint balancerRaceLoad(uint at) { return atomicAdd(balancerState[at], 0u); }

// balancerRacePeek is the look at the race word before each task: a plain
// read, cheaper than an atomic; a stale value costs at most a swap that
// fails, as every decision is a compare-and-swap on the value read.
uint balancerRacePeek(uint at) { return balancerState[at]; }

// The lane's work: the interval [lo, hi) of the task order.
uint balancerLo, balancerHi;

// balancerDonate answers the signal v of round r from the other side of
// the pair at `at`: half the difference of what the two have left, at
// most the signaller's room, from the end of this lane's interval.
void balancerDonate(uint at, uint side, uint v) {
    memoryBarrierBuffer(); // the payload was written before the signal
    uint other = 1u - side;
    uint theirs = balancerState[at + 2u + 2u * other];
    uint room = balancerState[at + 3u + 2u * other];
    uint mine = balancerHi - balancerLo;
    if (mine <= theirs + 1u) {
        return;
    }
    uint d = min((mine - theirs) / 2u, room);
    if (d == 0u) {
        return;
    }
    balancerState[at + 6u + 2u * side] = balancerHi - d;
    balancerState[at + 7u + 2u * side] = d;
    memoryBarrierBuffer(); // the payload before the handoff
    if (atomicCompSwap(balancerState[at], v, (v & ~3u) | BALANCER_HANDOFF) == v) {
        balancerHi -= d;
        atomicAdd(balancerState[balancerHeader + BALANCER_H_HANDOFFS], 1u);
    }
}

void balancerIteration() {
    uint lane = dpglGlobalIndex();
    uint L = balancerLanes;
    if (lane >= L) {
        return;
    }
    if (balancerRuns != 0u) {
        uint base = balancerProcessors / L, extra = balancerProcessors % L;
        balancerLo = balancerOffset(lane * base + min(lane, extra));
        balancerHi = balancerOffset((lane + 1u) * base + min(lane + 1u, extra));
    } else {
        uint base = balancerTasks / L, extra = balancerTasks % L;
        balancerLo = lane * base + min(lane, extra);
        balancerHi = balancerLo + base + (lane < extra ? 1u : 0u);
    }
    uint solved = 0u;
    uint idle = 0u;
    uint rounds = 0u;
    for (uint r = 0u; r < balancerMaxRounds; r++) {
        rounds = r + 1u;
        bool right = ((lane + r) & 1u) == 0u;
        uint partner = right ? lane + 1u : lane - 1u;
        uint pair = right ? lane : lane - 1u;
        uint side = right ? 0u : 1u;
        uint at = balancerRaceAt(pair);
        uint tag = (r + 1u) << 2u;
        uint n = balancerHi - balancerLo;
        uint checkpoint = balancerLo + (n + 1u) / 2u;
        // The last round races no one: what it would be handed it could
        // not solve.
        bool decided = (right ? lane + 1u >= L : lane == 0u) || r + 1u == balancerMaxRounds ||
            balancerRaceLoad(balancerRaceAt(partner) + 1u) != 0u;
        bool signalled = false;
        uint p = 0u;
        uint g0 = balancerLo;
        // The row: every task the lane holds. At each task before the
        // checkpoint it looks for its neighbour's signal; at the
        // checkpoint, if the race is still open, it signals.
        while (true) {
            if (!decided && balancerLo < checkpoint) {
                uint v = balancerRacePeek(at);
                if (v == (tag | (1u - side))) {
                    balancerDonate(at, side, v);
                    decided = true;
                } else if (v >= tag + 4u || (v & ~3u) == tag) {
                    decided = true; // the neighbour signalled and closed, or is rounds ahead
                }
            } else if (!decided) {
                uint v = balancerRaceLoad(at);
                for (uint i = 0u; i < BALANCER_RACE_TRIES && !decided; i++) {
                    if (v == (tag | (1u - side))) {
                        // Its signal came before this checkpoint.
                        balancerDonate(at, side, v);
                        decided = true;
                    } else if (v >= tag || (v & 3u) == BALANCER_HANDOFF) {
                        // Decided already, or this lane's own handoff of an
                        // earlier race is not taken yet: no race this round.
                        decided = true;
                    } else {
                        // An earlier race, closed or never answered by this
                        // lane: this lane is the first.
                        uint left = balancerHi - balancerLo;
                        balancerState[at + 2u + 2u * side] = left;
                        balancerState[at + 3u + 2u * side] = balancerRoom - (solved + left);
                        memoryBarrierBuffer(); // the payload before the signal
                        uint w = atomicCompSwap(balancerState[at], v, tag | side);
                        if (w == v) {
                            signalled = true;
                            decided = true;
                        }
                        v = w;
                    }
                }
                decided = true;
            }
            if (balancerLo >= balancerHi) {
                break;
            }
            uint g = balancerLo;
            p = g == g0 ? balancerLocate(0u, balancerProcessors, g) : balancerSeek(p, g);
            balancerSolveTask(p, g);
            balancerLo++;
            solved++;
        }
        // The row's end: the signaller waits a little for the reply, then
        // takes the handoff or closes the race.
        bool handed = false;
        if (signalled) {
            for (uint i = 0u; i < balancerSpin; i++) {
                if (balancerRaceLoad(at) != (tag | side) || balancerRaceLoad(balancerRaceAt(partner) + 1u) != 0u) {
                    break;
                }
            }
            uint w = atomicCompSwap(balancerState[at], tag | side, tag | BALANCER_CLOSED);
            if (w == (tag | BALANCER_HANDOFF)) {
                memoryBarrierBuffer(); // the payload was written before the handoff
                uint other = 1u - side;
                balancerLo = balancerState[at + 6u + 2u * other];
                balancerHi = balancerLo + balancerState[at + 7u + 2u * other];
                atomicExchange(balancerState[at], tag | BALANCER_CLOSED); // taken: the word is free again
                handed = true;
            }
        }
        // A lane stops after two rounds in a row, one with each
        // neighbour, that began with nothing and brought nothing.
        idle = handed ? 0u : (n == 0u ? idle + 1u : 0u);
        if (idle >= 2u) {
            break;
        }
    }
    // What is left here is nothing: every round solves its whole row, and
    // the last round takes no handoff.
    atomicExchange(balancerState[balancerRaceAt(lane) + 1u], 1u);
    if (rounds > balancerState[balancerHeader + BALANCER_H_ROUNDS]) {
        atomicMax(balancerState[balancerHeader + BALANCER_H_ROUNDS], rounds);
    }
    balancerAccount(solved);
}

#endif
