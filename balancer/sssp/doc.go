// Package sssp is single-source shortest paths by Moore's algorithm on the
// GPU: a second application of package balancer, whose loop is naturally
// unbalanced.
//
// # Moore's algorithm, a frontier at a time
//
// Moore's algorithm (1957, as in Wilkinson & Allen's notes, ch. 7) keeps a
// queue of vertices to examine; examining vertex i relaxes each of its
// edges (i, j, w):
//
//	dist[j] = min(dist[j], dist[i] + w)
//
// and puts j on the queue (if it is not there) when its distance dropped.
// Unlike Dijkstra's, a vertex may be examined more than once, which is what
// makes it parallel: here the whole queue is examined at once, as one
// frontier, and the vertices whose distance dropped form the next one.
//
//	graph (CSR) -> frontier {source} -> balancer loop over the frontier:
//	    processor = a frontier vertex, workload = its out-degree,
//	    task = one of its edges, solved by atomicMin on dist
//	-> next frontier (the vertices whose distance dropped, once each)
//	-> ... until the frontier is empty -> dist
//
// The loop's workloads are out-degrees, which on a power-law graph (R-MAT)
// range from 0 to thousands: the kind of loop the balancer was made for,
// and the benchmark's second application (bench strategies). Weights must
// be non-negative; then every distance is final after at most N rounds.
// Distances live in 32 bits on the GPU; one that would not fit is an
// error.
//
// # Graphs
//
// Graph is compressed sparse rows; NewGraph builds one from edges and
// refuses negative weights. Grid (4-connected, balanced, long), RMAT
// (power-law, unbalanced) and Uniform (Erdős–Rényi) generate graphs;
// ReadDIMACS reads the 9th DIMACS challenge's .gr files strictly (errors
// name the line and the field) and WriteDIMACS writes them. Dijkstra is the
// CPU reference the GPU is tested against.
//
// The solver's loops run under any balancer configuration, the paper's
// policies and the other strategies alike (balancer.Config.Strategy).
//
// # Across processes
//
// MoorePool is the text's decentralized version on package pool's
// message-passing work pool, on the CPU: the vertices are split among the
// ranks (Owner), a distance goes as a message to the rank that owns its
// vertex, a vertex whose distance falls is queued again (first in, first
// out), and predecessors are recorded; every pool and every detector but
// the single-pass ring runs it. MergeRanks joins the ranks' parts and
// CheckTree checks distances and shortest-path tree against Dijkstra.
// bench pool runs it under mpirun.
package sssp
