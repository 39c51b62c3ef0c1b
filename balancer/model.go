package balancer

import "fmt"

// Model is the algorithm on the CPU, step for step as the GPU runs it: the
// reference that the GPU loop is tested against, and a way to predict a
// run's iterations and balancing operations without a GPU (Simulate).
//
// Processor p holds Workload[p] tasks of problem Problem[p], the next one
// being task ParallelIndex[p]. The three slices have one length, P.
type Model[T any] struct {
	Workload      []uint32
	ParallelIndex []uint32
	Problem       []T
	Variant       Variant
}

// NewModel returns a model of the given processors; it copies the slices.
// parallelIndex may be nil (every processor starts at task 0).
func NewModel[T any](v Variant, workload, parallelIndex []uint32, problem []T) *Model[T] {
	p := len(workload)
	if parallelIndex != nil && len(parallelIndex) != p {
		panic(fmt.Sprintf("balancer: NewModel: parallelIndex has %d elements, workload %d", len(parallelIndex), p))
	}
	if len(problem) != p {
		panic(fmt.Sprintf("balancer: NewModel: problem has %d elements, workload %d", len(problem), p))
	}
	m := &Model[T]{Workload: append([]uint32(nil), workload...), ParallelIndex: make([]uint32, p),
		Problem: append([]T(nil), problem...), Variant: v}
	copy(m.ParallelIndex, parallelIndex)
	return m
}

// Count is the first pass of information gathering: NumIdle, MaxWorkload,
// SumWorkload and MinActive.
func (m *Model[T]) Count() Info {
	in := Info{Processors: len(m.Workload)}
	for _, w := range m.Workload {
		if w == 0 {
			in.NumIdle++
			continue
		}
		in.MaxWorkload = max(in.MaxWorkload, w)
		in.SumWorkload += uint64(w)
		if in.MinActive == 0 || w < in.MinActive {
			in.MinActive = w
		}
	}
	return in
}

// Gather is the information gathering phase (§2.3 steps 1–5).
func (m *Model[T]) Gather() Info {
	in := m.Count()
	in.Full = true
	if in.Processors == 0 {
		return in
	}
	in.Avg = uint32(in.SumWorkload / uint64(in.Processors))
	for _, w := range m.Workload {
		if masked(m.Variant, w, in.Avg) {
			in.NumMasked++
			in.MaskedSum += uint64(w)
		}
	}
	for _, w := range m.Workload {
		a, c := assignFor(m.Variant, in, w)
		if a == 0 {
			continue
		}
		in.MaxNew = max(in.MaxNew, c)
		last := w - (a-1)*c
		if in.MinNew == 0 || last < in.MinNew {
			in.MinNew = last
		}
		in.TotalAssigned += int(a)
	}
	in.fit(m.Variant)
	return in
}

// Assignment returns steps 4 and 5 of a full gathering in: each processor's
// assignment and new workload value (for an Oversubscribed Footnote1
// gathering, the assignment that does not fit).
func (m *Model[T]) Assignment(in Info) (assignment, newWorkloadValues []uint32) {
	assignment = make([]uint32, len(m.Workload))
	newWorkloadValues = make([]uint32, len(m.Workload))
	for p, w := range m.Workload {
		assignment[p], newWorkloadValues[p] = assignFor(m.Variant, in, w)
	}
	return assignment, newWorkloadValues
}

// Redistribute is the redistribution phase (§2.3.1) for the full gathering
// in: the active processors' problems move, in order, to blocks of
// assignment processors placed left to right; processor k of a block takes
// tasks [index + k*c, index + min((k+1)*c, w)) of its problem. Processors
// past the last block get workload 0, index 0 and a zero problem.
func (m *Model[T]) Redistribute(in Info) {
	if !in.Full {
		panic("balancer: Model.Redistribute: in is a count, not a full gathering")
	}
	if in.Oversubscribed > 0 {
		panic(fmt.Sprintf("balancer: Model.Redistribute: the footnote-1 assignment asks for %d processors of %d", in.Oversubscribed, len(m.Workload)))
	}
	p := len(m.Workload)
	w2, pi2, pr2 := make([]uint32, p), make([]uint32, p), make([]T, p)
	at := 0
	for i, w := range m.Workload {
		a, c := assignFor(m.Variant, in, w)
		for k := uint32(0); k < a; k++ {
			w2[at] = min(c, w-k*c)
			pi2[at] = m.ParallelIndex[i] + k*c
			pr2[at] = m.Problem[i]
			at++
		}
	}
	m.Workload, m.ParallelIndex, m.Problem = w2, pi2, pr2
}

// Solve runs one iteration of the solution phase: solve (which may be nil)
// is called for every processor with work, which then moves to its next
// task.
func (m *Model[T]) Solve(solve func(processor int, problem T, task uint32)) {
	for p, w := range m.Workload {
		if w == 0 {
			continue
		}
		if solve != nil {
			solve(p, m.Problem[p], m.ParallelIndex[p])
		}
		m.Workload[p] = w - 1
		m.ParallelIndex[p]++
	}
}

// active counts the processors with work.
func (m *Model[T]) active() int {
	n := 0
	for _, w := range m.Workload {
		n += int(b2u(w != 0))
	}
	return n
}
