package balancer

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan"
)

// variantKey names a solution kernel built for a strategy.
type variantKey struct {
	base     *gpu.Program
	strategy Strategy
}

// strategyRun is one run of a loop under a strategy: the sizes its
// dispatches use and the state they share.
type strategyRun struct {
	strategy Strategy
	c        *gpu.Context
	state    *gpu.Buffer[uint32]
	variants map[variantKey]*gpu.Program

	processors, lanes int
	tasks             uint32 // S
	chunk, maxGrabs   uint32
	seed              uint32
	// LeftRightHandoffRace: polls at a row's end, rounds a lane may run,
	// the most tasks a lane may solve.
	spin, maxRounds, room uint32
	runs                  bool // lanes start with runs of processors, not equal blocks
	header, laneState     int  // word indices into state
	starts                int  // RandomAssignment: word index of the lanes' first positions
	err                   error
}

// softwareCaps turns the lane and chunk limits for drivers that cut loops
// on; a test turns them off to see a cut loop caught.
var softwareCaps = true

// minAutoChunk is the least chunk (WorkPool) and quota (LeftRightHandoff)
// that Config.Chunk 0 picks: below it, the counter's atomics and the
// rounds' dispatches cost more than the balance they buy (bench strategies
// -chunk on llvmpipe: 16 ran the renderer's loops two to six times faster
// than 1 or 2).
const minAutoChunk = 16

// raceWords, raceSpin and raceTries are BALANCER_RACE_WORDS, the
// balancerSpin the balancer sets, and BALANCER_RACE_TRIES of
// shaders/balancer/strategy_left_right_race.glsl: the words of a lane's
// race state, the polls of a signaller at its row's end, and a checkpoint's
// compare-and-swap tries.
const raceWords, raceSpin, raceTries = 12, 8, 4

// handoffBlock is BALANCER_BLOCK of shaders/balancer/strategy_left_right.glsl: the lanes
// of one block of Left-Right Handoff.
const handoffBlock = 64

// maxStrategyTasks bounds S: the strategies number tasks in 32 bits.
const maxStrategyTasks = math.MaxUint32 - 1

// stepsPerTask is a strategy's worst-case loop iterations per task on p
// processors (a task, a forward seek of at most 2*log2(P)+2 probes, or a
// search of log2(P)+1 and the shuffle), for softwareLoopBudget.
func stepsPerTask(s Strategy, p int) int {
	b := bits.Len(uint(p)) + 1
	if s == Random || s == RandomAssignment {
		return 1 + b + 8
	}
	return 2 + 2*b
}

// plan sizes a run of the loop's strategy for the counts in.
func (l *Loop[T]) plan(in Info) (*strategyRun, error) {
	s := l.cfg.Strategy
	if in.SumWorkload > maxStrategyTasks {
		return nil, fmt.Errorf("balancer: %s: %d tasks: strategy %v numbers tasks in 32 bits (at most %d)", l.cfg.name(), in.SumWorkload, s, uint64(maxStrategyTasks))
	}
	if l.c.Caps().MaxSSBOBindings <= BindingStrategy {
		return nil, fmt.Errorf("balancer: %s: strategy %v needs storage binding %d, and %s has %d", l.cfg.name(), s, BindingStrategy, l.c.Caps().Renderer, l.c.Caps().MaxSSBOBindings)
	}
	S := in.SumWorkload
	sr := &strategyRun{strategy: s, c: l.c, processors: l.p, tasks: uint32(S), seed: l.cfg.Seed, variants: l.variants}
	soft := l.c.Caps().LoopLimit > 0 && softwareCaps
	// capTasks bounds a lane's tasks per dispatch on a software renderer.
	capTasks := uint64(max(1, min(maxPerLaneSoftware, softwareLoopBudget/stepsPerTask(s, l.p))))
	lanes := uint64(l.cfg.lanes(l.p))
	switch s {
	case RoundRobin, Random:
		if soft {
			lanes = max(lanes, ceilDiv64(S, capTasks))
		}
		lanes = min(lanes, S)
	case WorkPool:
		c := uint64(l.cfg.Chunk)
		if c == 0 {
			c = max(minAutoChunk, ceilDiv64(S, 4*lanes))
		}
		if soft {
			c = min(c, max(1, capTasks/2))
		}
		chunks := ceilDiv64(S, c)
		if soft {
			// A lane takes at most 2*ceil(chunks/lanes) chunks: keep that
			// many chunks' tasks within capTasks.
			lanes = max(lanes, ceilDiv64(chunks, max(1, capTasks/(2*c))))
		}
		lanes = min(lanes, chunks)
		// Twice a lane's share, so that lanes that start early can take
		// more; any bound >= ceil(chunks/lanes) empties the pool (see the
		// package documentation).
		grabs := 2 * ceilDiv64(chunks, lanes)
		if S+lanes*c > math.MaxUint32 {
			return nil, fmt.Errorf("balancer: %s: %d tasks and %d lanes taking chunks of %d would overflow the work pool's 32-bit counter", l.cfg.name(), S, lanes, c)
		}
		sr.chunk, sr.maxGrabs = uint32(c), uint32(grabs)
	case LeftRightHandoff:
		q := uint64(l.cfg.Chunk)
		if q == 0 {
			q = max(minAutoChunk, ceilDiv64(S, lanes))
		}
		if soft {
			q = min(q, capTasks)
		}
		// A block's quota, chunk*handoffBlock, stays below 2^32.
		sr.chunk = uint32(min(q, S, 1<<26-1))
	case RandomAssignment:
		// A lane's count is binomial, about S/L: on a software renderer,
		// a quarter of capTasks on average keeps the largest count under
		// capTasks but with a probability below 1e-20 (Chernoff), and a
		// count over it still shows in the balancer's count of tasks solved.
		if soft {
			lanes = max(lanes, ceilDiv64(S, max(1, capTasks/4)))
		}
		lanes = min(lanes, S)
	case LeftRightHandoffRace:
		// A lane starts with ceil(S/L) tasks and takes handoffs only up to
		// its room; on a software renderer half of a lane's loop budget
		// goes to tasks (room), and the rest to its rounds' spins, swaps
		// and searches (maxRounds), and lanes start with at most half
		// their room, so that they can take work.
		sr.spin, sr.room, sr.maxRounds = raceSpin, math.MaxUint32, uint32(min(3*S+3, 1<<29))
		if soft {
			room := uint64(max(2, min(maxPerLaneSoftware, softwareLoopBudget/2/stepsPerTask(s, l.p))))
			lanes = max(lanes, ceilDiv64(S, room/2))
			perRound := uint64(raceSpin + raceTries + bits.Len(uint(l.p)) + 4)
			sr.room, sr.maxRounds = uint32(room), uint32(max(1, softwareLoopBudget/2/perRound))
		}
		lanes = min(lanes, S)
		// Runs of processors (raceRuns) only where the largest, at most
		// ceil(P/L) processors of MAX(workload) tasks, leaves half the room.
		sr.runs = raceRuns && ceilDiv64(uint64(l.p), lanes)*uint64(in.MaxWorkload) <= uint64(sr.room)/2
	case Search:
		lanes = S
	}
	sr.lanes = int(lanes)
	// Offsets first (a scan writes them, and a view must start aligned),
	// the header 4-word aligned after them, then the lanes' intervals.
	sr.header = (l.p + 3) &^ 3
	sr.laneState = sr.header + headerWords
	words := sr.laneState
	switch s {
	case LeftRightHandoff:
		words += 8 * ((sr.lanes + handoffBlock - 1) / handoffBlock)
	case LeftRightHandoffRace:
		words += raceWords * sr.lanes
	case RandomAssignment:
		// The lanes' counts, scanned in place into their first positions:
		// a view the scan binds, so aligned.
		a := max(1, l.c.Caps().SSBOOffsetAlignment/4)
		sr.starts = (words + a - 1) / a * a
		words = sr.starts + sr.lanes + 1
	}
	if l.state == nil || l.state.Len() < words {
		l.state.Delete()
		l.state = nil
		b, err := gpu.NewBuffer[uint32](l.c, words+words/4)
		if err != nil {
			return nil, fmt.Errorf("balancer: %s: strategy %v state for %d processors and %d lanes: %w", l.cfg.name(), s, l.p, sr.lanes, err)
		}
		l.state = b
	}
	sr.state = l.state
	return sr, nil
}

func ceilDiv64(a, b uint64) uint64 { return (a + b - 1) / b }

// dispatch runs the strategy's variant of the solution kernel p.
func (sr *strategyRun) dispatch(it *Iteration, p *gpu.Program) {
	if sr.err != nil {
		return
	}
	key := variantKey{p, sr.strategy}
	q := sr.variants[key]
	if q == nil {
		var err error
		q, err = p.Variant(map[string]string{
			"BALANCER_STRATEGY":         strconv.Itoa(int(sr.strategy)),
			"BALANCER_STRATEGY_BINDING": strconv.Itoa(BindingStrategy),
		})
		if err != nil {
			sr.err = fmt.Errorf("balancer: building %s for strategy %v: %w", p.Name(), sr.strategy, err)
			return
		}
		sr.variants[key] = q
	}
	p.CopyUniforms(q)
	q.SetUint("balancerProcessors", uint32(sr.processors))
	q.SetUint("balancerLanes", uint32(sr.lanes))
	q.SetUint("balancerIterationIndex", uint32(it.Index))
	q.SetUint("balancerTasks", sr.tasks)
	q.SetUint("balancerChunk", sr.chunk)
	q.SetUint("balancerMaxGrabs", sr.maxGrabs)
	q.SetUint("balancerSeed", sr.seed)
	q.SetUint("balancerHeader", uint32(sr.header))
	q.SetUint("balancerLaneState", uint32(sr.laneState))
	q.SetUint("balancerSpin", sr.spin)
	q.SetUint("balancerMaxRounds", sr.maxRounds)
	q.SetUint("balancerRoom", sr.room)
	q.SetUint("balancerRuns", b2u(sr.runs))
	q.SetUint("balancerStarts", uint32(sr.starts))
	sr.c.BindStorage(BindingStrategy, sr.state)
	q.DispatchInvocations(sr.lanes)
}

// runStrategy is Run for the strategies other than Paper.
func (l *Loop[T]) runStrategy(sol Solution, st *Stats) error {
	m := &gpuMachine[T]{l: l, sol: sol}
	in := m.count(0)
	st.Counts = 1
	st.Start = in
	st.Tasks = in.SumWorkload
	if in.SumWorkload == 0 {
		st.account(m.spans())
		return nil
	}
	sr, err := l.plan(in)
	if err != nil {
		st.account(m.spans())
		return err
	}
	m.strat = sr
	st.Lanes, st.Chunk = sr.lanes, int(sr.chunk)
	if sr.strategy != WorkPool && sr.strategy != LeftRightHandoff {
		st.Chunk = 0
	}

	l.c.Do(func() { l.tl.mark(PhaseSchedule, 0) })
	scan.ExclusiveScan(l.s, l.state.Slice(0, l.p), l.Workload(), scan.Add, 0)
	l.state.FillRange(sr.header, headerWords, 0)
	switch sr.strategy {
	case LeftRightHandoffRace:
		l.state.FillRange(sr.laneState, raceWords*sr.lanes, 0) // no race run, no lane done
	case RandomAssignment:
		if err := l.randomStarts(sr); err != nil {
			st.account(m.spans())
			return err
		}
	}

	dispatches := 1
	if sr.strategy == LeftRightHandoff {
		dispatches, err = l.handoffRounds(m, sr)
	} else {
		m.solve(0, 1)
	}
	if err == nil {
		err = sr.err
	}

	// Retire the processor arrays, and read the counts back.
	if l.retire == nil {
		if l.retire, err = l.c.Program("balancer/retire.comp", nil); err != nil {
			st.account(m.spans())
			return err
		}
	}
	l.c.Do(func() {
		l.tl.mark(PhaseSchedule, dispatches)
		l.c.BindStorage(0, l.Workload())
		l.c.BindStorage(1, l.ParallelIndex())
		l.retire.SetUint("n", uint32(l.p))
		l.retire.DispatchInvocations(l.p)
		l.c.Barrier(gpu.BarrierStorage) // whatever runs next reads the arrays
	})
	var h [headerWords]uint32
	l.state.Read(sr.header, h[:])
	st.account(m.spans())
	if err != nil {
		return err
	}

	S := sr.tasks
	switch sr.strategy {
	case Search:
		// One invocation per task, no loop but a bounded search: nothing
		// to count.
		st.Iterations, st.CriticalPath = 1, 1
		return nil
	case LeftRightHandoffRace:
		// One dispatch; Iterations is the most rounds one lane ran.
		st.Iterations, st.Handoffs = int(h[hdrRounds]), int(h[hdrHandoffs])
		st.CriticalPath = uint64(h[hdrRoundMax])
	case LeftRightHandoff:
		st.Iterations = int(h[hdrRounds])
		st.CriticalPath = uint64(h[hdrCritical]) + uint64(h[hdrRoundMax+(dispatches-1)%3])
	default:
		st.Iterations = 1
		st.CriticalPath = uint64(h[hdrRoundMax])
	}
	if h[hdrSolved] < S {
		return fmt.Errorf("balancer: %s: strategy %v solved %d of %d tasks: the solution kernel's loops ended early (a driver's loop limit?)", l.cfg.name(), sr.strategy, h[hdrSolved], S)
	}
	if h[hdrSolved] > S {
		return fmt.Errorf("balancer: %s: internal error: strategy %v solved %d tasks, and there are %d", l.cfg.name(), sr.strategy, h[hdrSolved], S)
	}
	if sr.strategy == WorkPool && h[hdrPool] < S {
		return fmt.Errorf("balancer: %s: the work pool handed out %d of %d tasks", l.cfg.name(), h[hdrPool], S)
	}
	return nil
}

// handoffRounds queues the rounds of Left-Right Handoff in batches until a
// round leaves no work anywhere, and returns the rounds dispatched. The
// lanes decide everything among neighbours; the host only learns when the
// work is done (termination detection), one read-back per batch, batches
// doubling. A round in which every lane finds no work left is an empty
// dispatch.
func (l *Loop[T]) handoffRounds(m *gpuMachine[T], sr *strategyRun) (int, error) {
	// No block's work ever grows past the largest, and the largest shrinks
	// by min(quota, itself) every round: ceil(S/quota) rounds at most.
	bound := int(ceilDiv64(uint64(sr.tasks), uint64(sr.chunk)))
	// Perfectly balanced, ceil(S/L) tasks a lane take this many rounds.
	batch := int(ceilDiv64(ceilDiv64(uint64(sr.tasks), uint64(sr.lanes)), uint64(sr.chunk)))
	r := 0
	for {
		batch = min(batch, bound-r)
		m.solve(r, batch)
		r += batch
		if sr.err != nil || l.state.Get(sr.header+hdrLeft+(r-1)%3) == 0 {
			return r, nil
		}
		if r >= bound {
			return r, fmt.Errorf("balancer: %s: internal error: Left-Right Handoff has work left after %d rounds, its bound", l.cfg.name(), r)
		}
		batch = r
	}
}

// randomStarts draws RandomAssignment's lanes (balancer/random_counts.comp
// counts each lane's positions) and scans the counts into the lanes' first
// positions.
func (l *Loop[T]) randomStarts(sr *strategyRun) error {
	if l.randomCounts == nil {
		var err error
		if l.randomCounts, err = l.c.Program("balancer/random_counts.comp", nil); err != nil {
			return err
		}
	}
	starts := l.state.Slice(sr.starts, sr.lanes+1)
	l.state.FillRange(sr.starts, sr.lanes+1, 0)
	l.c.Do(func() {
		l.c.BindStorage(0, starts)
		l.randomCounts.SetUint("tasks", sr.tasks)
		l.randomCounts.SetUint("lanes", uint32(sr.lanes))
		l.randomCounts.SetUint("seed", sr.seed)
		l.randomCounts.DispatchInvocations(int(sr.tasks))
		l.c.Barrier(gpu.BarrierStorage) // the scan reads the counts
	})
	scan.ExclusiveScan(l.s, starts, starts, scan.Add, 0)
	return nil
}

// raceRuns starts LeftRightHandoffRace's lanes with runs of processors
// (the tasks of P/L consecutive processors each, where that fits the room)
// instead of equal blocks of the task order: the uneven counts a test
// needs for a race that must be won. Off, the lanes start even, which ran
// the renderer's loops two to four times faster on llvmpipe (bench
// strategies), where neighbours in different vectors seldom run at once
// and so seldom hand over.
var raceRuns = false
