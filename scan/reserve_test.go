package scan_test

import (
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// After Reserve(n), calls on n elements allocate nothing on the GPU, on
// both paths and with tiles small enough for several levels.
func TestReserveThenNoAllocation(t *testing.T) {
	c := gputest.Context(t)
	const n = 5000
	keys := make([]uint32, n)
	vals := make([]uint32, n)
	flags := make([]uint32, n)
	offs := []uint32{0, 10, 10, 4000, n}
	for i := range n {
		keys[i] = uint32(i / 7)
		vals[i] = uint32(i)
		flags[i] = uint32(i % 3 & 1)
	}
	gk, gv, gf, go_ := upload(t, c, keys), upload(t, c, vals), upload(t, c, flags), upload(t, c, offs)
	d1, d2 := upload(t, c, make([]uint32, n)), upload(t, c, make([]uint32, n))
	segs := upload(t, c, make([]uint32, len(offs)-1))
	fs, fd := upload(t, c, make([]float32, n)), upload(t, c, make([]float32, n))
	for _, opt := range []scan.Options{
		{Path: scan.PathLookBack, GroupSize: 8, Vectors: 1},
		{Path: scan.PathReduceThenScan, GroupSize: 8, Vectors: 1},
		{},
	} {
		s, err := scan.NewWithOptions(c, opt)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Reserve(n); err != nil {
			t.Fatal(err)
		}
		before := c.Made()[gpu.KindBuffer]
		scan.ExclusiveScan(s, gpu.Array[uint32](d1), gv, scan.Add, 0)
		scan.SegmentedInclusiveScan(s, gpu.Array[uint32](d1), gv, gf, scan.Max)
		scan.InclusiveScan(s, gpu.Array[float32](fd), fs, scan.Add)
		scan.Compact(s, gpu.Array[uint32](d1), gv, gf)
		scan.Reduce(s, gpu.Array[uint32](gv), scan.Add)
		scan.Send(s, gpu.Array[uint32](d1), gv, gk)
		if _, err := scan.SelectIf(s, gpu.Array[uint32](d1), gv, "x % 5u == 0u"); err != nil {
			t.Fatal(err)
		}
		scan.Partition(s, gpu.Array[uint32](d1), gv, gf)
		scan.Unique(s, gpu.Array[uint32](d1), gk)
		scan.RunLengthEncode(s, gpu.Array[uint32](d1), gpu.Array[uint32](d2), gk)
		scan.ReduceByKey(s, gpu.Array[uint32](d1), gpu.Array[uint32](d2), gk, gv, scan.Add)
		scan.SegmentedReduce(s, gpu.Array[uint32](segs), gv, go_, scan.Add, 0)
		if after := c.Made()[gpu.KindBuffer]; after != before {
			t.Errorf("%+v: %d buffers made after Reserve(%d)", opt, after-before, n)
		}
		s.Delete()
	}
}

// Reserving more than the driver can hold is an error, not a panic, and
// the Scanner goes on working.
func TestReserveTooMuchIsAnError(t *testing.T) {
	c := gputest.Context(t)
	s := primScanner(t, c, config{})
	huge := int(c.Caps().MaxSSBOSize/4) + 1
	err := s.Reserve(huge)
	if err == nil || !strings.Contains(err.Error(), "scan: Reserve: allocating") {
		t.Fatalf("Reserve(%d): %v, want an error from scan: Reserve", huge, err)
	}
	src := upload(t, c, []uint32{1, 2, 3})
	dst := upload(t, c, make([]uint32, 3))
	scan.InclusiveScan(s, gpu.Array[uint32](dst), src, scan.Add)
	if got := dst.Download(); got[2] != 6 {
		t.Fatalf("after a failed Reserve: %v", got)
	}
}
