package scan_test

import (
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
