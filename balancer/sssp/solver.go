package sssp

import (
	"fmt"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan"
)

// LoopName is the relaxation loop's name: the key of its calibrated cost.
const LoopName = "sssp relax"

// unreached is the GPU's distance of a vertex not reached (Unreachable on
// the host).
const unreached = 0xFFFFFFFF

// Stats describe one run of the solver.
type Stats struct {
	Source int
	// Rounds is the number of frontiers examined; Relaxations the edges
	// relaxed, the sum of the frontiers' out-degrees (the loops' tasks);
	// MaxFrontier the largest frontier.
	Rounds, MaxFrontier int
	Relaxations         uint64
	// Reached is the number of vertices with a finite distance.
	Reached int
	// The relaxation loops summed over the rounds: iterations of the
	// solution phase, balancing operations, the critical path (tasks, see
	// balancer.Stats.CriticalPath) and the perfectly balanced one
	// (Σ tasks/lanes), and their GPU time.
	Iterations, Balances int
	CriticalPath         uint64
	IdealPath            float64
	LoopTime             time.Duration
	// Loops are the balancer's statistics of each round.
	Loops []balancer.Stats
	// Time is the GPU time of the whole run (frontier set-up included);
	// Wall the host's.
	Time, Wall time.Duration
}

// Imbalance is CriticalPath over IdealPath (1: every lane solved the same
// number of tasks in every dispatch of every round).
func (s *Stats) Imbalance() float64 {
	if s.IdealPath == 0 {
		return 0
	}
	return float64(s.CriticalPath) / s.IdealPath
}

// Solver runs Moore's algorithm on the GPU, one frontier at a time, each
// frontier a balancer loop. It holds one graph at a time and is not safe
// for concurrent use.
type Solver struct {
	c    *gpu.Context
	s    *scan.Scanner
	loop *balancer.Loop[uint32]

	relax, frontier *gpu.Program

	n, m      int
	offsets   *gpu.Buffer[uint32]    // N+1
	edges     *gpu.Buffer[[2]uint32] // (target, weight), at least 1
	dist      *gpu.Buffer[uint32]    // N
	inNext    *gpu.Buffer[uint32]    // N
	queue     [2]*gpu.Buffer[uint32] // this frontier, the next one
	counts    *gpu.Buffer[uint32]    // next frontier size, overflows
	start     *gpu.Stamp
	end       *gpu.Stamp
	hasResult bool
}

// NewSolver returns a solver whose relaxation loops run under cfg (its
// Name is set to LoopName).
func NewSolver(s *scan.Scanner, cfg balancer.Config) (so *Solver, err error) {
	if s == nil {
		panic("sssp: NewSolver: s is nil")
	}
	c := s.Context()
	so = &Solver{c: c, s: s}
	defer func() {
		if err != nil {
			so.Delete()
			so = nil
		}
	}()
	if so.relax, err = c.Program("sssp/relax.comp", nil); err != nil {
		return nil, err
	}
	if so.frontier, err = c.Program("sssp/frontier.comp", nil); err != nil {
		return nil, err
	}
	cfg.Name = LoopName
	if so.loop, err = balancer.NewLoop[uint32](s, cfg); err != nil {
		return nil, err
	}
	if so.counts, err = gpu.NewBuffer[uint32](c, 2); err != nil {
		return nil, err
	}
	so.start, so.end = c.NewStamp(), c.NewStamp()
	return so, nil
}

// SetConfig changes the relaxation loops' configuration for later runs.
func (so *Solver) SetConfig(cfg balancer.Config) error {
	cfg.Name = LoopName
	return so.loop.SetConfig(cfg)
}

// Delete frees the solver's GPU memory. It is idempotent.
func (so *Solver) Delete() {
	if so.loop != nil {
		so.loop.Delete()
	}
	so.freeGraph()
	so.counts.Delete()
	so.start.Delete()
	so.end.Delete()
}

func (so *Solver) freeGraph() {
	for _, b := range []*gpu.Buffer[uint32]{so.offsets, so.dist, so.inNext, so.queue[0], so.queue[1]} {
		b.Delete()
	}
	so.edges.Delete()
	so.offsets, so.dist, so.inNext, so.queue, so.edges = nil, nil, nil, [2]*gpu.Buffer[uint32]{}, nil
	so.n, so.m, so.hasResult = 0, 0, false
}

// Load uploads g, replacing the graph before. It fails when the graph
// exceeds the driver's storage-block limit.
func (so *Solver) Load(g *Graph) (err error) {
	g.check("Solver.Load")
	so.freeGraph()
	defer func() {
		if err != nil {
			so.freeGraph()
			err = fmt.Errorf("sssp: Solver.Load: a graph of %d vertices and %d edges: %w", g.N, g.M(), err)
		}
	}()
	if so.offsets, err = gpu.NewBufferFrom(so.c, g.Offsets); err != nil {
		return err
	}
	edges := make([][2]uint32, max(g.M(), 1))
	for e := range g.Targets {
		edges[e] = [2]uint32{g.Targets[e], g.Weights[e]}
	}
	if so.edges, err = gpu.NewBufferFrom(so.c, edges); err != nil {
		return err
	}
	for _, b := range []**gpu.Buffer[uint32]{&so.dist, &so.inNext, &so.queue[0], &so.queue[1]} {
		if *b, err = gpu.NewBuffer[uint32](so.c, max(g.N, 1)); err != nil {
			return err
		}
	}
	so.n, so.m = g.N, g.M()
	return nil
}

// Run computes the distances from source with Moore's algorithm:
//
//	dist = Unreachable everywhere, dist[source] = 0, frontier = {source}
//	while the frontier is not empty:
//	    a balancer loop over the frontier's vertices, one task per edge:
//	        dist[u] = min(dist[u], dist[v] + w)   (atomicMin)
//	        u joins the next frontier (once) if its distance dropped
//
// Each frontier is a loop whose workloads are the out-degrees of its
// vertices, balanced as the configuration says. With weights >= 0, a
// vertex's distance is final once some frontier has carried a shortest
// path to it, and such a path has fewer than N edges: the frontier is
// empty after at most N rounds. A distance that does not fit in 32 bits is
// an error.
func (so *Solver) Run(source int) (Stats, error) {
	if so.offsets == nil {
		panic("sssp: Solver.Run: no graph loaded")
	}
	if source < 0 || source >= so.n {
		panic(fmt.Sprintf("sssp: Solver.Run: source %d outside 0..%d", source, so.n-1))
	}
	st := Stats{Source: source}
	wall := time.Now()
	so.hasResult = false
	so.dist.Fill(unreached)
	so.dist.Write(source, []uint32{0})
	so.inNext.Fill(0)
	so.queue[0].Write(0, []uint32{uint32(source)})
	so.c.Do(func() { so.start.Record() })
	front := 1
	sol := balancer.SolutionFunc(func(it *balancer.Iteration) {
		so.c.BindStorage(balancer.FirstFreeBinding, so.dist)
		so.c.BindStorage(balancer.FirstFreeBinding+1, so.edges)
		so.c.BindStorage(balancer.FirstFreeBinding+2, so.inNext)
		so.c.BindStorage(balancer.FirstFreeBinding+3, so.queue[1])
		so.c.BindStorage(balancer.FirstFreeBinding+4, so.counts)
		it.Dispatch(so.relax)
	})
	for front > 0 {
		if st.Rounds > so.n {
			return st, fmt.Errorf("sssp: internal error: the frontier is not empty after %d rounds on %d vertices", st.Rounds, so.n)
		}
		st.Rounds++
		st.MaxFrontier = max(st.MaxFrontier, front)
		if err := so.loop.Resize(front); err != nil {
			return st, err
		}
		so.counts.Fill(0)
		so.c.Do(func() {
			so.c.BindStorage(0, so.queue[0].Slice(0, front))
			so.c.BindStorage(1, so.offsets)
			so.c.BindStorage(2, so.loop.Workload())
			so.c.BindStorage(3, so.loop.ParallelIndex())
			so.c.BindStorage(4, so.loop.Problem())
			so.c.BindStorage(5, so.inNext)
			so.frontier.SetUint("n", uint32(front))
			so.frontier.DispatchInvocations(front)
			so.c.Barrier(gpu.BarrierStorage) // the loop reads its arrays, the relaxation inNext
		})
		ls, err := so.loop.Run(sol)
		if err != nil {
			return st, err
		}
		st.Loops = append(st.Loops, ls)
		st.Relaxations += ls.Tasks
		st.Iterations += ls.Iterations
		st.Balances += ls.Balances
		st.CriticalPath += ls.CriticalPath
		if ls.Lanes > 0 {
			st.IdealPath += float64(ls.Tasks) / float64(ls.Lanes)
		}
		st.LoopTime += ls.Time
		var cnt [2]uint32
		so.counts.Read(0, cnt[:])
		if cnt[1] != 0 {
			return st, fmt.Errorf("sssp: %d relaxations in round %d made distances past %d, which the GPU's 32-bit distances cannot hold", cnt[1], st.Rounds, uint64(unreached-1))
		}
		front = int(cnt[0])
		so.queue[0], so.queue[1] = so.queue[1], so.queue[0]
	}
	so.c.Do(func() { so.end.Record() })
	st.Time = time.Duration(so.end.Nanos() - so.start.Nanos())
	so.hasResult = true
	for _, d := range so.dist.Download()[:so.n] {
		if d != unreached {
			st.Reached++
		}
	}
	st.Wall = time.Since(wall)
	return st, nil
}

// Distances returns the last run's distances (Unreachable where no path
// leads).
func (so *Solver) Distances() []uint64 {
	if !so.hasResult {
		panic("sssp: Solver.Distances: no finished run")
	}
	out := make([]uint64, so.n)
	for v, d := range so.dist.Download()[:so.n] {
		if d == unreached {
			out[v] = Unreachable
		} else {
			out[v] = uint64(d)
		}
	}
	return out
}
