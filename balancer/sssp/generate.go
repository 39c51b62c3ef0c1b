package sssp

import (
	"fmt"
	"math/rand/v2"
)

// weight draws a weight uniformly from [0, maxWeight].
func weight(r *rand.Rand, maxWeight uint32) int64 {
	return int64(r.Uint64N(uint64(maxWeight) + 1))
}

// Grid is the w x h grid with an edge each way between neighbours (4-connected),
// each direction weighted on its own from [0, maxWeight] (climbing a
// mountain costs more than coming down). Vertex (x, y) is y*w + x. Every
// out-degree is 2, 3 or 4: a balanced loop, and a long one (about w + h
// frontier rounds from a corner).
func Grid(w, h int, maxWeight uint32, r *rand.Rand) *Graph {
	if w < 1 || h < 1 || w*h > maxVertices {
		panic(fmt.Sprintf("sssp: Grid: %d x %d vertices", w, h))
	}
	var edges []Edge
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := y*w + x
			if x+1 < w {
				edges = append(edges, Edge{v, v + 1, weight(r, maxWeight)}, Edge{v + 1, v, weight(r, maxWeight)})
			}
			if y+1 < h {
				edges = append(edges, Edge{v, v + w, weight(r, maxWeight)}, Edge{v + w, v, weight(r, maxWeight)})
			}
		}
	}
	g, err := NewGraph(w*h, edges)
	if err != nil {
		panic(err) // the edges above are valid by construction
	}
	return g
}

// RMAT is a recursive-matrix power-law graph (Chakrabarti, Zhan and
// Faloutsos, 2004) with 2^scale vertices and edgeFactor * 2^scale edges:
// each edge picks a quadrant of the adjacency matrix with probabilities
// 0.57, 0.19, 0.19, 0.05, scale times. Vertex labels are then shuffled, so
// the few vertices of huge out-degree lie anywhere: a naturally unbalanced
// loop. Weights are uniform on [0, maxWeight]; self-loops and repeated
// edges are kept.
func RMAT(scale, edgeFactor int, maxWeight uint32, r *rand.Rand) *Graph {
	if scale < 0 || scale > 30 || edgeFactor < 0 || uint64(edgeFactor)<<scale > maxEdges {
		panic(fmt.Sprintf("sssp: RMAT: scale %d, edge factor %d", scale, edgeFactor))
	}
	n := 1 << scale
	perm := r.Perm(n)
	edges := make([]Edge, edgeFactor*n)
	for i := range edges {
		u, v := 0, 0
		for bit := 0; bit < scale; bit++ {
			p := r.Float64()
			switch {
			case p < 0.57:
			case p < 0.76:
				v |= 1 << bit
			case p < 0.95:
				u |= 1 << bit
			default:
				u |= 1 << bit
				v |= 1 << bit
			}
		}
		edges[i] = Edge{perm[u], perm[v], weight(r, maxWeight)}
	}
	g, err := NewGraph(n, edges)
	if err != nil {
		panic(err)
	}
	return g
}

// Uniform is a random directed graph of n vertices and m edges, each with
// endpoints drawn uniformly (Erdős–Rényi G(n, m), self-loops and repeats
// kept) and weight from [0, maxWeight].
func Uniform(n, m int, maxWeight uint32, r *rand.Rand) *Graph {
	if n < 1 && m > 0 || n < 0 || m < 0 || n > maxVertices || m > maxEdges {
		panic(fmt.Sprintf("sssp: Uniform: %d vertices, %d edges", n, m))
	}
	edges := make([]Edge, m)
	for i := range edges {
		edges[i] = Edge{r.IntN(n), r.IntN(n), weight(r, maxWeight)}
	}
	g, err := NewGraph(n, edges)
	if err != nil {
		panic(err)
	}
	return g
}
