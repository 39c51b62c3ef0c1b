package scan_test

import (
	"fmt"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

func TestSegmentedCopy(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range configs(t, c) {
		t.Run(cfg.name, func(t *testing.T) {
			s := newScanner(t, c, cfg)
			defer s.Delete()
			rng := gputest.Rand(t)
			for si, n := range sizes(s, cfg.full) {
				for _, meanLen := range []int{1, 5, 1000000} {
					flags := randHeads(rng, n, meanLen)
					u := randVals[uint32](rng, n)
					r := make([]record, n)
					for i := range r {
						r[i] = record{rng.Uint32(), float32(i), int32(rng.Uint32())}
					}
					segCopyCase(t, c, s, cfg, fmt.Sprintf("uint32 n=%d mean %d", n, meanLen), u, flags, si%2 == 0)
					segCopyCase(t, c, s, cfg, fmt.Sprintf("record n=%d mean %d", n, meanLen), r, flags, si%2 == 1)
				}
			}
			t.Logf("last plan: %v", s.LastPlan())
			logFallbacks(t, s, cfg)
		})
	}
}

func segCopyCase[T comparable](t *testing.T, c *gpu.Context, s *scan.Scanner, cfg config, what string, src []T, flags []uint32, inPlace bool) {
	t.Helper()
	what = fmt.Sprintf("SegmentedCopy %s in-place=%v", what, inPlace)
	n := len(src)
	want := make([]T, n)
	for i := range src {
		if i == 0 || flags[i] != 0 {
			want[i] = src[i]
		} else {
			want[i] = want[i-1]
		}
	}
	var zero T
	f := upload(t, c, flags)
	var got []T
	if inPlace {
		g := guarded(t, c, n, zero, src)
		scan.SegmentedCopy(s, g.View, g.View, gpu.Array[uint32](f))
		got = g.Check(t, what)
	} else {
		g := guarded(t, c, n, zero, nil)
		scan.SegmentedCopy(s, g.View, gpu.Array[T](upload(t, c, src)), gpu.Array[uint32](f))
		got = g.Check(t, what)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s: dst[%d] = %v, want %v", what, i, got[i], want[i])
		}
	}
	if n > 0 {
		expectPlan(t, s, cfg, what, false)
	}
}
