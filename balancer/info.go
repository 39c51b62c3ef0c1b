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
	// Unmasked is IntegerSteps without act_mask: every active processor
	// keeps itself and shares the idle processors in proportion to its
	// workload over the sum of all workloads, truncated:
	//
	//	assignment = floor(workload * num_idle / Σ workload) + 1
	//
	// It takes footnote 1's "sum of all active iterations" but not its
	// num_procs (see Footnote1), so Σ assignment never exceeds P. It is
	// exact integer arithmetic, so every driver computes the same
	// assignment and the same image.
	Unmasked
	// Footnote1 is footnote 1 of §2.3 taken literally, in integers: every
	// active processor's share of all P processors in proportion to its
	// workload over the sum of all workloads, truncated, and at least
	// itself:
	//
	//	assignment = max(1, floor(workload * P / Σ workload))
	//
	// The paper's floating-point form assigns fractions of processors
	// (Σ assignment = P, every new workload S/P) and says it "cannot be
	// used"; truncated, the floor can leave processors unassigned and the
	// max(1, ·) of the light processors can ask for more than P. Then the
	// blocks do not fit: on the CM-5 the scan that places them would point
	// past the last processor and the send would address processors that
	// do not exist, so the scan's total would have to be checked before
	// the send and the redistribution skipped. That is what happens here:
	// such a gathering reports Oversubscribed (the Σ assignment asked for)
	// and the new workload as the old one, so it saves nothing and no
	// policy redistributes. The sum checked is of the blocks as placed:
	// like the other variants', an assignment is capped at the workload
	// and lowered to the processors that chunks of ceil(w/a) tasks need,
	// which changes no new workload value.
	Footnote1
)

// variants is the number of variants (Config.Variant's check).
const variants = 3

func (v Variant) String() string {
	switch v {
	case IntegerSteps:
		return "integer steps"
	case Unmasked:
		return "unmasked"
	case Footnote1:
		return "footnote 1"
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

	// Oversubscribed is, for Footnote1 only, the Σ assignment the footnote
	// asked for when it exceeds Processors, else 0. The blocks do not fit,
	// so MaxNew, MinNew and TotalAssigned then describe the workload as it
	// is (every active processor its own block): no savings.
	Oversubscribed int
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
	if v != IntegerSteps {
		return w > 0
	}
	return w > avg
}

// assignFor is steps 4 and 5 of variant v for one processor of workload w,
// from a full gathering's counts in (before the oversubscription check).
func assignFor(v Variant, in Info, w uint32) (a, c uint32) {
	if v == Footnote1 {
		return assignFootnote1(w, uint32(in.Processors), in.SumWorkload)
	}
	return assign(w, masked(v, w, in.Avg), uint32(in.NumIdle), in.MaskedSum)
}

// assignFootnote1 is Footnote1's assignment max(1, floor(w*P/sum)), with
// assign's cap at w and remainder rule. shaders/balancer/assign.glsl
// computes the same.
func assignFootnote1(w, p uint32, sum uint64) (a, c uint32) {
	if w == 0 {
		return 0, 0
	}
	// w*P < 2^63 and sum >= w, so the quotient is at most P.
	a = uint32(min(max(uint64(w)*uint64(p)/sum, 1), uint64(w)))
	c = ceilDiv(w, a)
	return ceilDiv(w, c), c
}

// fit applies Footnote1's rule for an assignment that asks for more than P
// processors to a full gathering whose pass 3 summed the raw assignment.
func (in *Info) fit(v Variant) {
	if v != Footnote1 || in.TotalAssigned <= in.Processors {
		return
	}
	in.Oversubscribed = in.TotalAssigned
	in.MaxNew, in.MinNew, in.TotalAssigned = in.MaxWorkload, in.MinActive, in.Active()
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
