package scan

import (
	"fmt"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan/internal/argcheck"
)

// maxLen bounds the lengths the kernels index with 32-bit arithmetic.
const maxLen = 1<<31 - 1

// check makes the argument checks scan shares with scan/radix.
var check = argcheck.Checker{Pkg: "scan", Owner: "Scanner", MaxLen: maxLen, Limit: "the kernels index"}

// live panics unless s can run calls.
func (s *Scanner) live(fn string) {
	if s == nil {
		panic("scan: " + fn + ": s is nil")
	}
	s.mu.Lock()
	d := s.deleted
	s.mu.Unlock()
	if d {
		panic("scan: " + fn + ": s was deleted")
	}
}

// array panics unless a is a usable array of s's context, and returns its
// length.
func array[T any](s *Scanner, fn, name string, a gpu.Array[T]) int {
	return argcheck.Array(check, s.c, fn, name, a)
}

// sameLen panics unless array b has n elements like array a.
func sameLen(fn, aName string, n int, bName string, m int) {
	check.SameLen(fn, aName, n, bName, m)
}

// checkOp panics unless op is an Op defined on the elements of TYPE typ.
func checkOp(fn string, op Op, typ int) {
	if op < Add || op > Xor {
		panic(fmt.Sprintf("scan: %s: op %d is not Add, Max, Min, And, Or or Xor", fn, int(op)))
	}
	if op >= And && typ == 2 {
		panic(fmt.Sprintf("scan: %s: op %v is bitwise, for uint32 and int32 elements, not float32", fn, op))
	}
}

// overlap reports whether a and b share bytes; same whether they are the
// very same range.
func overlap(a, b gpu.Storage) (overlap, same bool) { return argcheck.Overlap(a, b) }

// disjoint panics if a and b overlap.
func disjoint(fn, aName string, a gpu.Storage, bName string, b gpu.Storage) {
	check.Disjoint(fn, aName, a, bName, b)
}

// inPlace panics if dst and src overlap without being the same range.
func inPlace(fn string, dst, src gpu.Storage) {
	if o, same := overlap(dst, src); o && !same {
		panic(fmt.Sprintf("scan: %s: dst and src overlap without being the same range (in place means dst == src)", fn))
	}
}

// recordWords returns the size of T in 32-bit words, panicking unless it
// is a whole number of them.
func recordWords[T any](fn string) int { return argcheck.RecordWords[T](check, fn, "element type") }

// checkAt panics unless at indexes an array of n elements.
func checkAt(fn string, n, at int) {
	if at < 0 || at >= n {
		panic(fmt.Sprintf("scan: %s: at %d is out of range of dst's %d elements", fn, at, n))
	}
}

// arg is a named argument of a call, for countArg.
type arg struct {
	name string
	a    gpu.Storage
}

// countArg panics unless count[at] is an element of count, a live array
// of s's context, disjoint from the call's other arrays: where a …To form
// leaves its count.
func countArg(s *Scanner, fn string, count gpu.Array[uint32], at int, others ...arg) {
	m := array(s, fn, "count", count)
	if at < 0 || at >= m {
		panic(fmt.Sprintf("scan: %s: at %d is out of range of count's %d elements", fn, at, m))
	}
	for _, o := range others {
		disjoint(fn, "count", count, o.name, o.a)
	}
}
