package radix

import (
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan/internal/argcheck"
)

// maxLen bounds the lengths the look-back's 30-bit counts hold.
const maxLen = 1<<30 - 1

// check makes the argument checks radix shares with scan.
var check = argcheck.Checker{Pkg: "radix", Owner: "Sorter", MaxLen: maxLen, Limit: "the kernels count"}

// live panics unless s can run calls.
func (s *Sorter) live(fn string) {
	if s == nil {
		panic("radix: " + fn + ": s is nil")
	}
	s.mu.Lock()
	d := s.deleted
	s.mu.Unlock()
	if d {
		panic("radix: " + fn + ": s was deleted")
	}
}

// array panics unless a is a usable array of s's context, and returns its
// length.
func array[T any](s *Sorter, fn, name string, a gpu.Array[T]) int {
	return argcheck.Array(check, s.c, fn, name, a)
}

// sameLen panics unless array b has n elements like array a.
func sameLen(fn, aName string, n int, bName string, m int) {
	check.SameLen(fn, aName, n, bName, m)
}

// disjoint panics if a and b share bytes.
func disjoint(fn, aName string, a gpu.Storage, bName string, b gpu.Storage) {
	check.Disjoint(fn, aName, a, bName, b)
}

// recordWords returns the size of T in 32-bit words, panicking unless it
// is a whole number of them.
func recordWords[T any](fn string) int { return argcheck.RecordWords[T](check, fn, "value type") }
