package distributed

import (
	"fmt"
	"sync"
)

// Comm is what the ranks need of each other: MPI's calls in bench
// distributed, Local in tests. Every rank calls the collectives in the same
// order.
type Comm interface {
	Rank() int
	Size() int
	// ReduceScatterMin leaves block Rank() of the elementwise minimum of
	// every rank's send in recv: len(send) = Size()·len(recv).
	ReduceScatterMin(send, recv []uint64) error
	// Gather puts every rank's send, in rank order, into root's recv.
	Gather(send, recv []uint64, root int) error
	// AllgatherFloat64 gives every rank every rank's send, in rank order.
	AllgatherFloat64(send, recv []float64) error
	// AllgatherUint64 gives every rank every rank's send, in rank order.
	AllgatherUint64(send, recv []uint64) error
	// ReduceOr puts the elementwise bitwise OR of every rank's send into
	// root's recv.
	ReduceOr(send, recv []uint32, root int) error
	// Send sends msg to rank to, without waiting for to to receive it.
	// Messages from one rank to another arrive in the order sent.
	Send(to int, msg Msg) error
	// Receive starts receiving the next message from rank from.
	Receive(from int) (Receipt, error)
}

// Msg is a point-to-point message: the Left-Right Handoff's signals.
type Msg [4]int64

// Receipt is a receive under way.
type Receipt interface {
	// Test reports whether the message has arrived, without waiting.
	Test() (Msg, bool, error)
	// Wait waits for the message (under MPI, within the time limit).
	Wait() (Msg, error)
}

// Local is n ranks as goroutines of one process: Local(n)[r] is rank r.
// Its collectives copy through shared memory; a rank that never calls
// one makes the others wait for ever, as MPI would without time limits.
func Local(n int) []Comm {
	if n < 1 {
		panic(fmt.Sprintf("distributed: Local(%d): want 1 rank or more", n))
	}
	g := &localGroup{n: n, slots: make([]any, n), mail: make([][]chan Msg, n)}
	for from := range g.mail {
		g.mail[from] = make([]chan Msg, n)
		for to := range g.mail[from] {
			g.mail[from][to] = make(chan Msg, 64)
		}
	}
	g.cond = sync.NewCond(&g.mu)
	cs := make([]Comm, n)
	for r := range cs {
		cs[r] = &localComm{g: g, rank: r}
	}
	return cs
}

type localGroup struct {
	n     int
	mu    sync.Mutex
	cond  *sync.Cond
	slots []any
	count int
	gen   int
	mail  [][]chan Msg // mail[from][to]
}

// barrier waits until all n ranks arrive.
func (g *localGroup) barrier() {
	g.mu.Lock()
	defer g.mu.Unlock()
	gen := g.gen
	g.count++
	if g.count == g.n {
		g.count = 0
		g.gen++
		g.cond.Broadcast()
		return
	}
	for gen == g.gen {
		g.cond.Wait()
	}
}

// exchange publishes v as this rank's slot, runs f on all slots once every
// rank has published, and waits until every rank has run its f.
func (c *localComm) exchange(v any, f func(slots []any)) {
	g := c.g
	g.mu.Lock()
	g.slots[c.rank] = v
	g.mu.Unlock()
	g.barrier()
	f(g.slots)
	g.barrier()
}

type localComm struct {
	g    *localGroup
	rank int
}

func (c *localComm) Rank() int { return c.rank }
func (c *localComm) Size() int { return c.g.n }

func (c *localComm) ReduceScatterMin(send, recv []uint64) error {
	if len(send) != c.g.n*len(recv) {
		panic(fmt.Sprintf("distributed: ReduceScatterMin: %d words to send for %d ranks of %d", len(send), c.g.n, len(recv)))
	}
	c.exchange(send, func(slots []any) {
		off := c.rank * len(recv)
		for i := range recv {
			m := slots[0].([]uint64)[off+i]
			for _, s := range slots[1:] {
				m = min(m, s.([]uint64)[off+i])
			}
			recv[i] = m
		}
	})
	return nil
}

func (c *localComm) Gather(send, recv []uint64, root int) error {
	c.exchange(send, func(slots []any) {
		if c.rank != root {
			return
		}
		for r, s := range slots {
			copy(recv[r*len(send):], s.([]uint64))
		}
	})
	return nil
}

func (c *localComm) AllgatherFloat64(send, recv []float64) error {
	c.exchange(send, func(slots []any) {
		for r, s := range slots {
			copy(recv[r*len(send):], s.([]float64))
		}
	})
	return nil
}

func (c *localComm) Send(to int, msg Msg) error {
	c.g.mail[c.rank][to] <- msg
	return nil
}

func (c *localComm) Receive(from int) (Receipt, error) {
	return &localReceipt{ch: c.g.mail[from][c.rank]}, nil
}

type localReceipt struct {
	ch   chan Msg
	msg  Msg
	done bool
}

func (r *localReceipt) Test() (Msg, bool, error) {
	if !r.done {
		select {
		case r.msg = <-r.ch:
			r.done = true
		default:
		}
	}
	return r.msg, r.done, nil
}

func (r *localReceipt) Wait() (Msg, error) {
	if !r.done {
		r.msg, r.done = <-r.ch, true
	}
	return r.msg, nil
}

func (c *localComm) AllgatherUint64(send, recv []uint64) error {
	c.exchange(send, func(slots []any) {
		for r, s := range slots {
			copy(recv[r*len(send):], s.([]uint64))
		}
	})
	return nil
}

func (c *localComm) ReduceOr(send, recv []uint32, root int) error {
	c.exchange(send, func(slots []any) {
		if c.rank != root {
			return
		}
		for i := range recv {
			v := uint32(0)
			for _, s := range slots {
				v |= s.([]uint32)[i]
			}
			recv[i] = v
		}
	})
	return nil
}
