package distributed

import (
	"fmt"
	"math"
	"time"
)

// Handoff is one rank's side of the Left-Right Handoff protocol, run
// within each frame: no rank decides for another, and a rank talks to one
// neighbour a frame.
//
// A rank's share of the units (triangles, or a volume's cell layers) is
// cut into pieces at the multiples of Slab. In round k the ranks race in
// pairs, (0,1), (2,3), … for even k and (1,2), (3,4), … for odd k, so that
// each alternates between its right and its left partner. A rank renders
// its pieces starting at the end away from its partner, and when it has
// rendered the Checkpoint fraction of them it signals its partner with its
// predicted remaining time, then goes on without waiting. A rank that gets
// the signal before its own checkpoint hands the signaller whole pieces
// from the end nearest it, as many as even out the two predicted finishing
// times, the move's cost counted (none when moving costs more than it
// saves), and says so in one message. The signaller renders them after its
// own, once the reply is there. The boundary between the two stays moved
// for later frames: work diffuses over the rounds from busy ranks to idle
// neighbours.
//
// Each rank sends exactly one message to its partner a round (the signal,
// or the handoff reply) and receives exactly one, so no message is left
// over and the rounds cannot mix. Which rank renders a unit does not
// change the composited image: the ids are global (Globalize) and
// compositing is a minimum.
type Handoff struct {
	Comm Comm
	// Checkpoint is the fraction of its pieces a rank renders before it
	// signals its partner; 0 means 0.5.
	Checkpoint float64
	// MoveCost is the time, in seconds, to move one unit to the partner
	// (its upload there; across nodes its bytes on the wire too).
	MoveCost float64
	// Slab is the size of a piece in units: the granularity of both the
	// checkpoint and the handoffs.
	Slab int
}

// HandoffStats is one rank's round.
type HandoffStats struct {
	Partner int // -1 when the rank sits this round out
	// Signalled: the rank reached its checkpoint first (as far as it knew)
	// and signalled; otherwise it got the signal first and replied.
	Signalled bool
	Gave      int // units handed to the partner
	Took      int // units taken over from the partner
}

// Message kinds.
const (
	msgSignal  = 1 // {kind, units left, 0, predicted seconds left (float64 bits)}
	msgHandoff = 2 // {kind, first unit, end unit, 0}: [first, end) is the receiver's now
)

// Partner is rank's partner in round, or −1.
func Partner(rank, size, round int) int {
	p := rank + 1
	if (rank+round)%2 != 0 {
		p = rank - 1
	}
	if p < 0 || p >= size {
		return -1
	}
	return p
}

// Pieces cuts [lo, hi) at the multiples of slab: the pieces a rank renders
// one at a time, and hands off whole.
func Pieces(lo, hi, slab int) [][2]int {
	var ps [][2]int
	for a := lo; a < hi; {
		b := min(hi, (a/slab+1)*slab)
		ps = append(ps, [2]int{a, b})
		a = b
	}
	return ps
}

// Frame renders this rank's share [lo, hi) for round round by calling
// render on its pieces (and on the pieces its partner hands it), playing
// its side of the protocol, and returns its share for the next round.
func (h *Handoff) Frame(round, lo, hi int, render func(a, b int) error) (newLo, newHi int, st HandoffStats, err error) {
	c := h.Comm
	if h.Slab < 1 {
		panic(fmt.Sprintf("distributed: Handoff.Slab %d, want 1 or more", h.Slab))
	}
	cp := h.Checkpoint
	if cp <= 0 || cp >= 1 {
		cp = 0.5
	}
	partner := Partner(c.Rank(), c.Size(), round)
	st.Partner = partner
	own := Pieces(lo, hi, h.Slab)
	right := partner == c.Rank()+1
	if !right && partner >= 0 {
		// Render from the right end, away from the left partner, so that
		// the pieces nearest it are the last to be reached.
		for i, j := 0, len(own)-1; i < j; i, j = i+1, j-1 {
			own[i], own[j] = own[j], own[i]
		}
	}
	checkpoint := int(math.Ceil(cp * float64(len(own))))
	var rc Receipt
	if partner >= 0 {
		if rc, err = c.Receive(partner); err != nil {
			return lo, hi, st, err
		}
	}
	start := time.Now()
	sent, unitsDone := false, 0
	var got *Msg
	for i := 0; ; i++ {
		if partner >= 0 && !sent {
			if got == nil && i > 0 {
				// Only after a piece: the rate the reply predicts from.
				m, ok, err := rc.Test()
				if err != nil {
					return lo, hi, st, err
				}
				if ok {
					got = &m
				}
			}
			switch {
			case got != nil && got[0] == msgSignal && i < checkpoint:
				rest := own[i:]
				left := 0
				for _, p := range rest {
					left += p[1] - p[0]
				}
				rate := time.Since(start).Seconds() / float64(unitsDone)
				theirs := math.Float64frombits(uint64(got[3]))
				// Giving g units: this rank ends at (left−g)·rate, the
				// partner at theirs + g·(rate+MoveCost); equal when
				// g = (left·rate − theirs) / (2·rate + MoveCost).
				g := (float64(left)*rate - theirs) / (2*rate + h.MoveCost)
				k, units := 0, 0
				for k < len(rest) {
					p := rest[len(rest)-1-k]
					if float64(units)+float64(p[1]-p[0])/2 > g {
						break
					}
					units += p[1] - p[0]
					k++
				}
				msg := Msg{msgHandoff, 0, 0, 0}
				if k > 0 {
					given := rest[len(rest)-k:]
					a, b := given[0][0], given[0][1]
					for _, p := range given {
						a, b = min(a, p[0]), max(b, p[1])
					}
					msg[1], msg[2] = int64(a), int64(b)
					own = own[:len(own)-k]
					if right {
						hi = a
					} else {
						lo = b
					}
					st.Gave = units
				}
				if err := c.Send(partner, msg); err != nil {
					return lo, hi, st, err
				}
				sent = true
			case i >= checkpoint:
				left := 0
				for _, p := range own[i:] {
					left += p[1] - p[0]
				}
				secs := 0.0
				if unitsDone > 0 {
					secs = float64(left) * time.Since(start).Seconds() / float64(unitsDone)
				}
				if err := c.Send(partner, Msg{msgSignal, int64(left), 0, int64(math.Float64bits(secs))}); err != nil {
					return lo, hi, st, err
				}
				sent, st.Signalled = true, true
			}
		}
		if i == len(own) {
			break
		}
		if err := render(own[i][0], own[i][1]); err != nil {
			return lo, hi, st, err
		}
		unitsDone += own[i][1] - own[i][0]
	}
	if partner < 0 {
		return lo, hi, st, nil
	}
	if got == nil {
		m, err := rc.Wait()
		if err != nil {
			return lo, hi, st, err
		}
		got = &m
	}
	if got[0] != msgHandoff || got[1] == got[2] {
		return lo, hi, st, nil
	}
	a, b := int(got[1]), int(got[2])
	if !st.Signalled || a >= b || (right && a != hi) || (!right && b != lo) {
		return lo, hi, st, fmt.Errorf("distributed: rank %d handed rank %d units [%d, %d), not beside its share [%d, %d)", partner, c.Rank(), a, b, lo, hi)
	}
	for _, p := range Pieces(a, b, h.Slab) {
		if err := render(p[0], p[1]); err != nil {
			return lo, hi, st, err
		}
	}
	st.Took = b - a
	if right {
		hi = b
	} else {
		lo = a
	}
	return lo, hi, st, nil
}
