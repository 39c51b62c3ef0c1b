package balancer

import (
	"fmt"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan"
)

// gatherItems is ITEMS of gather.comp: processors per invocation; its
// work groups of 64 take tiles of gatherTile processors (place.comp's
// TILE).
const (
	gatherItems = 64
	gatherTile  = 64 * gatherItems
)

// gpuMachine runs a loop's phases on the GPU.
type gpuMachine[T any] struct {
	l     *Loop[T]
	sol   Solution
	strat *strategyRun // a strategy's run, nil for the paper's loop
	// single runs one iteration a dispatch whatever Config.Batch says
	// (Loop.Solve).
	single bool
	// assigned says that the assignment array holds the assignment of the
	// full gathering assignedInfo of iteration assignedIter, which the
	// state still is: its redistribution need not work it out again.
	assigned     bool
	assignedIter int
	assignedInfo Info
	// keepAbove is the largest savings the policy does not redistribute
	// for: a gathering whose bounds on the savings do not exceed it keeps
	// no assignment (gather.comp's uniform keepAbove).
	keepAbove uint32
}

// putInfo writes in to the info buffer, as the kernels read it and the
// gathering passes add to it: the fields in does not hold are zero, and the
// minima it does not hold start at 0xFFFFFFFF, their reductions' identity.
// An empty Info resets the buffer for a count; a count's Info lets a full
// gathering skip its first pass; a full gathering's lets the
// redistribution work from it whatever ran since.
func (l *Loop[T]) putInfo(in Info) {
	var w [infoWords]uint32
	w[infoIdle] = uint32(in.NumIdle)
	w[infoMax] = in.MaxWorkload
	w[infoSumLo], w[infoSumHi] = uint32(in.SumWorkload), uint32(in.SumWorkload>>32)
	w[infoMinActive] = in.MinActive
	if in.Active() == 0 {
		w[infoMinActive] = 0xFFFFFFFF
	}
	w[infoMaskedSumLo], w[infoMaskedSumHi] = uint32(in.MaskedSum), uint32(in.MaskedSum>>32)
	w[infoMasked] = uint32(in.NumMasked)
	w[infoMaxNew], w[infoMinNew] = in.MaxNew, in.MinNew
	if !in.Full {
		w[infoMinNew] = 0xFFFFFFFF
	}
	w[infoAssigned] = uint32(in.TotalAssigned)
	// The gathering kernels wrote info last; Write issues the barrier
	// that orders this write after theirs.
	l.info.Write(0, w[:])
}

// pass dispatches one gathering pass over the current workload, as it
// will be after ahead more iterations of the solution phase.
func (l *Loop[T]) pass(p *gpu.Program, ahead uint32) {
	l.c.BindStorage(0, l.Workload())
	l.c.BindStorage(1, l.info)
	p.SetUint("n", uint32(l.p))
	p.SetUint("ahead", ahead)
	p.DispatchItems(l.p, gatherItems)
	l.c.Barrier(gpu.BarrierStorage) // the next pass and kernel read info
}

// readInfo reads the info buffer back (waiting for the GPU), and whether a
// full gathering kept each processor's assignment (INFO_KEPT).
func (l *Loop[T]) readInfo(full bool) (in Info, kept bool) {
	in = Info{Processors: l.p, Full: full}
	if l.p == 0 {
		return in, false
	}
	var w [infoWords]uint32
	l.info.Read(0, w[:])
	kept = full && w[infoKept] != 0
	in.NumIdle = int(w[infoIdle])
	in.MaxWorkload = w[infoMax]
	in.SumWorkload = uint64(w[infoSumLo]) | uint64(w[infoSumHi])<<32
	// The minima start at 0xFFFFFFFF, which is also a workload: whether
	// anything was active says which.
	if in.NumIdle < l.p {
		in.MinActive = w[infoMinActive]
	}
	if !full {
		return in, kept
	}
	in.Avg = uint32(in.SumWorkload / uint64(l.p))
	if l.cfg.Variant != IntegerSteps {
		in.NumMasked, in.MaskedSum = in.Active(), in.SumWorkload
	} else {
		in.NumMasked = int(w[infoMasked])
		in.MaskedSum = uint64(w[infoMaskedSumLo]) | uint64(w[infoMaskedSumHi])<<32
	}
	in.MaxNew = w[infoMaxNew]
	if in.TotalAssigned = int(w[infoAssigned]); in.TotalAssigned > 0 {
		in.MinNew = w[infoMinNew]
	}
	in.fit(l.cfg.Variant)
	return in, kept
}

func (m *gpuMachine[T]) count(iter int) Info { return m.countAhead(iter, 0) }

func (m *gpuMachine[T]) gather(iter int, known *Info) Info { return m.gatherAhead(iter, known, 0) }

// countAhead is count for the state after ahead more iterations of the
// solution phase than have run: each of them takes one task from every
// processor with work, so the passes see each workload less ahead, and at
// least 0.
func (m *gpuMachine[T]) countAhead(iter, ahead int) Info {
	l := m.l
	m.assigned = false
	var in Info
	l.c.Do(func() {
		l.tl.mark(PhaseCount, iter)
		if l.p > 0 {
			l.putInfo(Info{})
			l.pass(l.gather1, uint32(ahead))
		}
		in, _ = l.readInfo(false) // in the same Do: one hand-over to the GL thread, not two
	})
	return in
}

// gatherAhead is gather for the state after ahead more iterations, as
// countAhead.
func (m *gpuMachine[T]) gatherAhead(iter int, known *Info, ahead int) Info {
	l := m.l
	a := uint32(ahead)
	var in Info
	var kept bool
	l.c.Do(func() {
		l.tl.mark(PhaseGather, iter)
		defer func() { in, kept = l.readInfo(true) }() // in the same Do, as countAhead's
		if l.p == 0 {
			return
		}
		if known != nil {
			l.putInfo(known.counts())
		} else {
			l.putInfo(Info{})
			l.pass(l.gather1, a)
		}
		if l.cfg.Variant == IntegerSteps {
			l.pass(l.gather2, a) // the other variants have no mask
		}
		l.c.BindStorage(2, l.assignment.Slice(0, l.p))
		l.c.BindStorage(3, l.tileTotals)
		l.gather3.SetUint("keepAbove", m.keepAbove)
		l.pass(l.gather3, a)
	})
	m.assigned, m.assignedIter, m.assignedInfo = kept, iter, in
	return in
}

// runAssign writes each processor's assignment for the full gathering in.
// On the GL thread.
func (l *Loop[T]) runAssign(in Info) {
	c := l.c
	l.putInfo(in)
	c.BindStorage(0, l.Workload())
	c.BindStorage(2, l.assignment.Slice(0, l.p))
	l.assign.SetUint("n", uint32(l.p))
	l.assign.SetUint("avg", uint32(in.SumWorkload/uint64(l.p)))
	l.assign.SetUint("numIdle", uint32(in.NumIdle))
	l.assign.SetUvec2("sum", uint32(in.SumWorkload), uint32(in.SumWorkload>>32))
	l.assign.SetUvec2("maskedSum", uint32(in.MaskedSum), uint32(in.MaskedSum>>32))
	l.assign.DispatchInvocations(l.p)
	c.Barrier(gpu.BarrierStorage) // the scan reads it
}

// redistribute is §2.3.1: block pointers by an exclusive scan of the
// assignment, then one kernel (place.comp) that fills the other set of
// arrays with each block's share of its owner's tasks and its problem
// record: what the paper's send to the block heads, segmented copy and
// segmented scan of the new workload values compute, in one pass. Where
// every block is small (maxBlock) each owner writes its block (SCATTER
// 1), and where the gathering's last pass also kept the assignment (the
// policies redistribute right after gathering) and its tiles' sums, the
// place kernel finds the blocks' starts from those sums itself, without
// the scan (SCATTER 2); where a block may be large each new processor
// finds its block by a load-balancing search over the pointers. The
// assignment not kept, assign.comp works it out. The other set becomes
// the current one.
func (m *gpuMachine[T]) redistribute(iter int, in Info) {
	l := m.l
	c, s, n := l.c, l.s, l.p
	if n == 0 {
		return
	}
	if in.Oversubscribed > 0 {
		panic(fmt.Sprintf("balancer: internal: redistributing a footnote-1 assignment of %d processors on %d", in.Oversubscribed, n))
	}
	assignment := l.assignment.Slice(0, n)
	pointers := l.pointers.Slice(0, n)
	kept := m.assigned && m.assignedIter == iter && m.assignedInfo == in
	block := uint64(maxBlock(l.cfg.Variant, in)) * uint64(l.words+1)
	// The tiles' form: 16 owners a lane, from the kept tile totals.
	tiles := kept && !l.placeBySearch && 16*block <= maxScatterLoop
	m.assigned = false
	// One Do for the whole redistribution (the scan's own Do runs inline
	// on the GL thread): each hand-over to the GL thread costs two thread
	// wake-ups, tens of microseconds on a loaded 2-core machine.
	c.Do(func() {
		l.tl.mark(PhaseRedistribute, iter)
		if !kept {
			l.runAssign(in)
		}
		if !tiles {
			scan.ExclusiveScan(s, pointers, assignment, scan.Add, 0)
		}
		c.BindStorage(0, l.Workload())
		c.BindStorage(1, l.ParallelIndex())
		c.BindStorage(2, assignment)
		c.BindStorage(4, l.Problem())
		c.BindStorage(5, l.next.workload.Slice(0, n))
		c.BindStorage(6, l.next.parallelIndex.Slice(0, n))
		c.BindStorage(7, l.next.problem.Slice(0, n))
		place, perInvocation := l.place, 1
		switch {
		case tiles:
			c.BindStorage(8, l.tileTotals)
			place, perInvocation = l.placeTiles, 16
		case !l.placeBySearch && block <= maxScatterLoop:
			c.BindStorage(3, pointers)
			place = l.placeScatter
		default:
			c.BindStorage(3, pointers)
		}
		place.SetUint("n", uint32(n))
		place.SetUint("total", uint32(in.TotalAssigned))
		place.DispatchItems(n, perInvocation)
		c.Barrier(gpu.BarrierStorage) // the solution phase reads the new arrays
	})
	l.cur, l.next = l.next, l.cur
}

// maxScatterLoop bounds the loop of an owner that writes its block itself
// (place.comp SCATTER: a block's processors times the words each gets
// beyond its workload): on llvmpipe, which ends an invocation's loops
// after 65535 iterations, with room to spare; elsewhere it keeps a SIMD
// vector from waiting long on one lane's block.
const maxScatterLoop = 1 << 15

// maxBlock bounds every assignment of the full gathering in: a block is at
// most its owner's workload, and at most num_idle + 1 processors (its own
// and its share of the idle ones), or for Footnote1 at most P.
func maxBlock(v Variant, in Info) uint32 {
	b := uint64(in.NumIdle) + 1
	if v == Footnote1 {
		b = uint64(in.Processors)
	}
	return uint32(min(b, uint64(in.MaxWorkload)))
}

func (m *gpuMachine[T]) solve(iter, n int) {
	l := m.l
	if n <= 0 {
		return
	}
	if iter+n > m.assignedIter {
		m.assigned = false // iteration assignedIter ran: the workloads moved on
	}
	lanes := l.lanes()
	batch := 1
	if m.strat != nil {
		lanes = m.strat.lanes
	} else if !m.single {
		batch = l.batchSize(lanes)
	}
	l.c.Do(func() {
		for k := 0; k < n; {
			b := min(batch, n-k)
			l.tl.markN(PhaseSolve, iter+k, b)
			l.c.BindStorage(BindingWorkload, l.Workload())
			l.c.BindStorage(BindingParallelIndex, l.ParallelIndex())
			l.c.BindStorage(BindingProblem, l.Problem())
			it := &Iteration{Index: iter + k, Iterations: b, Processors: l.p, Lanes: lanes, ctx: l.c, strat: m.strat, variants: l.variants}
			solveOnce(m.sol, it)
			l.c.Barrier(gpu.BarrierStorage) // the next iteration or gathering reads the arrays
			k += b
		}
	})
}

// maxBatchSolves bounds a lane's solves in one batched dispatch by
// default (Config.Batch 0). On a driver that cuts loops (llvmpipe: 65535
// iterations per invocation in all, balancerSolve's own included) it leaves
// a balancerSolve about 250 iterations of loops of its own per task, while
// already cutting the dispatches of a loop of one lane per processor to
// MAX(workload)/256: most of what batching saves.
const maxBatchSolves = 256

// batchSize is the most iterations one dispatch of the paper's loop runs
// (Config.Batch): by default as many as keep a lane's solves per dispatch
// within maxBatchSolves, and 1 where a lane takes more processors than
// that.
func (l *Loop[T]) batchSize(lanes int) int {
	if l.cfg.Batch > 0 {
		return l.cfg.Batch
	}
	perLane := (l.p + lanes - 1) / max(lanes, 1)
	return max(1, maxBatchSolves/max(perLane, 1))
}

func (m *gpuMachine[T]) spans() []span { return m.l.tl.end() }
