package balancer

import (
	"fmt"
	"strings"
)

// Strategy is how a loop shares its tasks out among the lanes (the
// invocations that run the solution phase): the paper's loop under a
// Policy, or one of the other answers to the same problem from the
// literature, run on the same Loop with the same solution kernel. See the
// package documentation, "Strategies", for what each does and why it ends.
type Strategy int

const (
	// Paper is Ahrens & Hansen's loop, Figure 1 or Figure 2 by
	// Config.Policy: one task per processor with work per iteration, the
	// workload redistributed when the policy says so.
	Paper Strategy = iota
	// RoundRobin is static cyclic assignment: lane l solves tasks l, l+L,
	// l+2L, ... of the task order (processor by processor) in one dispatch.
	RoundRobin
	// Random is static randomized assignment: lane l solves the tasks at
	// positions l, l+L, ... of a seeded pseudo-random permutation of the
	// task order (Config.Seed), in one dispatch.
	Random
	// WorkPool is a centralized work pool: persistent lanes take chunks of
	// Config.Chunk consecutive tasks from an atomic counter until it passes
	// the last task, in one dispatch.
	WorkPool
	// LeftRightHandoff is the Left-Right Handoff protocol on blocks of 64
	// lanes: each block starts with a run of processors and solves up to
	// Config.Chunk tasks per lane and round; between rounds (the
	// checkpoints) each block meets its right neighbour and its left one in
	// turn, and the one with more work hands half the difference to the
	// other. No global decision.
	LeftRightHandoff
	// Search is the load-balancing search: one invocation per task, which
	// finds its processor by binary search over the exclusive scan of the
	// workloads, in one dispatch.
	Search
	// LeftRightHandoffRace is the Left-Right Handoff protocol as its text
	// runs it, in one dispatch: every lane is a processor that starts with
	// an equal block of the task order and works at its own pace; half-way
	// through what it holds (its checkpoint) it races its right and its left
	// neighbour in alternate rounds, and the first to get there signals and
	// goes on, while the neighbour, if the signal came before its own
	// checkpoint, hands over half the difference of what they have left.
	// No lane waits for another beyond a bounded spin.
	LeftRightHandoffRace
	// RandomAssignment is static random assignment as Wilkinson & Allen
	// describe it: each task goes to a lane drawn at random (seeded by
	// Config.Seed), so the lanes' counts vary, in one dispatch after a
	// pass that counts them. Random, by contrast, deals a random order out
	// evenly.
	RandomAssignment
)

// Strategies lists every strategy, Paper first.
var Strategies = []Strategy{Paper, RoundRobin, Random, WorkPool, LeftRightHandoff, Search, LeftRightHandoffRace, RandomAssignment}

var strategyNames = [...]string{"Paper", "RoundRobin", "Random", "WorkPool", "LeftRightHandoff", "Search", "LeftRightHandoffRace", "RandomAssignment"}

func (s Strategy) String() string {
	if s >= 0 && int(s) < len(strategyNames) {
		return strategyNames[s]
	}
	return fmt.Sprintf("Strategy(%d)", int(s))
}

// ParseStrategy returns the strategy named s (as String spells it, any
// case).
func ParseStrategy(s string) (Strategy, error) {
	for i, n := range strategyNames {
		if strings.EqualFold(n, s) {
			return Strategy(i), nil
		}
	}
	return 0, fmt.Errorf("balancer: unknown strategy %q (want one of %s)", s, strings.Join(strategyNames[:], ", "))
}

// BindingStrategy is the storage-block binding that a strategy's variant of
// a solution kernel uses for its own state (BALANCER_STRATEGY_BINDING in
// shaders/balancer/strategies.glsl): a kernel run under a strategy leaves it
// free.
const BindingStrategy = 15

// Limits of the strategies on a driver whose loops stop silently
// (gpu.Caps.LoopLimit; llvmpipe: after 65535 iterations per invocation): a lane of a
// strategy takes at most maxPerLaneSoftware tasks per dispatch, and its
// loops (tasks, searches) at most softwareLoopBudget iterations, counted
// at their worst case; Config.Lanes is raised, and Config.Chunk lowered,
// to stay inside.
const softwareLoopBudget = 32768

// header words of a strategy's state (BALANCER_H_* in shaders/balancer/strategies.glsl).
const (
	hdrPool, hdrSolved, hdrCritical, hdrRounds, hdrRoundMax, hdrLeft, hdrHandoffs = 0, 1, 2, 3, 4, 7, 10
	headerWords                                                                   = 16
)
