package balancer

import (
	"time"

	"github.com/dpgl/dpgl/gpu"
)

// timelineStamps bounds the timestamp queries a loop keeps in flight. When
// all are in use the oldest is read, which by then has long completed: the
// queue of work the host runs ahead by stays unbounded in practice, and the
// queries stay few.
const timelineStamps = 256

// timeline times the phases of a run with one GPU timestamp at the start of
// each phase and one at the end: a phase lasts until the next one starts,
// so it includes the host's round trip after it (a gathering's read-back
// and decision), which the GPU spends idle and the paper's cost must count.
type timeline struct {
	c       *gpu.Context
	free    []*gpu.Stamp
	all     []*gpu.Stamp
	open    []mark // recorded, not read yet, oldest first
	running bool
	hasPrev bool
	prev    mark
	prevNs  uint64
	log     []span
}

type mark struct {
	phase Phase
	iter  int
	n     int // iterations (a batched solution phase runs several)
	st    *gpu.Stamp
}

func (t *timeline) begin() {
	// A run that panicked may have left stamps open: they are free again.
	for _, m := range t.open {
		t.free = append(t.free, m.st)
	}
	t.open = t.open[:0]
	t.running, t.hasPrev, t.log = true, false, nil
}

// mark starts phase p of iteration iter. It runs on the GL thread.
func (t *timeline) mark(p Phase, iter int) { t.markN(p, iter, 1) }

// markN starts phase p of iterations iter to iter+n-1.
func (t *timeline) markN(p Phase, iter, n int) {
	if !t.running {
		return
	}
	if len(t.free) == 0 {
		if len(t.all) < timelineStamps {
			s := t.c.NewStamp()
			t.all = append(t.all, s)
			t.free = append(t.free, s)
		} else {
			t.readOldest()
		}
	}
	s := t.free[len(t.free)-1]
	t.free = t.free[:len(t.free)-1]
	s.Record()
	t.open = append(t.open, mark{p, iter, n, s})
}

// readOldest reads the oldest open stamp, closing the phase before it.
func (t *timeline) readOldest() {
	m := t.open[0]
	t.open = t.open[1:]
	ns := m.st.Nanos()
	if t.hasPrev {
		d := time.Duration(0)
		if ns > t.prevNs {
			d = time.Duration(ns - t.prevNs)
		}
		t.log = append(t.log, span{t.prev.phase, t.prev.iter, t.prev.n, d})
	}
	t.hasPrev, t.prev, t.prevNs = true, m, ns
	t.free = append(t.free, m.st)
}

// end closes the last phase, waits for every stamp and returns the spans.
// Later calls return the same spans until the next begin.
func (t *timeline) end() []span {
	if t.running {
		t.c.Do(func() {
			t.mark(-1, -1)
			for len(t.open) > 0 {
				t.readOldest()
			}
		})
		t.running = false
	}
	return t.log
}

func (t *timeline) delete() {
	for _, s := range t.all {
		s.Delete()
	}
	t.all, t.free, t.open = nil, nil, nil
}
