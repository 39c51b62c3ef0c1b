package scan_test

import (
	"fmt"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// TestFallbackOnly runs the look-back path with tiles that publish nothing:
// every tile reduces each of its predecessors itself, down to tile 0, so
// the fallback runs on every step of every look-back (exactly T(T-1)/2
// times for T tiles), for each kind of scan, on the shared-memory kernels
// and on the subgroup ones (emulated where the driver has none), with one
// vector per invocation and with two (the subgroup layout then strides
// each lane's vectors).
func TestFallbackOnly(t *testing.T) {
	c := gputest.Context(t)
	cfgs := []config{
		{name: "look-back/no-publish/shared/tile32", opt: scan.Options{Path: scan.PathLookBack, NoSubgroups: true, GroupSize: 8, Vectors: 1}},
		{name: "look-back/no-publish/shared/tile64", opt: scan.Options{Path: scan.PathLookBack, NoSubgroups: true, GroupSize: 8, Vectors: 2}},
	}
	if cp := c.Caps(); cp.HasSubgroup(subgroupCaps) {
		cfgs = append(cfgs, config{name: fmt.Sprintf("look-back/no-publish/subgroup/tile%d", 16*cp.SubgroupSize),
			opt: scan.Options{Path: scan.PathLookBack, GroupSize: 2 * cp.SubgroupSize, Vectors: 2}})
	} else {
		cfgs = append(cfgs,
			config{name: "look-back/no-publish/emulated-subgroup/tile64",
				opt: scan.Options{Path: scan.PathLookBack, GroupSize: 8, Vectors: 2}, emulate: 8},
			config{name: "look-back/no-publish/emulated-4-subgroups/tile256",
				opt: scan.Options{Path: scan.PathLookBack, GroupSize: 32, Vectors: 2}, emulate: 8})
	}
	for _, cfg := range cfgs {
		t.Run(cfg.name, func(t *testing.T) {
			s := newScanner(t, c, cfg)
			defer s.Delete()
			scan.SetNoPublish(s)
			fallbackOnly(t, c, s, cfg)
		})
	}
}

func fallbackOnly(t *testing.T, c *gpu.Context, s *scan.Scanner, cfg config) {
	rng := gputest.Rand(t)
	tile := s.TileSize()
	for _, n := range []int{62*tile + 16, 3*tile + 4, tile + 1, 1} { // largest first: the look-back state never regrows (its counter would restart)
		tiles := uint32((n + tile - 1) / tile)
		expect := func(what string, before uint32) {
			t.Helper()
			expectPlan(t, s, cfg, what, false)
			if got := scan.Fallbacks(s) - before; got != tiles*(tiles-1)/2 {
				t.Fatalf("%s n=%d: %d fallbacks, want %d", what, n, got, tiles*(tiles-1)/2)
			}
		}
		u := randVals[uint32](rng, n)
		iv := randVals[int32](rng, n)
		heads := randHeads(rng, n, 9)
		src, isrc, f := upload(t, c, u), upload(t, c, iv), upload(t, c, heads)
		for _, op := range ops {
			what := fmt.Sprintf("ExclusiveScan int32 %v n=%d", op, n)
			before := scan.Fallbacks(s)
			g := guarded(t, c, n, sentinel[int32](), nil)
			scan.ExclusiveScan(s, g.View, gpu.Array[int32](isrc), op, -3)
			cpuScan(iv, nil, op, -3, false).check(t, what, g.Check(t, what))
			expect(what, before)

			what = fmt.Sprintf("SegmentedExclusiveScan uint32 %v n=%d", op, n)
			before = scan.Fallbacks(s)
			gu := guarded(t, c, n, sentinel[uint32](), nil)
			scan.SegmentedExclusiveScan(s, gu.View, gpu.Array[uint32](src), gpu.Array[uint32](f), op)
			cpuScan(u, heads, op, ident[uint32](op), false).check(t, what, gu.Check(t, what))
			expect(what, before)
		}
		before := scan.Fallbacks(s)
		segCopyCase(t, c, s, cfg, "no-publish", u, heads, false)
		expect("SegmentedCopy", before)
		before = scan.Fallbacks(s)
		dst := guarded(t, c, n, sentinel[uint32](), nil)
		if got := scan.Compact(s, dst.View, gpu.Array[uint32](src), gpu.Array[uint32](f)); got != countNonzero(heads) {
			t.Fatalf("Compact n=%d: %d, want %d", n, got, countNonzero(heads))
		}
		expect("Compact", before)
	}
}

func countNonzero(f []uint32) int {
	k := 0
	for _, v := range f {
		if v != 0 {
			k++
		}
	}
	return k
}

// TestLookBackWraparound runs look-back scans across the wraparound of the
// epoch tags (which clears the state) and of the 32-bit ticket counter.
func TestLookBackWraparound(t *testing.T) {
	c := gputest.Context(t)
	s, err := scan.NewWithOptions(c, scan.Options{Path: scan.PathLookBack, GroupSize: 8, Vectors: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Delete()
	rng := gputest.Rand(t)
	n := 3000 // 94 tiles
	in := randVals[uint32](rng, n)
	src := upload(t, c, in)
	scan.InclusiveScan(s, gpu.Array[uint32](upload(t, c, make([]uint32, n))), src, scan.Max) // state at full size
	scan.SetCounters(s, scan.MaxEpoch-3, 0xFFFFFFFF-150)
	for call := 0; call < 6; call++ {
		init := rng.Uint32()
		g := guarded(t, c, n, sentinel[uint32](), nil)
		scan.ExclusiveScan(s, g.View, gpu.Array[uint32](src), scan.Add, init)
		cpuScan(in, nil, scan.Add, init, false).check(t, fmt.Sprintf("call %d across the wraparound", call), g.Check(t, "wrap"))
	}
}
