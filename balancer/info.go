package balancer

import "fmt"

// Variant selects how the information gathering phase shares the idle
// processors out among the active ones.
type Variant int

const (
	// IntegerSteps is the paper's §2.3, steps 1–5: only processors whose
	// workload is above the (integer) average share the idle processors,
	// in proportion to their workload over the masked sum, truncated:
	//
	//	assignment = floor(workload * num_idle / sum_workload) + 1
	IntegerSteps Variant = iota
	// FloatVariant is footnote 1 of §2.3: no mask, every active processor
	// shares in proportion to its workload over the sum of all workloads.
	// The paper assigns fractions of processors there, which cannot be
	// carried out; here each active processor keeps itself and the idle
	// ones are shared out and truncated exactly as in IntegerSteps, in
	// exact integer arithmetic so that every driver computes the same
	// assignment (floating-point division differs between GPUs, and the
	// image must not depend on the GPU).
	FloatVariant
)

func (v Variant) String() string {
	switch v {
	case IntegerSteps:
		return "integer steps"
	case FloatVariant:
		return "float variant"
	}
	return fmt.Sprintf("Variant(%d)", int(v))
}

// Info is what the information gathering phase computes, reduced to the
// numbers the decision phase needs; the per-processor arrays stay on the
// GPU. A count (the first pass alone) sets the first five fields; a full
// gathering sets all of them and Full.
type Info struct {
	Processors  int    // P
	NumIdle     int    // step 1: processors whose workload is 0
	MaxWorkload uint32 // MAX(workload): the iterations left without balancing
	SumWorkload uint64 // tasks left on all processors
	MinActive   uint32 // smallest nonzero workload; 0 when no processor is active

	Full          bool
	Avg           uint32 // step 2: floor(SumWorkload / P)
	NumMasked     int    // step 2: processors in act_mask
	MaskedSum     uint64 // step 3: sum_workload, the workload under act_mask
	MaxNew        uint32 // step 5: MAX(new_workload_values)
	MinNew        uint32 // the smallest workload after redistribution (the last processor of a block)
	TotalAssigned int    // Σ assignment: processors that hold work after redistribution
}

// Savings is MAX(workload) - MAX(new_workload_values), in iterations: what a
// redistribution now would save. Zero for a count.
func (in Info) Savings() uint32 {
	if !in.Full {
		return 0
	}
	return in.MaxWorkload - in.MaxNew
}

// Active is the number of processors with work.
func (in Info) Active() int { return in.Processors - in.NumIdle }

// counts keeps the fields that a count sets.
func (in Info) counts() Info {
	return Info{Processors: in.Processors, NumIdle: in.NumIdle, MaxWorkload: in.MaxWorkload,
		SumWorkload: in.SumWorkload, MinActive: in.MinActive}
}

// advance returns the counts after j more iterations of the solution phase
// without balancing. It is exact while no processor runs out of work, that
// is for j < MinActive: every active processor then loses j tasks.
func (in Info) advance(j uint32) Info {
	if j >= in.MinActive {
		panic(fmt.Sprintf("balancer: advance(%d) past MinActive %d", j, in.MinActive))
	}
	out := in.counts()
	out.MaxWorkload -= j
	out.MinActive -= j
	out.SumWorkload -= uint64(j) * uint64(in.Active())
	return out
}

// afterRedistribution returns the exact counts once the redistribution
// phase has carried out the full gathering in.
func (in Info) afterRedistribution() Info {
	return Info{Processors: in.Processors, NumIdle: in.Processors - in.TotalAssigned,
		MaxWorkload: in.MaxNew, SumWorkload: in.SumWorkload, MinActive: in.MinNew}
}

// savingsBound is an upper bound on the savings of a full gathering now and
// in every later iteration until the next redistribution. The new maximum
// is at least the average ceil(S/P), since Σ assignment <= P blocks hold S
// tasks; so savings <= MAX - ceil(S/P). Each iteration lowers MAX by exactly
// one and S/P by at most one (at most P processors lose one task each), so
// the bound never grows while nothing is redistributed.
func (in Info) savingsBound() uint64 {
	if in.Processors == 0 {
		return 0
	}
	avg := (in.SumWorkload + uint64(in.Processors) - 1) / uint64(in.Processors)
	return uint64(in.MaxWorkload) - min(avg, uint64(in.MaxWorkload))
}

// idleBound is an upper bound on the savings while the number of idle
// processors stays NumIdle (for fewer than MinActive more iterations): the
// heaviest processor is assigned at most num_idle+1 processors (its share of
// the idle ones is at most all of them), so its new workload is at least
// ceil(MAX / (num_idle+1)). The bound shrinks as MAX does.
func (in Info) idleBound() uint64 {
	m := uint64(in.MaxWorkload)
	k := uint64(in.NumIdle) + 1
	return m - (m+k-1)/k
}

func ceilDiv(a, b uint32) uint32 { return a/b + b2u(a%b != 0) }

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// masked is act_mask (step 2) for workload w.
func masked(v Variant, w, avg uint32) bool {
	if v == FloatVariant {
		return w > 0
	}
	return w > avg
}

// assign is steps 4 and 5 for one processor: its assignment (the size of
// its block of processors after redistribution) and its new workload value
// (what every processor of the block but the last gets; the last gets the
// remainder, w - (a-1)*c, between 1 and c). shaders/balancer/assign.glsl
// computes the same.
//
// Two departures from the paper's formula keep every task and every
// processor busy without changing MAX(new_workload_values): the assignment
// is capped at w (more processors than tasks would leave some empty), and
// then lowered to ceil(w/c), the number of processors that chunks of c
// tasks need, so that the last processor's remainder is never 0 or less
// (w = 5 on a = 4 processors gives c = 2, and 2+2+2 would already exceed 5).
func assign(w uint32, isMasked bool, numIdle uint32, maskedSum uint64) (a, c uint32) {
	if w == 0 {
		return 0, 0
	}
	if !isMasked || numIdle == 0 {
		return 1, w
	}
	// w*numIdle < 2^64, and maskedSum >= w > 0 for a masked processor, so
	// the quotient is at most numIdle.
	a = uint32(min(uint64(w)*uint64(numIdle)/maskedSum+1, uint64(w)))
	c = ceilDiv(w, a)
	return ceilDiv(w, c), c
}
