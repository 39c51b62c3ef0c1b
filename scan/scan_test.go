package scan_test

import (
	"fmt"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

var ops = []scan.Op{scan.Add, scan.Max, scan.Min}

func TestScan(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range configs(t, c) {
		t.Run(cfg.name, func(t *testing.T) {
			s := newScanner(t, c, cfg)
			defer s.Delete()
			if cfg.full {
				for _, op := range ops {
					scanCase[uint32](t, c, s, cfg, op)
					scanCase[int32](t, c, s, cfg, op)
					scanCase[float32](t, c, s, cfg, op)
				}
			} else {
				scanCase[uint32](t, c, s, cfg, scan.Add)
				scanCase[float32](t, c, s, cfg, scan.Add)
				scanCase[int32](t, c, s, cfg, scan.Min)
			}
			t.Logf("last plan: %v", s.LastPlan())
			logFallbacks(t, s, cfg)
		})
	}
}

// scanCase checks ExclusiveScan and InclusiveScan of T with op at every
// size, in place at every other size, with guard regions around dst.
func scanCase[T scan.Elem](t *testing.T, c *gpu.Context, s *scan.Scanner, cfg config, op scan.Op) {
	rng := gputest.Rand(t)
	for si, n := range sizes(s, cfg.full) {
		in := randVals[T](rng, n)
		init := randVals[T](rng, 1)[0]
		for _, inclusive := range []bool{false, true} {
			inPlace := (si+btoi(inclusive))%2 == 1
			what := fmt.Sprintf("%s %s %v n=%d in-place=%v", name(inclusive), kindOf[T](), op, n, inPlace)
			var got []T
			if inPlace {
				g := guarded(t, c, n, sentinel[T](), in)
				run(s, g.View, g.View, op, init, inclusive)
				got = g.Check(t, what)
			} else {
				src := upload(t, c, in)
				g := guarded(t, c, n, sentinel[T](), nil)
				run(s, g.View, gpu.Array[T](src), op, init, inclusive)
				got = g.Check(t, what)
				if back := src.Download(); !same(back, in) {
					t.Fatalf("%s: src changed", what)
				}
			}
			if !inclusive {
				cpuScan(in, nil, op, init, false).check(t, what, got)
			} else {
				cpuScan(in, nil, op, ident[T](op), true).check(t, what, got)
			}
			if n > 0 {
				expectPlan(t, s, cfg, what, isFloat[T]() && op == scan.Add)
				if p := s.LastPlan(); p.Path == scan.PathReduceThenScan && p.Levels != levels(n, s.TileSize()) {
					t.Fatalf("%s: %v, want %d levels", what, p, levels(n, s.TileSize()))
				}
			}
		}
	}
}

func run[T scan.Elem](s *scan.Scanner, dst, src gpu.Array[T], op scan.Op, init T, inclusive bool) {
	if inclusive {
		scan.InclusiveScan(s, dst, src, op)
	} else {
		scan.ExclusiveScan(s, dst, src, op, init)
	}
}

func name(inclusive bool) string {
	if inclusive {
		return "InclusiveScan"
	}
	return "ExclusiveScan"
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func same[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestFloatAddRepeatable checks that float sums are bit for bit the same on
// every run, on every path (float Add always takes reduce-then-scan, whose
// order of operations the tile shape fixes).
func TestFloatAddRepeatable(t *testing.T) {
	c := gputest.Context(t)
	rng := gputest.Rand(t)
	for _, cfg := range configs(t, c) {
		s := newScanner(t, c, cfg)
		n := 3*s.TileSize()*s.TileSize()/2 + 17
		if n > 1<<22 {
			n = 1<<22 + 17
		}
		in := randVals[float32](rng, n)
		src := upload(t, c, in)
		dst := upload(t, c, make([]float32, n))
		var first []float32
		var firstSum float32
		for rep := 0; rep < 3; rep++ {
			scan.ExclusiveScan(s, gpu.Array[float32](dst), src, scan.Add, 0.5)
			got := dst.Download()
			sum := scan.Reduce(s, gpu.Array[float32](src), scan.Add)
			if rep == 0 {
				first, firstSum = got, sum
				cpuScan(in, nil, scan.Add, 0.5, false).check(t, cfg.name, got)
				continue
			}
			for i := range got {
				if bitsOf(got[i]) != bitsOf(first[i]) {
					t.Fatalf("%s: run %d differs at %d: %v, first run %v", cfg.name, rep, i, got[i], first[i])
				}
			}
			if bitsOf(sum) != bitsOf(firstSum) {
				t.Fatalf("%s: Reduce run %d = %v, first run %v", cfg.name, rep, sum, firstSum)
			}
		}
		t.Logf("%s: %d float sums repeat bit for bit (%v)", cfg.name, n, s.LastPlan())
		s.Delete()
	}
}
