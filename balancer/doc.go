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
// trip. Run as Figure 2, each iteration starts with
//
//	information gathering (GPU)  num_idle, avg, act_mask, sum_workload,
//	                             assignment, MAX(new_workload_values):
//	                             three reductions, read back as an Info
//	decision (host)              savings = MAX(workload) - MAX(new) > cost?
//	redistribution (GPU)         assignment -> exclusive scan (block
//	                             pointers) -> send to block heads ->
//	                             segmented copy -> segmented scan
//	                             (parallelIndex)
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
// redistributing, in iterations of the solution phase. Calibrator computes
// it the paper's way from calibration runs (the longest gathering plus the
// longest redistribution over the shortest solution phase, plus a margin),
// and Calibration keeps it in a JSON file keyed by the GL renderer string
// and the loop's name. Every phase is timed with GPU timestamps (Stats, as
// the paper's Table 4), and an iteration whose measured cost exceeds the
// overestimate is reported once.
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
// calls Iteration.Dispatch once per iteration. A renderer's scan-conversion
// loop has triangles as problems and scanlines as tasks (parallelIndex
// starting at the triangle's first row); its z-buffer loop has spans as
// problems and pixels as tasks.
//
//	l, _ := balancer.NewLoop[Span](scanner, balancer.Config{Name: "z-buffer", Policy: balancer.Bounded, CostIterations: cost})
//	l.Resize(numSpans)            // then fill l.Workload(), l.ParallelIndex(), l.Problem() on the GPU
//	st := l.Run(balancer.SolutionFunc(func(it *balancer.Iteration) {
//		c.BindStorage(balancer.FirstFreeBinding, visibility)
//		it.Dispatch(zbufferKernel)
//	}))
//
// A redistribution moves each active processor's problem record to the
// head of its block and copies it over the block: a record of W words costs
// W words per processor in the send and the segmented copy. A problem id
// (T = uint32) into arrays of your own is the cheapest record, and lets
// balancerSolve read whatever it needs by id.
//
// # GPU requirements
//
// OpenGL 4.3+ compute with GL_ARB_gpu_shader_int64 (Mesa llvmpipe and
// NVIDIA both have it): the gathering kernels sum workloads and multiply
// workload by num_idle in 64 bits, so any uint32 workload on up to 2^31
// processors is exact.
package balancer
