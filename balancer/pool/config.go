package pool

import (
	"fmt"
	"strings"
	"time"
)

// Balance is how the ranks share free tasks: the work pools of Wilkinson
// and Allen's chapter 7.
type Balance int

const (
	// Centralized: rank 0 is the master and holds the pool; every other
	// rank asks it for one task when it has none and sends the free tasks
	// it makes back to it.
	Centralized Balance = iota
	// RandomPolling: each rank its own pool; an idle rank asks a rank
	// drawn at random (not itself) for work, and gets half its free tasks.
	RandomPolling
	// RoundRobin: as RandomPolling, asking rank x = a counter incremented
	// after each request, modulo the ranks, skipping itself.
	RoundRobin
	// SenderInitiated: each rank its own pool; a rank holding more than
	// Config.Threshold free tasks sends half of them to the next rank in
	// round-robin order.
	SenderInitiated
	// Static: no task moves after the start; each rank runs the tasks it
	// was given and those they make (Out.Send still moves tasks, except
	// under SinglePassRing). AssignRandom gives the start.
	Static
	numBalances
)

var balanceNames = [...]string{"Centralized", "RandomPolling", "RoundRobin", "SenderInitiated", "Static"}

func (b Balance) String() string {
	if b < 0 || b >= numBalances {
		return fmt.Sprintf("Balance(%d)", int(b))
	}
	return balanceNames[b]
}

// Balances lists every pool.
func Balances() []Balance {
	return []Balance{Centralized, RandomPolling, RoundRobin, SenderInitiated, Static}
}

// ParseBalance reads a pool's name, as String writes it, in any case.
func ParseBalance(s string) (Balance, error) {
	for i, n := range balanceNames {
		if strings.EqualFold(s, n) {
			return Balance(i), nil
		}
	}
	return 0, fmt.Errorf("pool: no pool %q: want one of %s", s, strings.Join(balanceNames[:], ", "))
}

// Detector is how rank 0 learns that every rank is idle and no task is in
// transit: the termination detection algorithms of the chapter.
type Detector int

const (
	// Acknowledgement: Dijkstra and Scholten's algorithm as the text
	// gives it. The rank whose task wakes an idle rank becomes its parent;
	// every other task is acknowledged at once; a rank acknowledges its
	// parent's task only when it is idle and has had every task it sent
	// acknowledged. Rank 0 is the root: idle with nothing unacknowledged,
	// it declares termination.
	Acknowledgement Detector = iota
	// DualPassRing: Dijkstra's white and black token on the ring
	// 0, 1, ..., n-1, 0, every task acknowledged (the text's assumption).
	DualPassRing
	// Tree: the dual pass's colours on a binary tree (rank r's children
	// 2r+1 and 2r+2): rank 0 sends a probe down, each rank reports up,
	// when it is idle and its children have reported, the OR of its and
	// their colours.
	Tree
	// FixedEnergy: rank 0 starts with Config.Energy units; every message
	// carrying tasks carries half of its sender's units, and an idle rank
	// sends all it holds back to rank 0, which declares termination when
	// it holds every unit and is idle.
	FixedEnergy
	// SinglePassRing: a token passed on from rank 0 round the ring by each
	// rank once it is idle. It cannot see a rank woken again by a task
	// from another, so it runs only with the Static pool and no Out.Send
	// to another rank.
	SinglePassRing
	// QueueEmpty: the centralized pool's own rule, "the task queue is
	// empty and every process has made a request for another task without
	// any new tasks being generated". Each request carries how many task
	// messages its sender has sent the master, so that a request does not
	// pass the tasks sent before it. Centralized only, and no Out.Send to
	// another rank (such a task would bypass the master).
	QueueEmpty
	numDetectors
)

var detectorNames = [...]string{"Acknowledgement", "DualPassRing", "Tree", "FixedEnergy", "SinglePassRing", "QueueEmpty"}

func (d Detector) String() string {
	if d < 0 || d >= numDetectors {
		return fmt.Sprintf("Detector(%d)", int(d))
	}
	return detectorNames[d]
}

// Detectors lists every detector.
func Detectors() []Detector {
	return []Detector{Acknowledgement, DualPassRing, Tree, FixedEnergy, SinglePassRing, QueueEmpty}
}

// ParseDetector reads a detector's name, as String writes it, in any case.
func ParseDetector(s string) (Detector, error) {
	for i, n := range detectorNames {
		if strings.EqualFold(s, n) {
			return Detector(i), nil
		}
	}
	return 0, fmt.Errorf("pool: no detector %q: want one of %s", s, strings.Join(detectorNames[:], ", "))
}

// DefaultEnergy is FixedEnergy's total when Config.Energy is 0: 2^62
// units, halved at most 61 times down one chain of hand-outs before a rank
// must ask rank 0 for more.
const DefaultEnergy = 1 << 62

// DefaultThreshold is SenderInitiated's Config.Threshold when it is 0.
const DefaultThreshold = 4

// Config chooses a pool and a detector; every rank must pass the same.
type Config struct {
	Balance  Balance
	Detector Detector
	// Seed seeds RandomPolling's choices (with the rank).
	Seed uint64
	// Threshold is the number of free tasks above which SenderInitiated
	// passes tasks on (DefaultThreshold if 0).
	Threshold int
	// Energy is FixedEnergy's total (DefaultEnergy if 0); at least 4 units
	// a rank.
	Energy uint64
	// Timeout ends Run with an error when termination has not been
	// declared by then (none if 0): a rank that died or hangs.
	Timeout time.Duration
	// OnDeclare, if set, is called on rank 0 at the moment it declares
	// termination, before it tells the other ranks (for tests, which
	// check there that no task is left).
	OnDeclare func()
}

// check returns the error for a Config that cannot run on n ranks.
func (c *Config) check(n int) error {
	if c.Balance < 0 || c.Balance >= numBalances {
		return fmt.Errorf("pool: Config.Balance %d: want one of %s", int(c.Balance), strings.Join(balanceNames[:], ", "))
	}
	if c.Detector < 0 || c.Detector >= numDetectors {
		return fmt.Errorf("pool: Config.Detector %d: want one of %s", int(c.Detector), strings.Join(detectorNames[:], ", "))
	}
	if c.Detector == SinglePassRing && c.Balance != Static {
		return fmt.Errorf("pool: the SinglePassRing detector with the %v pool: a pool that hands a task to an idle rank reactivates it, which the single pass cannot see; use Static or another detector", c.Balance)
	}
	if c.Detector == QueueEmpty && c.Balance != Centralized {
		return fmt.Errorf("pool: the QueueEmpty detector with the %v pool: it is the centralized pool's rule, and needs every task to pass through the master", c.Balance)
	}
	if c.Threshold < 0 {
		return fmt.Errorf("pool: Config.Threshold %d: want >= 0", c.Threshold)
	}
	if c.Detector == FixedEnergy && c.Energy != 0 && c.Energy < 4*uint64(n) {
		return fmt.Errorf("pool: Config.Energy %d on %d ranks: want at least %d (4 units a rank)", c.Energy, n, 4*n)
	}
	if c.Timeout < 0 {
		return fmt.Errorf("pool: Config.Timeout %v: want >= 0", c.Timeout)
	}
	return nil
}
