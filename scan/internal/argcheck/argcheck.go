package argcheck

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/dpgl/dpgl/gpu"
)

// Checker is one package's checks.
type Checker struct {
	Pkg    string // the message prefix: "scan", "radix"
	Owner  string // the object whose context the arrays must share: "Scanner", "Sorter"
	MaxLen int    // the longest array the kernels handle
	Limit  string // why MaxLen: "the kernels index"
}

// Array panics unless a is a usable array of context c, and returns its
// length.
func Array[T any](k Checker, c *gpu.Context, fn, name string, a gpu.Array[T]) int {
	if a == nil {
		panic(fmt.Sprintf("%s: %s: %s is nil", k.Pkg, fn, name))
	}
	b, _ := a.Base()
	if b == nil {
		panic(fmt.Sprintf("%s: %s: %s is nil", k.Pkg, fn, name))
	}
	n := a.Len()
	if b.Deleted() {
		panic(fmt.Sprintf("%s: %s: %s was deleted", k.Pkg, fn, name))
	}
	if b.Context() != c {
		panic(fmt.Sprintf("%s: %s: %s belongs to another gpu.Context than the %s", k.Pkg, fn, name, k.Owner))
	}
	if n > k.MaxLen {
		panic(fmt.Sprintf("%s: %s: %s has %d elements, more than the %d %s", k.Pkg, fn, name, n, k.MaxLen, k.Limit))
	}
	if al := c.Caps().SSBOOffsetAlignment; n > 0 && al > 0 && a.ByteOffset()%al != 0 {
		panic(fmt.Sprintf("%s: %s: %s starts at byte offset %d, not a multiple of the driver's storage-buffer offset alignment %d",
			k.Pkg, fn, name, a.ByteOffset(), al))
	}
	return n
}

// SameLen panics unless array b has n elements like array a.
func (k Checker) SameLen(fn, aName string, n int, bName string, m int) {
	if n != m {
		panic(fmt.Sprintf("%s: %s: %s has %d elements but %s has %d", k.Pkg, fn, bName, m, aName, n))
	}
}

// Overlap reports whether a and b share bytes; same whether they are the
// very same range.
func Overlap(a, b gpu.Storage) (overlap, same bool) {
	return gpu.Overlap(a, b), gpu.SameRange(a, b)
}

// Disjoint panics if a and b overlap.
func (k Checker) Disjoint(fn, aName string, a gpu.Storage, bName string, b gpu.Storage) {
	if o, _ := Overlap(a, b); o {
		panic(fmt.Sprintf("%s: %s: %s and %s overlap", k.Pkg, fn, aName, bName))
	}
}

// RecordWords returns the size of T in 32-bit words, panicking unless it
// is a whole number of them; what names T in the message ("element type").
func RecordWords[T any](k Checker, fn, what string) int {
	size := int(unsafe.Sizeof(*new(T)))
	if size == 0 || size%4 != 0 {
		panic(fmt.Sprintf("%s: %s: %s %v has %d bytes, not a multiple of 4", k.Pkg, fn, what, reflect.TypeFor[T](), size))
	}
	return size / 4
}
