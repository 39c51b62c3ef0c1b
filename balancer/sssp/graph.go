package sssp

import (
	"fmt"
	"math"
)

// Unreachable is the distance of a vertex no path reaches.
const Unreachable = math.MaxUint64

// MaxWeight is the largest edge weight: the GPU keeps distances in 32 bits,
// with 0xFFFFFFFF meaning unreachable.
const MaxWeight = math.MaxUint32 - 1

// Graph is a directed graph with non-negative integer edge weights in
// compressed sparse rows: vertex v's edges are Targets[e], Weights[e] for
// e in [Offsets[v], Offsets[v+1]). Vertices are numbered from 0.
type Graph struct {
	N       int
	Offsets []uint32 // N+1 entries
	Targets []uint32
	Weights []uint32
}

// Edge is an edge as NewGraph takes it. Weight is signed so that a negative
// weight can be refused with a clear error rather than wrap around.
type Edge struct {
	From, To int
	Weight   int64
}

// maxVertices and maxEdges keep every index in 32 bits (and the vertex
// count below the balancer's 2^31 processors).
const (
	maxVertices = math.MaxInt32
	maxEdges    = math.MaxUint32
)

// NewGraph builds the graph of n vertices with the given edges, in the
// order given per vertex. A negative weight, a weight above MaxWeight or an
// endpoint outside [0, n) is an error naming the edge.
func NewGraph(n int, edges []Edge) (*Graph, error) {
	if n < 0 || n > maxVertices {
		return nil, fmt.Errorf("sssp: NewGraph: %d vertices: want 0..%d", n, maxVertices)
	}
	if len(edges) > maxEdges {
		return nil, fmt.Errorf("sssp: NewGraph: %d edges: want at most %d", len(edges), maxEdges)
	}
	g := &Graph{N: n, Offsets: make([]uint32, n+1), Targets: make([]uint32, len(edges)), Weights: make([]uint32, len(edges))}
	for i, e := range edges {
		if e.From < 0 || e.From >= n || e.To < 0 || e.To >= n {
			return nil, fmt.Errorf("sssp: NewGraph: edge %d (%d -> %d): an endpoint is outside 0..%d", i, e.From, e.To, n-1)
		}
		if e.Weight < 0 {
			return nil, fmt.Errorf("sssp: NewGraph: edge %d (%d -> %d) has negative weight %d: Moore's and Dijkstra's algorithms need weights >= 0", i, e.From, e.To, e.Weight)
		}
		if e.Weight > MaxWeight {
			return nil, fmt.Errorf("sssp: NewGraph: edge %d (%d -> %d) has weight %d, above the largest, %d", i, e.From, e.To, e.Weight, uint64(MaxWeight))
		}
		g.Offsets[e.From+1]++
	}
	for v := 0; v < n; v++ {
		g.Offsets[v+1] += g.Offsets[v]
	}
	at := make([]uint32, n)
	copy(at, g.Offsets[:n])
	for _, e := range edges {
		k := at[e.From]
		at[e.From]++
		g.Targets[k], g.Weights[k] = uint32(e.To), uint32(e.Weight)
	}
	return g, nil
}

// M is the number of edges.
func (g *Graph) M() int { return len(g.Targets) }

// OutDegree is the number of edges leaving v: its workload when it is on
// the frontier.
func (g *Graph) OutDegree(v int) int { return int(g.Offsets[v+1] - g.Offsets[v]) }

// Edges lists the graph's edges, vertex by vertex.
func (g *Graph) Edges() []Edge {
	out := make([]Edge, 0, g.M())
	for v := 0; v < g.N; v++ {
		for e := g.Offsets[v]; e < g.Offsets[v+1]; e++ {
			out = append(out, Edge{v, int(g.Targets[e]), int64(g.Weights[e])})
		}
	}
	return out
}

// check panics unless g is a well-formed graph (for the solver, which
// trusts the arrays it uploads).
func (g *Graph) check(fn string) {
	if g == nil {
		panic("sssp: " + fn + ": g is nil")
	}
	if g.N < 0 || len(g.Offsets) != g.N+1 || len(g.Targets) != len(g.Weights) || g.Offsets[0] != 0 || int(g.Offsets[g.N]) != len(g.Targets) {
		panic(fmt.Sprintf("sssp: %s: g is not a graph in compressed sparse rows (N %d, %d offsets, %d targets, %d weights)", fn, g.N, len(g.Offsets), len(g.Targets), len(g.Weights)))
	}
	for v := 0; v < g.N; v++ {
		if g.Offsets[v+1] < g.Offsets[v] {
			panic(fmt.Sprintf("sssp: %s: g.Offsets decreases at vertex %d", fn, v))
		}
	}
	for e, t := range g.Targets {
		if int(t) >= g.N {
			panic(fmt.Sprintf("sssp: %s: edge %d goes to vertex %d of %d", fn, e, t, g.N))
		}
		if g.Weights[e] > MaxWeight {
			panic(fmt.Sprintf("sssp: %s: edge %d has weight %d, above MaxWeight", fn, e, g.Weights[e]))
		}
	}
}
