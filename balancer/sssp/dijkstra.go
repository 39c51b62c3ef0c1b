package sssp

import (
	"container/heap"
	"fmt"
)

// Dijkstra returns the distances from source to every vertex of g
// (Unreachable where no path leads), by Dijkstra's algorithm on the CPU in
// 64-bit arithmetic: the reference the GPU is tested against.
func Dijkstra(g *Graph, source int) []uint64 {
	if source < 0 || source >= g.N {
		panic(fmt.Sprintf("sssp: Dijkstra: source %d outside 0..%d", source, g.N-1))
	}
	dist := make([]uint64, g.N)
	for i := range dist {
		dist[i] = Unreachable
	}
	dist[source] = 0
	q := &queue{{uint32(source), 0}}
	for q.Len() > 0 {
		it := heap.Pop(q).(item)
		v := it.v
		if it.d != dist[v] {
			continue // a stale entry: v was settled nearer
		}
		for e := g.Offsets[v]; e < g.Offsets[v+1]; e++ {
			u, nd := g.Targets[e], it.d+uint64(g.Weights[e])
			if nd < dist[u] {
				dist[u] = nd
				heap.Push(q, item{u, nd})
			}
		}
	}
	return dist
}

type item struct {
	v uint32
	d uint64
}

type queue []item

func (q queue) Len() int           { return len(q) }
func (q queue) Less(i, j int) bool { return q[i].d < q[j].d }
func (q queue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)        { *q = append(*q, x.(item)) }
func (q *queue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}
