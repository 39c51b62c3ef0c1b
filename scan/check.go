package scan

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/dpgl/dpgl/gpu"
)

// maxLen bounds the lengths the kernels index with 32-bit arithmetic.
const maxLen = 1<<31 - 1

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
	if a == nil {
		panic(fmt.Sprintf("scan: %s: %s is nil", fn, name))
	}
	b, _ := a.Base()
	if b == nil {
		panic(fmt.Sprintf("scan: %s: %s is nil", fn, name))
	}
	n := a.Len()
	if b.Deleted() {
		panic(fmt.Sprintf("scan: %s: %s was deleted", fn, name))
	}
	if b.Context() != s.c {
		panic(fmt.Sprintf("scan: %s: %s belongs to another gpu.Context than the Scanner", fn, name))
	}
	if n > maxLen {
		panic(fmt.Sprintf("scan: %s: %s has %d elements, more than the %d the kernels index", fn, name, n, maxLen))
	}
	if al := s.c.Caps().SSBOOffsetAlignment; n > 0 && al > 0 && a.ByteOffset()%al != 0 {
		panic(fmt.Sprintf("scan: %s: %s starts at byte offset %d, not a multiple of the driver's storage-buffer offset alignment %d",
			fn, name, a.ByteOffset(), al))
	}
	return n
}

// sameLen panics unless array b has n elements like array a.
func sameLen(fn, aName string, n int, bName string, m int) {
	if n != m {
		panic(fmt.Sprintf("scan: %s: %s has %d elements but %s has %d", fn, bName, m, aName, n))
	}
}

// checkOp panics unless op is an Op.
func checkOp(fn string, op Op) {
	if op < Add || op > Min {
		panic(fmt.Sprintf("scan: %s: op %d is not Add, Max or Min", fn, int(op)))
	}
}

// overlap reports whether a and b share bytes; same whether they are the
// very same range.
func overlap(a, b gpu.Storage) (overlap, same bool) {
	if a.ByteSize() == 0 || b.ByteSize() == 0 || a.BufferID() != b.BufferID() {
		return false, false
	}
	ao, bo := a.ByteOffset(), b.ByteOffset()
	return ao < bo+b.ByteSize() && bo < ao+a.ByteSize(), ao == bo && a.ByteSize() == b.ByteSize()
}

// disjoint panics if a and b overlap.
func disjoint(fn, aName string, a gpu.Storage, bName string, b gpu.Storage) {
	if o, _ := overlap(a, b); o {
		panic(fmt.Sprintf("scan: %s: %s and %s overlap", fn, aName, bName))
	}
}

// inPlace panics if dst and src overlap without being the same range.
func inPlace(fn string, dst, src gpu.Storage) {
	if o, same := overlap(dst, src); o && !same {
		panic(fmt.Sprintf("scan: %s: dst and src overlap without being the same range (in place means dst == src)", fn))
	}
}

// recordWords returns the size of T in 32-bit words, panicking unless it
// is a whole number of them.
func recordWords[T any](fn string) int {
	size := int(unsafe.Sizeof(*new(T)))
	if size == 0 || size%4 != 0 {
		panic(fmt.Sprintf("scan: %s: element type %v has %d bytes, not a multiple of 4", fn, reflect.TypeFor[T](), size))
	}
	return size / 4
}

// checkAt panics unless at indexes an array of n elements.
func checkAt(fn string, n, at int) {
	if at < 0 || at >= n {
		panic(fmt.Sprintf("scan: %s: at %d is out of range of dst's %d elements", fn, at, n))
	}
}
