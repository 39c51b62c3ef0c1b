package scan_test

import (
	"fmt"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// TestLargest runs each primitive once with the default tile at the length
// that needs every level of reduce-then-scan the largest llvmpipe buffer
// needs (tile^2+1: three levels), on every path, out of place and in place.
func TestLargest(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range configs(t, c) {
		if cfg.full {
			continue // the tiny-tile configurations reach all their levels in TestScan
		}
		t.Run(cfg.name, func(t *testing.T) {
			s := newScanner(t, c, cfg)
			defer s.Delete()
			rng := gputest.Rand(t)
			n := s.TileSize()*s.TileSize() + 1
			if max := int(c.Caps().MaxSSBOSize/4) - 2*gputest.Guard; n > max {
				n = max
			}
			u := randVals[uint32](rng, n)
			src := upload(t, c, u)

			g := guarded(t, c, n, sentinel[uint32](), nil)
			scan.ExclusiveScan(s, g.View, gpu.Array[uint32](src), scan.Add, 17)
			cpuScan(u, nil, scan.Add, 17, false).check(t, "ExclusiveScan", g.Check(t, "ExclusiveScan"))
			expectPlan(t, s, cfg, "ExclusiveScan", false)

			fl := randVals[float32](rng, n)
			gf := guarded(t, c, n, sentinel[float32](), fl)
			scan.InclusiveScan(s, gf.View, gf.View, scan.Add)
			cpuScan(fl, nil, scan.Add, 0, true).check(t, "InclusiveScan float32 in place", gf.Check(t, "InclusiveScan"))
			expectPlan(t, s, cfg, "InclusiveScan", true)

			heads := randHeads(rng, n, 50)
			f := gpu.Array[uint32](upload(t, c, heads))
			iv := randVals[int32](rng, n)
			gi := guarded(t, c, n, sentinel[int32](), iv)
			scan.SegmentedInclusiveScan(s, gi.View, gi.View, f, scan.Max)
			cpuScan(iv, heads, scan.Max, ident[int32](scan.Max), true).check(t, "SegmentedInclusiveScan", gi.Check(t, "SegmentedInclusiveScan"))
			expectPlan(t, s, cfg, "SegmentedInclusiveScan", false)

			segCopyCase(t, c, s, cfg, "largest", u, heads, false)
			compactCase(t, c, s, cfg, "largest", u, heads, uint32(0xDEADBEEF))

			sum := scan.Reduce(s, gpu.Array[float32](upload(t, c, fl)), scan.Add)
			w := cpuScan(fl, nil, scan.Add, 0, true)
			checkOne(t, "Reduce float32", sum, 0, true, w.sum[n-1], w.mag[n-1])
			t.Logf("n=%d: %v", n, s.LastPlan())
			logFallbacks(t, s, cfg)
		})
	}
}

// TestLargestBuffer scans, in place, a buffer of the largest size the
// driver allows (GL_MAX_SHADER_STORAGE_BLOCK_SIZE, capped at 2^28
// elements to bound host memory on GPUs with larger limits), on both
// paths with the default tile. The array fills its whole buffer, so there
// is no room for guard regions: the CPU loop checks every element, and a
// write past the end falls outside the buffer.
func TestLargestBuffer(t *testing.T) {
	c := gputest.Context(t)
	n := int(min(c.Caps().MaxSSBOSize/4, 1<<28))
	rng := gputest.Rand(t)
	u := randVals[uint32](rng, n)
	want := cpuScan(u, nil, scan.Add, 5, false)
	b := upload(t, c, u)
	for _, p := range []scan.Path{scan.PathLookBack, scan.PathReduceThenScan} {
		s, err := scan.NewWithOptions(c, scan.Options{Path: p})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Delete()
		what := fmt.Sprintf("ExclusiveScan uint32 Add n=%d (%d bytes) in place, %v", n, 4*n, p)
		b.Write(0, u)
		scan.ExclusiveScan(s, gpu.Array[uint32](b), gpu.Array[uint32](b), scan.Add, 5)
		want.check(t, what, b.Download())
		if got := s.LastPlan(); got.Path != p {
			t.Fatalf("%s: ran %v", what, got)
		}
		t.Logf("%s: %v", what, s.LastPlan())
	}
}
