// Package balancer is Ahrens & Hansen's cost-effective data-parallel load
// balancing (UW TR 95-04-02, 1995) on GPU arrays: a loop over P virtual
// processors that redistributes tasks from heavily loaded processors to
// idle ones when, and only when, the iterations it saves outweigh what
// balancing costs.
//
// # The model
//
// Processor p holds workload[p] tasks of one problem, problem[p] (a
// fixed-size record: a triangle, a span), the next one being task
// parallelIndex[p]. A loop repeats until every workload is 0; each
// iteration runs the solution phase once on every processor with work,
// which solves task parallelIndex[p] of problem[p] and moves on. The
// solution phase is the user's compute kernel (see "The solution kernel").
//
// Run as the paper's Figure 1 (policy Never) the loop takes MAX(workload)
// iterations, found by one reduction and then queued without a host round
// trip, several to a dispatch (see "Batched iterations"). Run as Figure 2,
// each iteration starts with
//
//	information gathering (GPU)  num_idle, avg, act_mask, sum_workload,
//	                             assignment, MAX(new_workload_values):
//	                             three reductions, read back as an Info
//	                             (the last keeps each assignment)
//	decision (host)              savings = MAX(workload) - MAX(new) > cost?
//	redistribution (GPU)         assignment -> exclusive scan (block
//	                             pointers) -> each new processor finds
//	                             its block by a load-balancing search
//	                             and takes its share (one kernel: the
//	                             paper's send to block heads, segmented
//	                             copy and segmented scan fused)
//
// For the paper's worked example, workload 100 19 0 0 0 0 0: num_idle 5,
// avg 17, assignment 5 1 0 0 0 0 0, new workload values 20 19 0 0 0 0 0,
// savings 80; after redistribution the workload is 20 20 20 20 20 19 0 and
// the task indices (1-based as the paper prints them) 1 21 41 61 81 1 0.
// Active processors at or below the average keep their tasks (a block of
// one); a block's last processor takes the remainder, so no task is ever
// lost or solved twice. Model is the same algorithm on the CPU, the
// reference the GPU loop is tested against.
//
// # Policies and cost
//
// Never (Figure 1), Always (balance whenever savings > 0), CostEffective
// (the paper: savings > CostIterations), and Bounded, which makes exactly
// CostEffective's decisions but gathers only when a cheap bound says
// balancing could pay, so that balanced data costs what Figure 1 costs.
//
// CostIterations is the overestimated cost of gathering plus
// redistributing, in iterations of the solution phase. Calibrate measures
// it the paper's way (§4.1) on warmed-up runs of datasets of the caller's:
// the longest gathering plus the longest redistribution over the shortest
// solution phase, the largest over the datasets, plus a margin. A loop's
// first run pays one-time costs (kernels compiled at their first dispatch,
// memory touched for the first time: ten times the later runs' on
// llvmpipe), so Calibrator, which does the arithmetic, does not count it
// (Stats.FirstRun), and LoopCost.Warning says when an estimate is at least
// the calibration runs' own MAX(workload) - 1, which no redistribution
// could have saved. Calibration keeps costs in a JSON file keyed by the GL
// renderer string and the loop's name, and never replaces a file it did
// not write. Every phase is timed with GPU timestamps (Stats, as the
// paper's Table 4), and an iteration (after the first run) whose measured
// cost exceeds the overestimate is reported once.
//
// A wrong estimate cannot make the cost-driven policies much slower than
// Never: a redistribution saves less than MAX(workload) iterations, which
// only falls while nothing is redistributed, so once the cost reaches
// MAX(workload) - 1 CostEffective and Bounded stop gathering and run the
// rest as Figure 1. Their extra work over Never is their gatherings, at
// most max(1, MAX(workload) - 1 - cost) of them for CostEffective when
// nothing is balanced, and each redistribution they make saves more than
// the cost.
//
// # The solution kernel
//
// A solution kernel includes shaders/balancer/loop.glsl after its
// layout(local_size_x = ...) line, having defined BALANCER_PROBLEM as the
// GLSL type of problem[p] (the std430 twin of the Go type T of Loop[T]),
// and defines
//
//	void balancerSolve(uint processor, BALANCER_PROBLEM problem, uint task);
//
// The include declares the processor arrays at bindings 0–2
// (BindingWorkload, BindingParallelIndex, BindingProblem) and a main() in
// which each of Lanes invocations takes every Lanes-th processor with work
// (grid-stride), calls balancerSolve and moves the processor on; the
// kernel's own buffers start at binding 3 (FirstFreeBinding). On the Go
// side the kernel is a Solution: Solve binds the kernel's buffers and
// calls Iteration.Dispatch once: for one iteration, or for a batch of them
// (Iteration.Iterations; see "Batched iterations"). A renderer's
// scan-conversion loop has triangles as problems and scanlines as tasks (parallelIndex
// starting at the triangle's first row); its z-buffer loop has spans as
// problems and pixels as tasks.
//
// A kernel of one's own lives in one's own file, built by
// gpu.Context.UserProgramFile (or UserProgram from an fs.FS), which finds
// "balancer/loop.glsl" in dpgl's shaders behind the user's files. The
// z-buffer loop of a renderer of one's own, as a file zbuffer.comp:
//
//	#version 450
//	layout(local_size_x = 64) in;
//	struct Span { int y, x0; uint depth, prim; }; // Go: type Span struct{ Y, X0 int32; Depth, Prim uint32 }
//	#define BALANCER_PROBLEM Span
//	#include "balancer/loop.glsl"
//	layout(std430, binding = BALANCER_FIRST_FREE_BINDING) buffer Visibility { uint vis[]; };
//	uniform uint width;
//	void balancerSolve(uint processor, Span s, uint x) {
//		atomicMin(vis[uint(s.y) * width + x], s.depth); // pixel (x, s.y); task x counts from s.x0
//	}
//
// and in Go:
//
//	zbufferKernel, err := c.UserProgramFile("zbuffer.comp", nil)
//	...
//	l, err := balancer.NewLoop[Span](scanner, balancer.Config{Name: "z-buffer", Policy: balancer.Bounded, CostIterations: cost})
//	l.Load(workload, parallelIndex, spans) // or Resize, then fill l.Workload(), l.ParallelIndex(), l.Problem() on the GPU
//	st, err := l.Run(balancer.SolutionFunc(func(it *balancer.Iteration) {
//		c.BindStorage(balancer.FirstFreeBinding, visibility)
//		zbufferKernel.SetUint("width", width)
//		it.Dispatch(zbufferKernel)
//	}))
//
// Example_userKernel runs such a kernel (testdata/jobs.comp) under every
// policy. A Go type T whose size differs from the GLSL struct's (its std430
// stride, padding included) panics at the first dispatch, naming the block
// and both sizes (package gpu's layout check).
//
// # Batched iterations
//
// Where the policy decides nothing between iterations (Never's whole loop,
// the rest of a CostEffective or Bounded loop once no redistribution could
// pay, Bounded's iterations until a processor runs out of work, each with
// the iteration before it where the host decided that one without the
// GPU: after a redistribution, the processors that would load their
// problem again for a one-iteration dispatch load it once), the loop
// runs up to Config.Batch iterations in one dispatch of the solution
// kernel (loop.glsl's uniform balancerBatch; 1 where the policy decides
// every iteration): each processor solves its next min(workload, batch)
// tasks in order on the invocation that one iteration would give it, with
// balancerIterationIndex the iteration of each task. A dispatch then costs
// the tasks solved, not the processors visited times the iterations, which
// on an unbalanced loop is most of Figure 1's time. The iterations, the
// decisions, the balancing and what every task computes stay the same
// (TestRunsUnchangedGPU holds them to runs recorded before batching); what
// a kernel gives up is a barrier between one processor's iteration i and
// another's i+1, which Config.Batch 1 restores. Stats.Dispatches counts the
// dispatches, and Stats.Solve shares a batch's time among its iterations.
// Between redistributions, CostEffective's and Bounded's gatherings and
// counts do not wait for the iterations before them either: a pass sees
// each workload less the iterations not yet run (uniform ahead of
// gather.comp; each iteration takes one task from every processor with
// work), so they gather the same Info, and the iterations join into one
// batch until a redistribution or the end: a dispatch per redistribution
// and one more (more where a batch outgrows Config.Batch), not one per
// gathering. An iteration's cost (Stats.MaxCost) then divides by its share
// of a batch. Always, the calibration's policy, and Batch 1 keep each
// gathered iteration's own dispatch and the phases in the paper's order.
// By default a lane solves at most 256 tasks a dispatch, which leaves a
// balancerSolve about 250 loop iterations of its own per task under
// llvmpipe's loop cut.
//
// Where the lanes are at least the processors (Config.Lanes 0, one lane a
// processor), Iteration.Dispatch runs the kernel's BALANCER_ONE_PER_LANE
// variant (gpu.Program.Variant, built once, with the uniforms the Solution
// set copied over), whose balancerIteration takes the lane's processor
// without a loop around it: llvmpipe runs the code in a loop by a slower
// path (the renderer's two loops took 15-25% less time), and other drivers
// lose nothing. A kernel with a uniform that gpu.Program.CopyUniforms
// cannot carry (doubles, 64-bit integers, samplers other than buffer
// textures') runs as it is.
//
// A redistribution copies each active processor's problem record over its
// block: a record of W words costs W words read and written per processor.
// A problem id
// (T = uint32) into arrays of your own is the cheapest record, and lets
// balancerSolve read whatever it needs by id.
//
// # Strategies
//
// Config.Strategy runs the same loop, with the same solution kernel, the
// ways the literature balances such work (Wilkinson & Allen, ch. 7; the
// Left-Right Handoff protocol; the load-balancing search of GPU libraries).
// The balancer builds the strategy's variant of the kernel itself
// (gpu.Program.Variant, with the uniforms the Solution set copied over), so
// a Solution and its kernel run unchanged: the renderer's scan-conversion
// and z-buffer kernels do. What the kernel must allow: several invocations
// solve tasks of one processor at once and in any order (its writes go to
// the task's own place, or are atomic), and binding BindingStrategy (15)
// is the strategy's.
//
// Every strategy starts as Figure 1 does, with one count (MAX, S = the sum
// of the workloads), then an exclusive scan of the workloads, offset, puts
// the tasks in one order: task g < S is task parallelIndex[p] + g -
// offset[p] of the last processor p with offset[p] <= g, found by a binary
// search or by walking forward from the last one. Then:
//
//	RoundRobin        lane l solves tasks l, l+L, l+2L, ... (one dispatch)
//	Random            lane l solves tasks π(l), π(l+L), ... for a seeded
//	                  permutation π of [0, S) (swap-or-not), one dispatch
//	WorkPool          lanes take Chunk tasks at a time from an atomic
//	                  counter, at most twice their share each (one dispatch)
//	LeftRightHandoff  blocks of 64 lanes start with runs of processors,
//	                  solve up to Chunk tasks a lane a round (shared
//	                  cyclically in the block), and at each checkpoint meet
//	                  their right neighbour, then their left one: the one
//	                  with more work hands half the difference over (one
//	                  dispatch a round)
//	Search            one invocation per task, a binary search each (one
//	                  dispatch of S invocations)
//	LeftRightHandoffRace
//	                  every lane a processor at its own pace: half-way
//	                  through what it holds it races a neighbour (right
//	                  and left in alternate rounds); the first there
//	                  signals and goes on, the other, if still before its
//	                  own checkpoint, hands over half the difference (one
//	                  dispatch)
//	RandomAssignment  each position of a seeded permutation of the task
//	                  order goes to a lane drawn at random: the counts
//	                  vary (a counting dispatch, a scan, one dispatch)
//
// Where each departs from the text it is named after:
//
//   - Random is a seeded random permutation of the task order dealt out
//     cyclically, so every lane gets exactly its share (S/L, give or take
//     one): a random order, not the chapter's randomized assignment, in
//     which each task goes to a process drawn at random and the counts
//     vary. RandomAssignment is the chapter's: lane dpglRandomLane(x) for
//     every position x, independently (counts binomial, about S/L). It
//     departs only in that the balancer learns the counts (a counting
//     pass and a scan) before the lanes start, which a process of the
//     chapter, sent its tasks, does not need.
//   - LeftRightHandoff runs lockstep rounds of a fixed number of tasks a
//     lane (Chunk), one dispatch each, with every checkpoint at a dispatch
//     boundary, between blocks of 64 lanes. In the protocol a processor's
//     checkpoint is a fraction of its own workload, the first of a pair to
//     reach it signals and goes on without waiting, and its neighbour hands
//     work over only if the signal came before its own checkpoint: a race,
//     which lockstep rounds remove (each pair compares loads at the same
//     point). The MPI version between ranks (rasterizer/distributed) keeps
//     the race, and so does LeftRightHandoffRace.
//   - LeftRightHandoffRace is the protocol, with these departures. A
//     processor is one lane, and its workload independent tasks rather
//     than the text's rows of tiles: a round's "row" is everything the lane
//     holds, its checkpoint half of it (the text leaves the fraction
//     open), and a handoff moves the end of the donor's interval, half the
//     difference of what the two have left (at most the receiver's room),
//     where the text moves columns. Lanes start with the text's block
//     distribution, an equal block of the task order each, so what the
//     race balances is the tasks' differing costs and the lanes' differing
//     speeds (the text's contention), not the processors' counts. The signal and
//     the reply are words in the strategy's buffer, not messages; and
//     because no GPU promises that a neighbour runs at all (llvmpipe runs a
//     work group's 8-lane vectors one after another), a signaller that
//     finds no reply at its row's end polls 8 times and closes the race
//     unanswered, where the text's processor would receive. A lane stops
//     after two rounds in a row (one with each neighbour) that began empty
//     and brought nothing. Lanes in one lockstep vector race by tasks
//     solved, not time; a handoff between them shortens nothing, as the
//     vector runs its longest lane's loop (the race pays off between lanes
//     that run apart: other vectors, other work groups, other cores).
//
// and last, one kernel retires the processor arrays as the paper's loop
// leaves them (workload 0, parallelIndex past the tasks). The strategies
// number tasks in 32 bits (S < 2^32).
//
// Stats.CriticalPath is a run's length in tasks (the sum over dispatches of
// the most tasks one lane solved) and Stats.Imbalance that over S/Lanes, so
// that the paper's loop and the strategies compare on one scale: Figure 1
// with one lane per processor has CriticalPath = MAX(workload).
//
// # Termination
//
// Each strategy ends, with every task solved exactly once, by construction,
// and makes no assumption that work groups run at the same time:
//
// RoundRobin and Random: the positions l + jL (j < ceil((S-l)/L)) of the L
// lanes are each number of [0, S) once, and π is a bijection of [0, S)
// (each swap-or-not round pairs x with k-x mod S and swaps both or
// neither), so every task has exactly one lane; each lane's loop has a trip
// count fixed before the dispatch, and the dispatch ends when its last
// lane does.
//
// WorkPool: atomicAdd hands every chunk [c, c+Chunk) out once, to the lane
// that solves it. A lane stops when the counter has passed S (the pool is
// empty: every chunk below the counter was handed out) or after MaxGrabs =
// 2*ceil(chunks/L) grabs. If no lane ever saw the pool empty, all L lanes
// made MaxGrabs grabs below S, which is more chunks than there are; so
// when the dispatch ends, every chunk was taken. As Wilkinson & Allen's
// centralized pool, termination is "the queue is empty and every worker
// has asked for more", with no new tasks made during the loop; no lane
// ever waits for another, so it needs no forward progress across work
// groups, and the end of the dispatch is the global termination.
//
// LeftRightHandoff: a block's work is at most two intervals of the task
// order; a handoff moves a piece of the donor's last interval to the
// receiver (onto an adjacent interval or into a free slot, else not at
// all), which every lane of the pair computes identically from the
// previous round's states (double-buffered; one lane per block writes the
// next), so the intervals of all blocks stay disjoint and cover exactly
// the unsolved tasks. A handoff never raises the larger of the pair's two
// loads (the donor keeps at least as much as the receiver gets), and every
// block with work solves min(Chunk * its lanes, its load) >= min(Chunk,
// its load) tasks a round, so the largest load M falls by at least
// min(Chunk, M) every round: at most ceil(S/Chunk) rounds. Termination is detected
// without messages in transit: handoffs happen only at the checkpoints
// (dispatch boundaries), and each round's lanes add what they have left to
// a counter; a round that finds the previous one left nothing does
// nothing. The host queues rounds in doubling batches and reads that
// counter once per batch; the balancing itself takes no global decision.
//
// LeftRightHandoffRace: a task moves only when its owner, the donor, wins
// the compare-and-swap of the pair's race word from SIGNAL to HANDOFF, and
// the signaller takes it only from HANDOFF; a signaller that waited swaps
// SIGNAL to CLOSED, after which no handoff can land, and it never leaves a
// round with a signal unresolved. A donor's own handoff not yet taken
// blocks the pair's next signal (that race is skipped), so a payload is
// never overwritten. Every task thus has one owner at a time, and each
// round its owner solves all it holds. A lane's rounds are bounded: a
// round that begins with work solves at least one task (a donor keeps at
// least half of what it has left), and at most two rounds in a row begin
// empty without a handoff, so a lane that solves T tasks runs at most
// 3T+2 rounds; each waits at most 8 polls and tries a swap at most 4
// times. On drivers that cut loops the balancer also bounds the rounds
// (the last one signals no one, so that it takes no work) and a lane's
// room (the tasks it may take). No lane waits for another without a
// bound, so the dispatch ends whatever order the lanes run in, and it is
// the termination: every task was solved by the lane that held it last.
//
// RandomAssignment: the counting pass counts each position of [0, S) once
// for one lane, the scan turns the counts into disjoint ranges covering
// [0, S), and π maps them to the tasks one to one.
//
// Search: invocation g < S solves task g; a binary search takes at most 32
// steps. It is the load-balancing search of package scan
// (scan.LoadBalancingSearch): one GLSL implementation,
// shaders/include/lbs.glsl, serves both (Round Robin's and Random's
// searches too).
//
// In GLSL, shaders/balancer/loop.glsl holds the contract and the paper's
// loop; under a strategy it includes balancer/strategies.glsl (what the
// strategies share), which includes one file per strategy
// (balancer/strategy_round_robin.glsl, strategy_random.glsl,
// strategy_work_pool.glsl, strategy_left_right.glsl, strategy_search.glsl,
// strategy_left_right_race.glsl) and include/lbs.glsl and
// include/hash.glsl. Includes are spliced whichever way an #if goes, so
// a solution kernel built from a file tree of its own
// (gpu.Context.ProgramFS) must hold all of them beside include/common.glsl.
//
// On drivers whose loops stop silently (gpu.Caps.LoopLimit; llvmpipe: 65535
// iterations per invocation), the lanes are raised and the chunk and quota
// lowered so that no lane loops more than a few thousand times a dispatch
// (Stats.Lanes and Stats.Chunk say what ran), and every loop counts the
// tasks it really solved: Run returns an error if the count is not S.
//
// # GPU requirements
//
// OpenGL 4.3+ compute with GL_ARB_gpu_shader_int64 (Mesa llvmpipe and
// NVIDIA both have it): the gathering kernels sum workloads and multiply
// workload by num_idle in 64 bits, so any uint32 workload on up to 2^31
// processors is exact.
package balancer
