package scan

import (
	"strconv"

	"github.com/dpgl/dpgl/gpu"
)

// keyHeads writes the head flags of the runs of equal consecutive keys (w
// words each, n of them) to scratch array k and returns them: 1 where a
// run starts, else 0 (keyheads.comp). It runs on the GL thread and ends
// with the storage barrier the scan that reads the flags needs.
func (s *Scanner) keyHeads(fn string, k int, keys gpu.Storage, w, n int) gpu.Range[uint32] {
	heads := s.scratch(fn, k, n)
	if n == 0 {
		return heads
	}
	c := s.c
	p := s.primProgram("scan/keyheads.comp", map[string]string{"KEY_WORDS": strconv.Itoa(w)})
	c.BindStorage(0, keys)
	c.BindStorage(1, heads)
	p.SetUint("n", uint32(n))
	p.DispatchInvocations(n)
	c.Barrier(gpu.BarrierStorage)
	return heads
}
