package distributed

import (
	"fmt"
	"math"
	"strings"
)

// Policy is how triangles move between ranks from frame to frame.
type Policy int

const (
	Static           Policy = iota // the first, equal partition throughout
	LeftRightHandoff               // neighbours in alternate pairs hand off slabs
	CostEffective                  // the paper's global decision from every rank's time
)

// Policies lists every policy, in order.
var Policies = []Policy{Static, LeftRightHandoff, CostEffective}

func (p Policy) String() string {
	switch p {
	case Static:
		return "Static"
	case LeftRightHandoff:
		return "LeftRightHandoff"
	case CostEffective:
		return "CostEffective"
	}
	return fmt.Sprintf("Policy(%d)", int(p))
}

// ParsePolicy reads a policy's name, case-insensitively (LRH too).
func ParsePolicy(s string) (Policy, error) {
	for _, p := range Policies {
		if strings.EqualFold(s, p.String()) {
			return p, nil
		}
	}
	if strings.EqualFold(s, "LRH") {
		return LeftRightHandoff, nil
	}
	return 0, fmt.Errorf("no balancing policy %q (have Static, LeftRightHandoff (LRH), CostEffective)", s)
}

// Balancer moves the share boundaries between frames, from every rank's
// time: the global decisions (Static, CostEffective). Every rank runs the
// same Balancer on the same allgathered times, so all compute the same
// boundaries. LeftRightHandoff balances within the frame between
// neighbours (Handoff); Next leaves its boundaries as they are.
type Balancer struct {
	Policy Policy
	// MoveCost is the time, in the times' unit, to move one unit (a
	// triangle, a cell layer) between ranks (its upload, and its bytes on
	// the wire across nodes): a move must save more than it costs.
	MoveCost float64
}

// Next returns the next frame's boundaries from this frame's (bounds, as
// Partition gives them) and every rank's time for its share, and the
// number of boundaries it moved (handoffs).
func (b *Balancer) Next(bounds []int, times []float64) (next []int, handoffs int) {
	n := len(bounds) - 1
	if n < 1 || len(times) != n {
		panic(fmt.Sprintf("distributed: Balancer.Next: %d bounds for %d times", len(bounds), len(times)))
	}
	next = append([]int(nil), bounds...)
	rho := densities(bounds, times)
	switch b.Policy {
	case CostEffective:
		total, slowest := 0.0, 0.0
		for _, t := range times {
			total += t
			slowest = max(slowest, t)
		}
		moved := make([]int, n+1)
		splitCosts(bounds, rho, moved)
		moved[n] = bounds[n]
		// The most triangles a rank takes on: the cost of the move.
		most := 0
		for r := 0; r < n; r++ {
			in := (moved[r+1] - moved[r]) - overlap(bounds[r], bounds[r+1], moved[r], moved[r+1])
			most = max(most, in)
		}
		if slowest-total/float64(n) > b.MoveCost*float64(most) {
			for k := 1; k < n; k++ {
				if moved[k] != bounds[k] {
					handoffs++
				}
			}
			next = moved
		}
	}
	return next, handoffs
}

func overlap(a0, a1, b0, b1 int) int { return max(0, min(a1, b1)-max(a0, b0)) }

// densities is each share's time per triangle; an empty share takes the
// mean density, so that moving triangles to it is not predicted free.
func densities(bounds []int, times []float64) []float64 {
	n := len(times)
	rho := make([]float64, n)
	sum, tris := 0.0, 0
	for r := range times {
		sum += times[r]
		tris += bounds[r+1] - bounds[r]
	}
	mean := 0.0
	if tris > 0 {
		mean = sum / float64(tris)
	}
	for r := range rho {
		if c := bounds[r+1] - bounds[r]; c > 0 {
			rho[r] = times[r] / float64(c)
		} else {
			rho[r] = mean
		}
	}
	return rho
}

// cost is the predicted time of triangles [lo, hi).
func cost(rho []float64, bounds []int, lo, hi int) float64 {
	c := 0.0
	for r := range rho {
		c += rho[r] * float64(overlap(bounds[r], bounds[r+1], lo, hi))
	}
	return c
}

// splitCosts sets moved[k], for k = 1..n-1, to the triangle where the
// predicted cost of [0, i) first reaches k/n of the whole's, in one sweep
// over the shares (linear in n, where a search from share 0 for each k was
// quadratic: 10,000 ranks took seconds a frame). The targets rise with k,
// so the k-th lies in the share of the (k-1)-th or after it, and the sum
// acc before each share is the one a search from 0 forms: the same splits.
func splitCosts(bounds []int, rho []float64, moved []int) {
	n := len(rho)
	hi := bounds[n]
	total := cost(rho, bounds, 0, hi)
	r, acc := 0, 0.0
	for k := 1; k < n; k++ {
		want := float64(k) / float64(n) * total
		moved[k] = hi
		for ; r < n; r++ {
			a, b := bounds[r], min(bounds[r+1], hi)
			if a >= b {
				continue
			}
			c := rho[r] * float64(b-a)
			if acc+c >= want {
				if rho[r] <= 0 {
					moved[k] = a
				} else {
					moved[k] = min(b, a+int(math.Round((want-acc)/rho[r])))
				}
				break
			}
			acc += c
		}
	}
}

// Imbalance is the slowest time over the mean (1 is perfect balance).
func Imbalance(times []float64) float64 {
	sum, most := 0.0, 0.0
	for _, t := range times {
		sum += t
		most = max(most, t)
	}
	if sum == 0 {
		return 1
	}
	return most / (sum / float64(len(times)))
}
