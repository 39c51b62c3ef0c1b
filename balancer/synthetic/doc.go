// Package synthetic makes the workloads that the balancer's tests and
// benchmark run: balanced, uniform, Zipf-skewed, one heavy processor, all
// equal, all zero. A workload is the number of tasks on each processor,
// the paper's workload array, as package balancer takes it.
//
// Kind names a shape (Kinds lists them all; Parse reads the names that
// String gives, as bench's -workload flag does), and Workload draws p
// workloads of that shape with a given maximum, which at least one
// processor reaches (except for Zero). OneHeavy is the shape of the
// paper's worked example, 100 19 0 0 0 0 0: one processor holds nearly
// all the work.
//
// Deterministic: Workload draws only from the *rand.Rand it is given, so
// one seed gives the same workloads on every run and machine, which tests
// and benchmarks with fixed seeds rely on. The package is plain Go: no
// GPU, no GL.
package synthetic
