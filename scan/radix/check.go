package radix

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/dpgl/dpgl/gpu"
)

// maxLen bounds the lengths the look-back's 30-bit counts hold.
const maxLen = 1<<30 - 1

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
	if a == nil {
		panic(fmt.Sprintf("radix: %s: %s is nil", fn, name))
	}
	b, _ := a.Base()
	if b == nil {
		panic(fmt.Sprintf("radix: %s: %s is nil", fn, name))
	}
	n := a.Len()
	if b.Deleted() {
		panic(fmt.Sprintf("radix: %s: %s was deleted", fn, name))
	}
	if b.Context() != s.c {
		panic(fmt.Sprintf("radix: %s: %s belongs to another gpu.Context than the Sorter", fn, name))
	}
	if n > maxLen {
		panic(fmt.Sprintf("radix: %s: %s has %d elements, more than the %d the kernels count", fn, name, n, maxLen))
	}
	if al := s.c.Caps().SSBOOffsetAlignment; n > 0 && al > 0 && a.ByteOffset()%al != 0 {
		panic(fmt.Sprintf("radix: %s: %s starts at byte offset %d, not a multiple of the driver's storage-buffer offset alignment %d",
			fn, name, a.ByteOffset(), al))
	}
	return n
}

// sameLen panics unless array b has n elements like array a.
func sameLen(fn, aName string, n int, bName string, m int) {
	if n != m {
		panic(fmt.Sprintf("radix: %s: %s has %d elements but %s has %d", fn, bName, m, aName, n))
	}
}

// disjoint panics if a and b share bytes.
func disjoint(fn, aName string, a gpu.Storage, bName string, b gpu.Storage) {
	if a.ByteSize() == 0 || b.ByteSize() == 0 || a.BufferID() != b.BufferID() {
		return
	}
	ao, bo := a.ByteOffset(), b.ByteOffset()
	if ao < bo+b.ByteSize() && bo < ao+a.ByteSize() {
		panic(fmt.Sprintf("radix: %s: %s and %s overlap", fn, aName, bName))
	}
}

// recordWords returns the size of T in 32-bit words, panicking unless it
// is a whole number of them.
func recordWords[T any](fn string) int {
	size := int(unsafe.Sizeof(*new(T)))
	if size == 0 || size%4 != 0 {
		panic(fmt.Sprintf("radix: %s: value type %v has %d bytes, not a multiple of 4", fn, reflect.TypeFor[T](), size))
	}
	return size / 4
}
