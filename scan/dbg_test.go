package scan_test

import (
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

func TestDbg(t *testing.T) {
	c := gputest.Context(t)
	s, _ := scan.NewWithOptions(c, scan.Options{Path: scan.PathLookBack, GroupSize: 8, Vectors: 1})
	for _, n := range []int{31, 32, 33, 33, 33} {
		for _, incl := range []bool{false, true} {
			in := make([]uint32, n)
			for i := range in {
				in[i] = 1
			}
			g := gputest.NewGuarded(t, c, n, 7, in)
			src, _ := gpu.NewBufferFrom(c, in)
			run(s, g.View, gpu.Array[uint32](src), scan.Add, 0, incl)
			got := g.Check(t, "x")
			t.Logf("n %d incl %v: %v", n, incl, got[28:])
		}
	}
}
