package synthetic

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Kind is a shape of workload.
type Kind int

const (
	// Balanced: every workload between max/2 and max, like the paper's
	// balanced datasets (Table 1: maximum close to the average).
	Balanced Kind = iota
	// Uniform: every workload between 0 and max.
	Uniform
	// Zipf: workloads drawn from a Zipf distribution (exponent 1.2) on
	// 0..max: most are small, a few are large, as triangle heights of an
	// isosurface seen up close.
	Zipf
	// OneHeavy: one processor holds max tasks, the others at most max/64
	// (the paper's worked example, 100 19 0 0 0 0 0, is one).
	OneHeavy
	// Equal: every processor holds max tasks.
	Equal
	// Zero: no processor holds a task.
	Zero
)

// Kinds lists every kind.
var Kinds = []Kind{Balanced, Uniform, Zipf, OneHeavy, Equal, Zero}

var names = [...]string{"balanced", "uniform", "zipf", "one-heavy", "equal", "zero"}

func (k Kind) String() string {
	if k >= 0 && int(k) < len(names) {
		return names[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Parse returns the kind named s (as String spells it).
func Parse(s string) (Kind, error) {
	for i, n := range names {
		if strings.EqualFold(n, s) {
			return Kind(i), nil
		}
	}
	return 0, fmt.Errorf("synthetic: unknown workload %q (want one of %s)", s, strings.Join(names[:], ", "))
}

// Workload returns p workloads of the given kind with maximum max (the
// maximum is reached by at least one processor unless the kind is Zero or
// p is 0), drawn from r.
func Workload(k Kind, p int, max uint32, r *rand.Rand) []uint32 {
	if p < 0 {
		panic(fmt.Sprintf("synthetic: Workload: negative p %d", p))
	}
	w := make([]uint32, p)
	if p == 0 || k == Zero || max == 0 {
		return w
	}
	switch k {
	case Balanced:
		lo := max / 2
		for i := range w {
			w[i] = lo + uint32(r.Uint64N(uint64(max-lo)+1))
		}
	case Uniform:
		for i := range w {
			w[i] = uint32(r.Uint64N(uint64(max) + 1))
		}
	case Zipf:
		z := rand.NewZipf(r, 1.2, 1, uint64(max))
		for i := range w {
			w[i] = uint32(z.Uint64())
		}
	case OneHeavy:
		for i := range w {
			w[i] = uint32(r.Uint64N(uint64(max/64) + 1))
		}
	case Equal:
		for i := range w {
			w[i] = max
		}
		return w
	default:
		panic(fmt.Sprintf("synthetic: Workload: unknown kind %d", int(k)))
	}
	w[r.IntN(p)] = max
	return w
}
