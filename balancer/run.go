package balancer

import (
	"fmt"
	"log"
	"time"
)

// DefaultCostIterations is the cost a cost-driven policy uses when Config
// gives none (and says so once): the larger of the paper's two calibrated
// overestimates on the CM-5. Calibrate instead (see Calibration).
const DefaultCostIterations = 32

// Config describes a loop.
type Config struct {
	// Name is the loop's kind ("scan conversion", "z-buffer"): the key of
	// its calibrated cost, and the prefix of its messages.
	Name string
	// Policy decides when to gather information and when to balance.
	Policy Policy
	// Variant is how idle processors are shared out (IntegerSteps unless
	// set).
	Variant Variant
	// Lanes is the number of invocations that run the solution phase, each
	// taking every Lanes-th processor (grid-stride): the analog of the
	// paper's 32…512 physical processors. 0 means one per processor; more
	// than the processors is the same as one per processor. On a driver
	// that cuts loops short (gpu.Caps.LoopLimit; llvmpipe silently ends an
	// invocation's loops after 65535 iterations in all) it is raised so
	// that no invocation takes more than 4096 processors; Stats.Lanes says
	// what ran.
	Lanes int
	// CostIterations is the overestimated cost of gathering and
	// redistributing, in iterations of the solution phase, that
	// CostEffective and Bounded compare the savings with (see Calibration).
	// 0 means DefaultCostIterations, with a warning.
	CostIterations float64
	// Strategy is how tasks are shared out among the lanes: Paper (the
	// zero value) runs Policy; the others balance by themselves and need
	// Policy Never (see Strategy).
	Strategy Strategy
	// Chunk is WorkPool's tasks per grab and LeftRightHandoff's quota of
	// tasks per lane between checkpoints. 0 picks one: a quarter of a
	// lane's fair share for WorkPool, the fair share ceil(S/Lanes) for
	// LeftRightHandoff, and at least 16 for both. On a software renderer
	// it is capped (Stats.Chunk says what ran).
	Chunk int
	// Seed seeds Random's permutation of the tasks.
	Seed uint32
	// Batch is the most iterations of the solution phase that the paper's
	// loop runs in one dispatch where its policy decides nothing between
	// them: Never's whole loop, the rest of a loop that can no longer
	// balance (CostEffective, Bounded), Bounded's iterations until a
	// processor runs out of work, each joined with the iteration before it
	// where the host decided that one without the GPU (the iteration of a
	// redistribution, or of a gathering that decided against one). In
	// such a dispatch each processor of the solution kernel (uniform
	// balancerBatch of loop.glsl) solves its next tasks in order on its own
	// invocation, with no barrier between the iterations of different
	// processors, so that a dispatch costs the tasks solved rather than the
	// processors visited times the iterations. The iterations, the decisions and what is solved stay the
	// same. 0 picks the most that keep a lane's solves per dispatch within
	// 256, which leaves a balancerSolve about 250 loop iterations of its own
	// per task under llvmpipe's loop cut (see Lanes); 1 runs one iteration
	// a dispatch, for a kernel whose processors must all finish an
	// iteration before any starts the next.
	Batch int
	// Logf receives warnings: a missing cost, and (once per loop, with the
	// numbers) an iteration whose measured cost exceeded CostIterations.
	// nil means log.Printf. During Run it is called on the GL thread
	// (inside gpu.Context.Do, as Solution.Solve): it must not wait for
	// another goroutine that calls Do.
	Logf func(format string, args ...any)
}

func (cfg *Config) check(fn string) {
	if cfg.Policy < Never || cfg.Policy > Bounded {
		panic(fmt.Sprintf("balancer: %s: Config.Policy %d is not a policy", fn, int(cfg.Policy)))
	}
	if cfg.Variant < 0 || cfg.Variant >= variants {
		panic(fmt.Sprintf("balancer: %s: Config.Variant %d is not a variant", fn, int(cfg.Variant)))
	}
	if cfg.Lanes < 0 {
		panic(fmt.Sprintf("balancer: %s: Config.Lanes %d is negative", fn, cfg.Lanes))
	}
	if !(cfg.CostIterations >= 0) { // also NaN
		panic(fmt.Sprintf("balancer: %s: Config.CostIterations %v is not a cost", fn, cfg.CostIterations))
	}
	if cfg.Strategy < Paper || int(cfg.Strategy) >= len(strategyNames) {
		panic(fmt.Sprintf("balancer: %s: Config.Strategy %d is not a strategy", fn, int(cfg.Strategy)))
	}
	if cfg.Strategy != Paper && cfg.Policy != Never {
		panic(fmt.Sprintf("balancer: %s: Config.Strategy %v balances by itself; Config.Policy must be Never, not %v", fn, cfg.Strategy, cfg.Policy))
	}
	if cfg.Chunk < 0 {
		panic(fmt.Sprintf("balancer: %s: Config.Chunk %d is negative", fn, cfg.Chunk))
	}
	if cfg.Batch < 0 {
		panic(fmt.Sprintf("balancer: %s: Config.Batch %d is negative", fn, cfg.Batch))
	}
}

func (cfg *Config) logf(format string, args ...any) {
	if cfg.Logf != nil {
		cfg.Logf(format, args...)
		return
	}
	log.Printf(format, args...)
}

func (cfg *Config) name() string {
	if cfg.Name == "" {
		return "loop"
	}
	return cfg.Name
}

// lanes is the effective number of lanes for p processors.
func (cfg *Config) lanes(p int) int {
	if cfg.Lanes == 0 || cfg.Lanes > p {
		return p
	}
	return cfg.Lanes
}

// warnings remembers which warnings a loop has given, so each comes once.
type warnings struct{ noCost, overCost bool }

// cost is the cost the decisions use, warning once when none was given.
func (cfg *Config) cost(w *warnings) float64 {
	if cfg.CostIterations > 0 || !cfg.Policy.usesCost() {
		return cfg.CostIterations
	}
	if !w.noCost {
		w.noCost = true
		cfg.logf("balancer: %s: no calibrated cost given; %v uses the default of %d iterations (see balancer.Calibration)",
			cfg.name(), cfg.Policy, DefaultCostIterations)
	}
	return DefaultCostIterations
}

// machine runs the phases of a loop: the GPU loop, or a Model for Simulate.
// Every phase call names the iteration it belongs to.
type machine interface {
	// count runs the first gathering pass.
	count(iter int) Info
	// gather runs a full gathering. known, when not nil, holds the exact
	// counts of the current state, which the first pass then need not
	// compute.
	gather(iter int, known *Info) Info
	// redistribute runs the redistribution phase for a full gathering.
	redistribute(iter int, in Info)
	// solve runs n iterations of the solution phase, iter to iter+n-1,
	// without waiting for them.
	solve(iter, n int)
	// spans returns the timed phases of the run so far, in order.
	spans() []span
}

// drive runs one loop under cfg.Policy on m and fills st.
func drive(m machine, cfg *Config, cost float64, st *Stats) {
	mm := &joinSolves{machine: m}
	if am, ok := m.(aheadMachine); ok && cfg.Policy != Always && cfg.Batch != 1 {
		// Always, the calibration's policy, keeps each gathered
		// iteration's own dispatch, which its costs are measured on; and
		// Batch 1 (lockstep) runs the phases in the paper's order.
		mm.ahead = am
	}
	defer mm.flush()
	drivePolicy(mm, cfg, cost, st)
}

// joinSolves is a machine that holds back solution phases and joins
// consecutive ones into one call, which a batching machine runs in as few
// dispatches as Config.Batch allows: the host decides some iterations
// without the GPU (the one after a redistribution followed by the rest of
// a loop that can no longer balance, Bounded's predicted counts), and
// solve calls with no count, gathering or redistribution between them run
// the same iterations whether joined or not. Before any other phase, and
// at the end, the held ones run.
//
// With ahead set, a count or gathering does not run the held iterations
// first: it describes the state after them (each takes one task from every
// processor with work, which a pass works out from the workloads before
// them), so that the solves on either side of it still join, and only a
// redistribution, which moves the work itself, or the end runs them.
type joinSolves struct {
	machine
	ahead aheadMachine
	at, n int // held iterations: at to at+n-1
}

// aheadMachine is a machine that can count and gather for the state after
// iterations of the solution phase it has not run yet.
type aheadMachine interface {
	countAhead(iter, ahead int) Info
	gatherAhead(iter int, known *Info, ahead int) Info
}

// held is the number of held iterations that end at iter, which a count
// or gathering of iteration iter can look past; 0 when none can.
func (j *joinSolves) held(iter int) int {
	if j.ahead == nil || j.n == 0 || j.at+j.n != iter {
		return 0
	}
	return j.n
}

func (j *joinSolves) flush() {
	if j.n > 0 {
		j.machine.solve(j.at, j.n)
		j.n = 0
	}
}

func (j *joinSolves) solve(iter, n int) {
	if n <= 0 {
		return
	}
	if j.n > 0 && j.at+j.n == iter {
		j.n += n
		return
	}
	j.flush()
	j.at, j.n = iter, n
}

func (j *joinSolves) count(iter int) Info {
	if n := j.held(iter); n > 0 {
		return j.ahead.countAhead(iter, n)
	}
	j.flush()
	return j.machine.count(iter)
}

func (j *joinSolves) gather(iter int, known *Info) Info {
	if n := j.held(iter); n > 0 {
		return j.ahead.gatherAhead(iter, known, n)
	}
	j.flush()
	return j.machine.gather(iter, known)
}

func (j *joinSolves) redistribute(iter int, in Info) {
	j.flush()
	j.machine.redistribute(iter, in)
}

func (j *joinSolves) spans() []span {
	j.flush()
	return j.machine.spans()
}

func drivePolicy(m machine, cfg *Config, cost float64, st *Stats) {
	switch cfg.Policy {
	case Never:
		in := m.count(0)
		st.Counts++
		st.Start = in
		m.solve(0, int(in.MaxWorkload))
		st.Iterations = int(in.MaxWorkload)
	case Always, CostEffective:
		it := 0
		in := m.gather(it, nil)
		st.Gathers++
		st.Start = in
		for in.MaxWorkload > 0 {
			left := in.MaxWorkload
			if cfg.Policy == CostEffective && !canPay(left, cost) {
				// Savings are below MAX(workload) (the busiest processor
				// keeps a task), and MAX only falls while nothing is
				// redistributed: with a cost of at least MAX-1 no later
				// iteration can balance, so gathering stops and the rest
				// runs as Figure 1. This caps what an overestimate too
				// large costs at one gathering.
				m.solve(it, int(left))
				it += int(left)
				break
			}
			if Decide(cfg.Policy, in, cost) {
				m.redistribute(it, in)
				st.Balances++
				st.Savings += uint64(in.Savings())
				left = in.MaxNew
			}
			m.solve(it, 1)
			it++
			if left == 1 {
				break
			}
			if cfg.Policy == CostEffective && !canPay(left-1, cost) {
				// The same, known without gathering: MAX is now left-1.
				m.solve(it, int(left-1))
				it += int(left - 1)
				break
			}
			in = m.gather(it, nil)
			st.Gathers++
		}
		st.Iterations = it
	case Bounded:
		st.Iterations = driveBounded(m, cost, st)
	}
}

// canPay is false when no redistribution, now or later without one, can
// save more than cost iterations: savings = MAX - MAX(new) <= MAX - 1 for
// MAX(workload) = maxWorkload.
func canPay(maxWorkload uint32, cost float64) bool { return float64(maxWorkload)-1 > cost }

// driveBounded is the Bounded policy; it returns the iterations run.
func driveBounded(m machine, cost float64, st *Stats) int {
	it := 0
	in := m.count(it)
	st.Counts++
	st.Start = in
	exact := true // in holds exact counts of the current state
	for in.MaxWorkload > 0 {
		if !exact {
			in = m.count(it)
			st.Counts++
		}
		left := int(in.MaxWorkload)
		if float64(in.savingsBound()) <= cost {
			// No later iteration can balance: Figure 1 for the rest.
			m.solve(it, left)
			return it + left
		}
		if float64(in.idleBound()) <= cost {
			// Until a processor runs out of work, num_idle stays and the
			// bound only shrinks.
			n := min(left, int(in.MinActive))
			m.solve(it, n)
			it += n
			if n == left {
				return it
			}
			// Now some processors are idle: how many, only a count can tell.
			exact = false
			continue
		}
		full := m.gather(it, &in)
		st.Gathers++
		next := full.counts()
		if Decide(Bounded, full, cost) {
			m.redistribute(it, full)
			st.Balances++
			st.Savings += uint64(full.Savings())
			next = full.afterRedistribution()
		}
		m.solve(it, 1)
		it++
		if next.MaxWorkload == 1 {
			return it
		}
		if next.MinActive > 1 {
			in, exact = next.advance(1), true
		} else {
			in, exact = next, false
		}
	}
	return it
}

// finish accounts the spans of a run in st and gives the over-cost warning
// (once per loop).
func finish(m machine, cfg *Config, w *warnings, st *Stats) {
	spans := m.spans()
	st.account(spans)
	if !cfg.Policy.usesCost() || st.MaxCost <= st.CostIterations || w.overCost || st.FirstRun {
		return
	}
	w.overCost = true
	var info, redis, soln time.Duration
	for _, s := range spans {
		if s.iter != st.MaxCostAt {
			continue
		}
		switch s.phase {
		case PhaseGather:
			info += s.dur
		case PhaseRedistribute:
			redis += s.dur
		case PhaseSolve:
			soln = s.dur
		}
	}
	cfg.logf("balancer: %s: iteration %d cost %.1f iterations (gathering %v + redistribution %v over a solution phase of %v), more than the overestimate of %g iterations: recalibrate (this warning is given once)",
		cfg.name(), st.MaxCostAt, st.MaxCost, info, redis, soln, st.CostIterations)
}

// Clock stands in for GPU timestamps when a Model runs (Simulate): the
// duration of one phase, given the processors active when it starts.
type Clock func(phase Phase, active int) time.Duration

// Simulate runs the loop of cfg on the model m, which it changes, calling
// solve (which may be nil) for every task solved, and times the phases with
// clock (nil: every phase takes 0). Its Stats are what the GPU loop would
// report with those timings: the same iterations, balancing operations and
// gatherings.
func Simulate[T any](m *Model[T], cfg Config, clock Clock, solve func(processor int, problem T, task uint32)) Stats {
	cfg.check("Simulate")
	if cfg.Strategy != Paper {
		panic(fmt.Sprintf("balancer: Simulate: Config.Strategy is %v; Simulate runs the paper's loop only", cfg.Strategy))
	}
	if cfg.Variant != m.Variant {
		panic(fmt.Sprintf("balancer: Simulate: Config.Variant is %v but the model's is %v", cfg.Variant, m.Variant))
	}
	var w warnings
	start := time.Now()
	st := Stats{Name: cfg.name(), Policy: cfg.Policy, Variant: cfg.Variant, Processors: len(m.Workload),
		Lanes: cfg.lanes(len(m.Workload)), CostIterations: cfg.cost(&w)}
	mm := &modelMachine[T]{m: m, clock: clock, onTask: solve}
	drive(mm, &cfg, st.CostIterations, &st)
	finish(mm, &cfg, &w, &st)
	st.paperCriticalPath()
	st.Wall = time.Since(start)
	return st
}

// modelMachine runs a loop on a Model.
type modelMachine[T any] struct {
	m      *Model[T]
	clock  Clock
	onTask func(int, T, uint32)
	log    []span
}

func (mm *modelMachine[T]) tick(p Phase, iter int) {
	var d time.Duration
	if mm.clock != nil {
		d = mm.clock(p, mm.m.active())
	}
	mm.log = append(mm.log, span{p, iter, 1, d})
}

func (mm *modelMachine[T]) count(iter int) Info {
	mm.tick(PhaseCount, iter)
	return mm.m.Count()
}

func (mm *modelMachine[T]) gather(iter int, known *Info) Info {
	mm.tick(PhaseGather, iter)
	in := mm.m.Gather()
	if known != nil && *known != in.counts() {
		// Bounded predicted the counts; a wrong prediction is a bug in the
		// bounds' arithmetic, which the GPU would silently inherit.
		panic(fmt.Sprintf("balancer: internal error: predicted counts %+v, the model has %+v", *known, in.counts()))
	}
	return in
}

func (mm *modelMachine[T]) redistribute(iter int, in Info) {
	mm.tick(PhaseRedistribute, iter)
	mm.m.Redistribute(in)
}

func (mm *modelMachine[T]) solve(iter, n int) {
	for i := 0; i < n; i++ {
		mm.tick(PhaseSolve, iter+i)
		mm.m.Solve(mm.onTask)
	}
}

func (mm *modelMachine[T]) spans() []span { return mm.log }
