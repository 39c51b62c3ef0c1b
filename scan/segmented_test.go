package scan_test

import (
	"fmt"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

func TestSegmentedScan(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range configs(t, c) {
		t.Run(cfg.name, func(t *testing.T) {
			s := newScanner(t, c, cfg)
			defer s.Delete()
			if cfg.full {
				for _, op := range ops {
					segCase[uint32](t, c, s, cfg, op)
					segCase[int32](t, c, s, cfg, op)
					segCase[float32](t, c, s, cfg, op)
				}
			} else {
				segCase[uint32](t, c, s, cfg, scan.Add)
				segCase[float32](t, c, s, cfg, scan.Add)
				segCase[int32](t, c, s, cfg, scan.Max)
			}
			t.Logf("last plan: %v", s.LastPlan())
			logFallbacks(t, s, cfg)
		})
	}
}

// segCase checks both segmented scans with long, short and single-element
// segments (mean lengths 1000000, 7 and 1), in place at every other size.
func segCase[T scan.Elem](t *testing.T, c *gpu.Context, s *scan.Scanner, cfg config, op scan.Op) {
	rng := gputest.Rand(t)
	for si, n := range sizes(s, cfg.full) {
		for mi, meanLen := range []int{1000000, 7, 1} {
			in := randVals[T](rng, n)
			flags := randHeads(rng, n, meanLen)
			f := upload(t, c, flags)
			for _, inclusive := range []bool{false, true} {
				inPlace := (si+mi+btoi(inclusive))%2 == 1
				what := fmt.Sprintf("Segmented%s %s %v n=%d mean %d in-place=%v", name(inclusive), kindOf[T](), op, n, meanLen, inPlace)
				var got []T
				if inPlace {
					g := guarded(t, c, n, sentinel[T](), in)
					runSeg(s, g.View, g.View, gpu.Array[uint32](f), op, inclusive)
					got = g.Check(t, what)
				} else {
					g := guarded(t, c, n, sentinel[T](), nil)
					runSeg(s, g.View, gpu.Array[T](upload(t, c, in)), gpu.Array[uint32](f), op, inclusive)
					got = g.Check(t, what)
				}
				cpuScan(in, flags, op, ident[T](op), inclusive).check(t, what, got)
				if n > 0 {
					expectPlan(t, s, cfg, what, isFloat[T]() && op == scan.Add)
				}
			}
		}
	}
}

func runSeg[T scan.Elem](s *scan.Scanner, dst, src gpu.Array[T], flags gpu.Array[uint32], op scan.Op, inclusive bool) {
	if inclusive {
		scan.SegmentedInclusiveScan(s, dst, src, flags, op)
	} else {
		scan.SegmentedExclusiveScan(s, dst, src, flags, op)
	}
}

func TestCompact(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range configs(t, c) {
		t.Run(cfg.name, func(t *testing.T) {
			s := newScanner(t, c, cfg)
			defer s.Delete()
			rng := gputest.Rand(t)
			for _, n := range sizes(s, cfg.full) {
				for _, keepOneIn := range []int{1, 3, 1000000} {
					flags := randHeads(rng, n, keepOneIn)
					u := randVals[uint32](rng, n)
					r := make([]record, n)
					for i := range r {
						r[i] = record{uint32(i), float32(i) * 0.25, int32(rng.Uint32())}
					}
					what := fmt.Sprintf("n=%d keep 1 in %d", n, keepOneIn)
					compactCase(t, c, s, cfg, "uint32 "+what, u, flags, uint32(0xDEADBEEF))
					compactCase(t, c, s, cfg, "record "+what, r, flags, record{7, 7, 7})
				}
			}
			t.Logf("last plan: %v", s.LastPlan())
			logFallbacks(t, s, cfg)
		})
	}
}

// compactCase checks Compact into a dst as long as src, CompactTo into one
// that holds only half of the kept elements (the rest must be dropped and
// counted), against a loop.
func compactCase[T comparable](t *testing.T, c *gpu.Context, s *scan.Scanner, cfg config, what string, src []T, flags []uint32, sent T) {
	t.Helper()
	var kept []T
	for i, f := range flags {
		if f != 0 {
			kept = append(kept, src[i])
		}
	}
	n := len(src)
	in := gpu.Array[T](upload(t, c, src))
	f := gpu.Array[uint32](upload(t, c, flags))

	dst := guarded(t, c, n, sent, nil)
	if got := scan.Compact(s, dst.View, in, f); got != len(kept) {
		t.Fatalf("Compact %s: count %d, want %d", what, got, len(kept))
	}
	if n > 0 {
		expectPlan(t, s, cfg, "Compact "+what, false)
	}
	checkCompacted(t, "Compact "+what, dst.Check(t, what), kept, sent)

	half := len(kept) / 2
	small := guarded(t, c, half, sent, nil)
	count := guarded(t, c, 3, uint32(7), nil)
	scan.CompactTo(s, small.View, in, f, count.View, 2)
	if got := count.Check(t, "CompactTo count"); got[2] != uint32(len(kept)) || got[0] != 7 || got[1] != 7 {
		t.Fatalf("CompactTo %s: count buffer %v, want [7 7 %d]", what, got, len(kept))
	}
	checkCompacted(t, "CompactTo (half room) "+what, small.Check(t, what), kept[:half], sent)
}

func checkCompacted[T comparable](t *testing.T, what string, got, kept []T, sent T) {
	t.Helper()
	for i := range got {
		want := sent
		if i < len(kept) {
			want = kept[i]
		}
		if got[i] != want {
			t.Fatalf("%s: dst[%d] = %v, want %v", what, i, got[i], want)
		}
	}
}
