package pool

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"time"
)

// Faults are the misbehaviours a Local network injects, each drawn from a
// generator seeded with Seed and the sending (or, for the order of
// delivery, the receiving) rank, so that a failing case names its seed.
// Goroutine scheduling still varies from run to run.
type Faults struct {
	Seed uint64
	// Delay holds each message back for a time drawn uniformly from
	// [0, Delay).
	Delay time.Duration
	// HoldBack is the fraction of messages held back for HoldFor more:
	// long enough that their receiver looks idle, and that later
	// messages overtake them.
	HoldBack float64
	HoldFor  time.Duration
	// Reorder delivers a random one of the messages that are due, not the
	// oldest.
	Reorder bool
}

// NewLocal returns the endpoints of an in-process network of n ranks,
// endpoint r being rank r's Transport.
func NewLocal(n int, f Faults) []Transport {
	if n < 1 {
		panic(fmt.Sprintf("pool: NewLocal: %d ranks", n))
	}
	if f.Delay < 0 || f.HoldFor < 0 || f.HoldBack < 0 || f.HoldBack > 1 {
		panic(fmt.Sprintf("pool: NewLocal: faults %+v: want delays >= 0 and HoldBack in [0, 1]", f))
	}
	ends := make([]*local, n)
	for r := range ends {
		ends[r] = &local{
			rank:   r,
			faults: f,
			send:   rand.New(rand.NewPCG(f.Seed, uint64(2*r))),
			order:  rand.New(rand.NewPCG(f.Seed, uint64(2*r+1))),
			wake:   make(chan struct{}, 1),
		}
	}
	out := make([]Transport, n)
	for r, e := range ends {
		e.all = ends
		out[r] = e
	}
	return out
}

type parcel struct {
	from int
	msg  []byte
	due  time.Time
	seq  uint64
}

type local struct {
	rank   int
	all    []*local
	faults Faults
	send   *rand.Rand // the sender's draws: delays and hold-backs
	order  *rand.Rand // the receiver's draws: which due message first

	mu    sync.Mutex
	inbox []parcel
	seq   uint64
	wake  chan struct{}
}

func (l *local) Rank() int { return l.rank }
func (l *local) Size() int { return len(l.all) }

func (l *local) Send(to int, msg []byte) error {
	if to < 0 || to >= len(l.all) {
		return fmt.Errorf("pool: local transport: rank %d sends to rank %d of %d", l.rank, to, len(l.all))
	}
	var wait time.Duration
	if l.faults.Delay > 0 {
		wait = time.Duration(l.send.Int64N(int64(l.faults.Delay)))
	}
	if l.faults.HoldBack > 0 && l.send.Float64() < l.faults.HoldBack {
		wait += l.faults.HoldFor
	}
	dst := l.all[to]
	dst.mu.Lock()
	dst.seq++
	dst.inbox = append(dst.inbox, parcel{l.rank, append([]byte(nil), msg...), time.Now().Add(wait), dst.seq})
	dst.mu.Unlock()
	select {
	case dst.wake <- struct{}{}:
	default:
	}
	return nil
}

func (l *local) Recv(wait time.Duration) (int, []byte, bool, error) {
	deadline := time.Now().Add(wait)
	for {
		now := time.Now()
		l.mu.Lock()
		pick, next := -1, time.Time{}
		var due []int
		for i, p := range l.inbox {
			if !p.due.After(now) {
				due = append(due, i)
				if pick < 0 || p.seq < l.inbox[pick].seq {
					pick = i
				}
			} else if next.IsZero() || p.due.Before(next) {
				next = p.due
			}
		}
		if len(due) > 0 {
			if l.faults.Reorder {
				pick = due[l.order.IntN(len(due))]
			}
			p := l.inbox[pick]
			l.inbox = append(l.inbox[:pick], l.inbox[pick+1:]...)
			l.mu.Unlock()
			return p.from, p.msg, true, nil
		}
		l.mu.Unlock()
		if !now.Before(deadline) {
			return 0, nil, false, nil
		}
		until := deadline
		if !next.IsZero() && next.Before(until) {
			until = next
		}
		t := time.NewTimer(until.Sub(now))
		select {
		case <-l.wake:
		case <-t.C:
		}
		t.Stop()
	}
}
