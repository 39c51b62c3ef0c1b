package balancer

import (
	"fmt"
	"strings"
)

// Policy decides when the loop gathers information and when it balances.
type Policy int

const (
	// Never is the original loop of Figure 1: MAX(workload) iterations of
	// the solution phase, found by one reduction and then queued without a
	// host round trip; no balancing.
	Never Policy = iota
	// Always is Figure 2 balancing whenever it saves anything: information
	// is gathered before every iteration and the workload redistributed
	// whenever savings > 0.
	Always
	// CostEffective is the paper's loop: information is gathered before
	// every iteration, and the workload redistributed when savings >
	// costIterations, the overestimated cost of gathering and redistributing
	// in iterations of the solution phase. One departure from the paper
	// caps what a wrong overestimate can cost: once the cost reaches
	// MAX(workload) - 1, which bounds the savings of this and every later
	// iteration without a redistribution, no later iteration can balance,
	// and the rest runs as Figure 1 without gathering. So an absurd cost
	// costs one gathering more than Never, not one per iteration.
	CostEffective
	// Bounded makes exactly the decisions of CostEffective, so it runs the
	// same iterations and balancing operations, but gathers information only
	// when balancing could pay. A cheap count (one reduction, or none when
	// the counts are known) bounds the savings in two ways:
	//
	//   - MAX(workload) - ceil(average): the new maximum is at least the
	//     average, and this bound never grows while nothing is
	//     redistributed. Once it is at most the cost, no later iteration can
	//     balance: the rest runs as Figure 1, queued, with no gathering.
	//   - MAX - ceil(MAX/(num_idle+1)): the heaviest processor gets at most
	//     all the idle ones. While no processor runs out of work (MinActive
	//     more iterations) num_idle stays and this bound only shrinks, so
	//     when it is at most the cost the loop runs those iterations queued.
	//
	// On balanced data (MAX close to the average, as in the paper's Table 1)
	// the first bound settles the whole run after one reduction, which is
	// the MAX(workload) that Figure 1 needs anyway: the paper's loss on
	// balanced data (up to 27%, all information gathering) is gone, and
	// since every skipped gathering provably would not have balanced, the
	// guarantee of CostEffective is kept.
	Bounded
)

// Policies lists every policy, Never first.
var Policies = []Policy{Never, Always, CostEffective, Bounded}

func (p Policy) String() string {
	switch p {
	case Never:
		return "Never"
	case Always:
		return "Always"
	case CostEffective:
		return "CostEffective"
	case Bounded:
		return "Bounded"
	}
	return fmt.Sprintf("Policy(%d)", int(p))
}

// ParsePolicy returns the policy named s (as String spells it, any case).
func ParsePolicy(s string) (Policy, error) {
	for _, p := range Policies {
		if strings.EqualFold(p.String(), s) {
			return p, nil
		}
	}
	return 0, fmt.Errorf("balancer: unknown policy %q (want Never, Always, CostEffective or Bounded)", s)
}

// usesCost reports whether the policy compares savings with the cost.
func (p Policy) usesCost() bool { return p == CostEffective || p == Bounded }

// Decide is the decision phase: balance when the savings of a full
// gathering exceed the threshold, which is the cost in iterations for
// CostEffective and Bounded and 0 for Always. Never never balances.
func Decide(p Policy, in Info, costIterations float64) bool {
	switch p {
	case Never:
		return false
	case Always:
		return in.Savings() > 0
	}
	return float64(in.Savings()) > costIterations
}
