package distributed

import (
	"fmt"
	"math"
	"slices"
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
	if h.Slab < 1 {
		panic(fmt.Sprintf("distributed: Handoff.Slab %d, want 1 or more", h.Slab))
	}
	f := &handoffFrame{h: h, c: h.Comm, lo: lo, hi: hi}
	f.partner = Partner(f.c.Rank(), f.c.Size(), round)
	f.st.Partner = f.partner
	if err := f.race(render); err != nil {
		return f.lo, f.hi, f.st, err
	}
	if f.partner < 0 {
		return f.lo, f.hi, f.st, nil
	}
	err = f.takeOver(render)
	return f.lo, f.hi, f.st, err
}

// handoffFrame is one rank's round of the protocol.
type handoffFrame struct {
	h       *Handoff
	c       Comm
	lo, hi  int // the rank's share, as it moves
	st      HandoffStats
	partner int
	right   bool     // the partner is the right neighbour
	own     [][2]int // the pieces, in the order rendered
	rc      Receipt  // the partner's one message, under way
	got     *Msg     // that message, once here
	sent    bool     // this rank's one message is sent
	start   time.Time
	done    int // units rendered so far
}

// race renders the rank's own pieces, from the end away from its partner,
// and sends its one message on the way: the reply to a signal that came
// before its checkpoint, or its own signal once it reaches it.
func (f *handoffFrame) race(render func(a, b int) error) error {
	cp := f.h.Checkpoint
	if cp <= 0 || cp >= 1 {
		cp = 0.5
	}
	f.own = Pieces(f.lo, f.hi, f.h.Slab)
	f.right = f.partner == f.c.Rank()+1
	if !f.right && f.partner >= 0 {
		// Render from the right end, away from the left partner, so that
		// the pieces nearest it are the last to be reached.
		slices.Reverse(f.own)
	}
	checkpoint := int(math.Ceil(cp * float64(len(f.own))))
	if f.partner >= 0 {
		var err error
		if f.rc, err = f.c.Receive(f.partner); err != nil {
			return err
		}
	}
	f.start = time.Now()
	for i := 0; ; i++ {
		if f.partner >= 0 && !f.sent {
			if f.got == nil && i > 0 {
				// Only after a piece: the rate the reply predicts from.
				m, ok, err := f.rc.Test()
				if err != nil {
					return err
				}
				if ok {
					f.got = &m
				}
			}
			var err error
			switch {
			case f.got != nil && f.got[0] == msgSignal && i < checkpoint:
				err = f.reply(i)
			case i >= checkpoint:
				err = f.signal(i)
			}
			if err != nil {
				return err
			}
		}
		if i == len(f.own) {
			return nil
		}
		if err := render(f.own[i][0], f.own[i][1]); err != nil {
			return err
		}
		f.done += f.own[i][1] - f.own[i][0]
	}
}

// unitsLeft counts the units of the pieces from the i-th on.
func (f *handoffFrame) unitsLeft(i int) int {
	left := 0
	for _, p := range f.own[i:] {
		left += p[1] - p[0]
	}
	return left
}

// reply answers the partner's signal, which came before this rank's
// checkpoint, with whole pieces from the end nearest it (maybe none).
func (f *handoffFrame) reply(i int) error {
	rest := f.own[i:]
	left := f.unitsLeft(i)
	rate := time.Since(f.start).Seconds() / float64(f.done)
	theirs := math.Float64frombits(uint64(f.got[3]))
	// Giving g units: this rank ends at (left−g)·rate, the partner at
	// theirs + g·(rate+MoveCost); equal when
	// g = (left·rate − theirs) / (2·rate + MoveCost).
	g := (float64(left)*rate - theirs) / (2*rate + f.h.MoveCost)
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
		f.own = f.own[:len(f.own)-k]
		if f.right {
			f.hi = a
		} else {
			f.lo = b
		}
		f.st.Gave = units
	}
	if err := f.c.Send(f.partner, msg); err != nil {
		return err
	}
	f.sent = true
	return nil
}

// signal tells the partner that this rank reached its checkpoint first,
// with its predicted time left.
func (f *handoffFrame) signal(i int) error {
	left := f.unitsLeft(i)
	secs := 0.0
	if f.done > 0 {
		secs = float64(left) * time.Since(f.start).Seconds() / float64(f.done)
	}
	if err := f.c.Send(f.partner, Msg{msgSignal, int64(left), 0, int64(math.Float64bits(secs))}); err != nil {
		return err
	}
	f.sent, f.st.Signalled = true, true
	return nil
}

// takeOver waits for the partner's message and renders the pieces it
// handed over, if any.
func (f *handoffFrame) takeOver(render func(a, b int) error) error {
	if f.got == nil {
		m, err := f.rc.Wait()
		if err != nil {
			return err
		}
		f.got = &m
	}
	if f.got[0] != msgHandoff || f.got[1] == f.got[2] {
		return nil
	}
	a, b := int(f.got[1]), int(f.got[2])
	if !f.st.Signalled || a >= b || (f.right && a != f.hi) || (!f.right && b != f.lo) {
		return fmt.Errorf("distributed: rank %d handed rank %d units [%d, %d), not beside its share [%d, %d)", f.partner, f.c.Rank(), a, b, f.lo, f.hi)
	}
	for _, p := range Pieces(a, b, f.h.Slab) {
		if err := render(p[0], p[1]); err != nil {
			return err
		}
	}
	f.st.Took = b - a
	if f.right {
		f.hi = b
	} else {
		f.lo = a
	}
	return nil
}
