package radix

import (
	"fmt"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan"
)

// tempBuffers allocates the per-call arrays of TopK and the segmented
// sorts, and frees them all at once (also those made before one failed).
type tempBuffers struct {
	c    *gpu.Context
	fn   string
	free []func()
	err  error
}

// newTemp returns an n-element buffer (at least one element), or nil
// after the first failure, which t.err keeps.
func newTemp[T any](t *tempBuffers, what string, n int) *gpu.Buffer[T] {
	if t.err != nil {
		return nil
	}
	b, err := gpu.NewBuffer[T](t.c, max(n, 1))
	if err != nil {
		t.err = fmt.Errorf("radix: %s: allocating %d elements for %s: %w", t.fn, n, what, err)
		return nil
	}
	t.free = append(t.free, b.Delete)
	return b
}

func (t *tempBuffers) delete() {
	for _, f := range t.free {
		f()
	}
	t.free = nil
}

// iota sets idx[i] = i for the first n elements.
func (s *Sorter) iota(idx *gpu.Buffer[uint32], n int) error {
	return scan.Transform[uint32, uint32](s.scanner, idx.Slice(0, n), idx.Slice(0, n), "i")
}
