package sssp

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/dpgl/dpgl/balancer/pool"
)

// Owner is the rank that owns vertex v when n vertices are split among
// ranks in blocks: rank r owns [r·n/ranks, (r+1)·n/ranks).
func Owner(v, n, ranks int) int { return int(uint64(v) * uint64(ranks) / uint64(n)) }

// Moore's algorithm across ranks, as the text's decentralized work pool:
// two kinds of task.
const (
	// taskDistance (v, d, p): a distance d to vertex v through p, sent to
	// v's owner, which keeps it if it is shorter than dist[v].
	taskDistance byte = 'd'
	// taskVertex (v, d): examine vertex v at distance d, relaxing its edges.
	taskVertex byte = 'v'
)

// MoorePool finds the distances from source by Moore's algorithm on a
// message-passing work pool: this rank's part of a job in which every rank
// calls it with the same graph, source and cfg. It returns, for the
// vertices this rank owns (Owner), their distances and predecessors (-1 for
// the source and where no path leads); other entries are Unreachable and
// -1. MergeRanks puts the ranks' parts together.
//
// Every rank holds the whole graph (the text: "this structure could be
// copied into each slave"); dist[] is split, each vertex's on its owner.
// Examining vertex i sends each neighbour j's new distance d[i]+w to j's
// owner as a task pinned to it; an owner whose d[j] falls records the
// predecessor and queues vertex j again (the reactivation). A queued vertex
// is a free task, so the pool may hand it to another rank: the pool is
// what balances the search. Each rank's queue is first in, first out.
//
// Departure from the text: it queues j "if not already in the queue". A
// pool that moves tasks between ranks has no one queue to look in, so a
// vertex task is queued each time d[j] falls and carries that distance; one
// that reaches j's owner after d[j] fell further is dropped, one examined
// elsewhere only sends distances that are not shorter.
func MoorePool(tr pool.Transport, cfg pool.Config, g *Graph, source int) (dist []uint64, pred []int, st pool.Stats, err error) {
	g.check("MoorePool")
	if source < 0 || source >= g.N {
		return nil, nil, st, fmt.Errorf("sssp: MoorePool: source %d outside 0..%d", source, g.N-1)
	}
	switch cfg.Detector {
	case pool.SinglePassRing:
		return nil, nil, st, errors.New("sssp: MoorePool: the SinglePassRing detector: a distance sent to another rank wakes it again, which the single pass cannot see")
	case pool.QueueEmpty:
		return nil, nil, st, errors.New("sssp: MoorePool: the QueueEmpty detector: a distance goes straight to its vertex's owner, not through the master, which alone that rule watches")
	}
	me, ranks := tr.Rank(), tr.Size()
	dist = make([]uint64, g.N)
	pred = make([]int, g.N)
	for v := range dist {
		dist[v], pred[v] = Unreachable, -1
	}
	var start [][]byte
	var buf []byte
	if Owner(source, g.N, ranks) == me {
		// The source's distance is set here: a starting task is free, and
		// the pool might run it on a rank that does not own the source.
		dist[source] = 0
		buf = append(buf[:0], taskVertex)
		start = [][]byte{binary.AppendUvarint(binary.AppendUvarint(buf, uint64(source)), 0)}
		buf = nil
	}
	st, err = pool.Run(tr, cfg, start, func(task []byte, out *pool.Out) error {
		kind, v, d, p, err := decodeMoore(task, g.N)
		if err != nil {
			return err
		}
		switch kind {
		case taskDistance:
			if d < dist[v] {
				dist[v], pred[v] = d, p
				buf = append(buf[:0], taskVertex)
				buf = binary.AppendUvarint(binary.AppendUvarint(buf, uint64(v)), d)
				out.Spawn(buf)
			}
		case taskVertex:
			if Owner(v, g.N, ranks) == me && d > dist[v] {
				return nil // d[v] fell since: a newer task examines v
			}
			for e := g.Offsets[v]; e < g.Offsets[v+1]; e++ {
				u := int(g.Targets[e])
				out.Send(Owner(u, g.N, ranks), distanceTask(u, d+uint64(g.Weights[e]), v))
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, st, fmt.Errorf("sssp: MoorePool: %w", err)
	}
	return dist, pred, st, nil
}

func distanceTask(v int, d uint64, p int) []byte {
	b := binary.AppendUvarint([]byte{taskDistance}, uint64(v))
	b = binary.AppendUvarint(b, d)
	return binary.AppendUvarint(b, uint64(p+1)) // 0: no predecessor
}

func decodeMoore(b []byte, n int) (kind byte, v int, d uint64, p int, err error) {
	bad := fmt.Errorf("sssp: MoorePool: a malformed task of %d bytes", len(b))
	if len(b) < 1 || (b[0] != taskDistance && b[0] != taskVertex) {
		return 0, 0, 0, 0, bad
	}
	kind, r := b[0], b[1:]
	var x [3]uint64
	fields := 2
	if kind == taskDistance {
		fields = 3
	}
	for i := 0; i < fields; i++ {
		val, k := binary.Uvarint(r)
		if k <= 0 {
			return 0, 0, 0, 0, bad
		}
		x[i], r = val, r[k:]
	}
	if x[0] >= uint64(n) || x[2] > uint64(n) {
		return 0, 0, 0, 0, bad
	}
	return kind, int(x[0]), x[1], int(x[2]) - 1, nil
}

// MergeRanks puts the ranks' parts of MoorePool's answer together:
// parts[r] is rank r's dist (or pred), each vertex taken from its owner.
func MergeRanks[T any](parts [][]T) []T {
	if len(parts) == 0 {
		return nil
	}
	n := len(parts[0])
	out := make([]T, n)
	for v := range out {
		out[v] = parts[Owner(v, n, len(parts))][v]
	}
	return out
}

// CheckTree returns an error unless dist are the shortest distances from
// source that want gives and pred a shortest-path tree for them: each
// reached vertex but the source has an edge from pred[v] with
// dist[pred[v]] + w = dist[v], and following pred reaches the source.
func CheckTree(g *Graph, source int, want, dist []uint64, pred []int) error {
	if len(dist) != g.N || len(pred) != g.N || len(want) != g.N {
		return fmt.Errorf("sssp: CheckTree: %d distances and %d predecessors for %d vertices", len(dist), len(pred), g.N)
	}
	for v := 0; v < g.N; v++ {
		if dist[v] != want[v] {
			return fmt.Errorf("sssp: vertex %d at distance %d, want %d", v, dist[v], want[v])
		}
		p := pred[v]
		switch {
		case v == source || dist[v] == Unreachable:
			if p != -1 {
				return fmt.Errorf("sssp: vertex %d (distance %d) has predecessor %d, want none", v, dist[v], p)
			}
			continue
		case p < 0 || p >= g.N:
			return fmt.Errorf("sssp: vertex %d has predecessor %d", v, p)
		}
		ok := false
		for e := g.Offsets[p]; e < g.Offsets[p+1] && !ok; e++ {
			ok = int(g.Targets[e]) == v && dist[p] != Unreachable && dist[p]+uint64(g.Weights[e]) == dist[v]
		}
		if !ok {
			return fmt.Errorf("sssp: vertex %d's predecessor %d: no edge %d -> %d of weight %d - %d", v, p, p, v, dist[v], dist[p])
		}
	}
	// Each walk back along pred ends at the source or at a vertex already
	// known to reach it (state 2); meeting this walk's own vertex (state 1)
	// is a cycle of zero weight that misses the source.
	state := make([]byte, g.N)
	var walk []int
	for v := 0; v < g.N; v++ {
		walk = walk[:0]
		u := v
		for u >= 0 && state[u] == 0 {
			state[u] = 1
			walk = append(walk, u)
			u = pred[u]
		}
		if u >= 0 && state[u] == 1 {
			return fmt.Errorf("sssp: the predecessors from vertex %d go round a cycle through %d", v, u)
		}
		for _, w := range walk {
			state[w] = 2
		}
	}
	return nil
}
