package scan_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

func TestReduce(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range configs(t, c) {
		if cfg.opt.Path == scan.PathLookBack {
			continue // reductions have one path: the same kernels for every option
		}
		t.Run(cfg.name, func(t *testing.T) {
			s := newScanner(t, c, cfg)
			defer s.Delete()
			for _, op := range ops {
				reduceCase[uint32](t, c, s, cfg, op)
				reduceCase[int32](t, c, s, cfg, op)
				reduceCase[float32](t, c, s, cfg, op)
			}
			countCase(t, c, s, cfg)
		})
	}
}

// reduceCase checks Reduce and ReduceTo (into a guarded buffer, at an
// offset, the other elements untouched) against a plain loop.
func reduceCase[T scan.Elem](t *testing.T, c *gpu.Context, s *scan.Scanner, cfg config, op scan.Op) {
	rng := gputest.Rand(t)
	for _, n := range sizes(s, cfg.full) {
		in := randVals[T](rng, n)
		w := cpuScan(in, nil, op, ident[T](op), true)
		var want T = ident[T](op)
		var wsum, wmag float64
		if n > 0 {
			want, wsum, wmag = w.exact[n-1], 0, 0
			if w.sum != nil {
				wsum, wmag = w.sum[n-1], w.mag[n-1]
			}
		}
		what := fmt.Sprintf("Reduce %s %v n=%d", kindOf[T](), op, n)
		src := upload(t, c, in)
		got := scan.Reduce(s, gpu.Array[T](src), op)
		checkOne(t, what, got, want, w.sum != nil, wsum, wmag)
		if p := s.LastPlan(); p.Levels != levels(n, s.TileSize()) {
			t.Fatalf("%s: %v, want %d levels", what, p, levels(n, s.TileSize()))
		}
		out := guarded(t, c, 5, sentinel[T](), nil)
		scan.ReduceTo(s, out.View, 3, gpu.Array[T](src), op)
		res := out.Check(t, what)
		for i, v := range res {
			if i != 3 && v != sentinel[T]() {
				t.Fatalf("ReduceTo: element %d of dst changed to %v", i, v)
			}
		}
		checkOne(t, "ReduceTo: "+what, res[3], want, w.sum != nil, wsum, wmag)
	}
}

func checkOne[T scan.Elem](t *testing.T, what string, got, want T, fadd bool, sum, mag float64) {
	t.Helper()
	if fadd {
		if d := math.Abs(float64(got) - sum); !(d <= 100*0x1p-24*(mag+1)) {
			t.Fatalf("%s = %v, want %v", what, got, sum)
		}
		return
	}
	if bitsOf(got) != bitsOf(want) {
		t.Fatalf("%s = %v, want %v", what, got, want)
	}
}

func countCase(t *testing.T, c *gpu.Context, s *scan.Scanner, cfg config) {
	rng := gputest.Rand(t)
	for _, n := range sizes(s, cfg.full) {
		flags := randHeads(rng, n, 3)
		want := uint32(0)
		for _, f := range flags {
			if f != 0 {
				want++
			}
		}
		src := upload(t, c, flags)
		if got := scan.CountNonzero(s, src); got != want {
			t.Fatalf("CountNonzero n=%d = %d, want %d", n, got, want)
		}
		out := guarded(t, c, 2, uint32(7), nil)
		scan.CountNonzeroTo(s, out.View, 1, src)
		if got := out.Check(t, "CountNonzeroTo"); got[1] != want || got[0] != 7 {
			t.Fatalf("CountNonzeroTo n=%d = %v, want [7 %d]", n, got, want)
		}
	}
}
