package scan_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// sameOrNaN says a and b have the same bits, or are both NaN (a driver
// and Go may give NaNs different payloads).
func sameOrNaN[T scan.Elem](a, b T) bool {
	if x, ok := any(a).(float32); ok {
		y := any(b).(float32)
		return math.Float32bits(x) == math.Float32bits(y) || x != x && y != y
	}
	return a == b
}

// TestAdjacentDifference checks AdjacentDifference against a plain loop
// for each type on every input kind (subnormal differences aside: a CPU
// driver may flush them to zero), with guard regions.
func TestAdjacentDifference(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range passConfigs {
		t.Run(cfg.name, func(t *testing.T) {
			s := primScanner(t, c, cfg)
			adjDiffCases[uint32](t, c, s, cfg)
			adjDiffCases[int32](t, c, s, cfg)
			adjDiffCases[float32](t, c, s, cfg)
		})
	}
}

func adjDiffCases[T scan.Elem](t *testing.T, c *gpu.Context, s *scan.Scanner, cfg config) {
	rng := gputest.Rand(t)
	for _, n := range primSizes(s, cfg.full) {
		for _, kind := range inputKinds {
			src := input[T](rng, kind, n)
			for i, x := range src {
				if f, ok := any(x).(float32); ok && f != 0 && math.Abs(float64(f)) < 0x1p-126 {
					src[i] = 0 // no subnormals: see the test's doc
				}
			}
			want := make([]T, n)
			for i := range src {
				want[i] = src[i]
				if i > 0 {
					want[i] = src[i] - src[i-1]
				}
			}
			what := fmt.Sprintf("AdjacentDifference %s n=%d %s", kindOf[T](), n, kind)
			g := guarded(t, c, n, sentinel[T](), nil)
			scan.AdjacentDifference(s, g.View, gpu.Array[T](upload(t, c, src)))
			got := g.Check(t, what)
			for i := range got {
				w := want[i]
				if f, ok := any(w).(float32); ok && f != 0 && math.Abs(float64(f)) < 0x1p-126 {
					continue // a subnormal difference, which the driver may flush
				}
				if !sameOrNaN(got[i], w) {
					t.Fatalf("%s: [%d] = %v, want %v", what, i, got[i], w)
				}
			}
		}
	}
}

// TestBounds checks LowerBound and UpperBound against sort.Search over
// sorted arrays of each type (NaNs, -0 and +0 among the floats), with
// queries drawn from the keys, beside them, and beyond both ends.
func TestBounds(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range passConfigs {
		t.Run(cfg.name, func(t *testing.T) {
			s := primScanner(t, c, cfg)
			boundCases[uint32](t, c, s, cfg)
			boundCases[int32](t, c, s, cfg)
			boundCases[float32](t, c, s, cfg)
		})
	}
}

func boundCases[T scan.Elem](t *testing.T, c *gpu.Context, s *scan.Scanner, cfg config) {
	rng := gputest.Rand(t)
	for _, m := range []int{0, 1, 2, 7, 1000} {
		for _, kind := range []string{"random", "narrow", "special"} {
			sorted := input[T](rng, kind, m)
			slices.SortStableFunc(sorted, cmpOrdered[T])
			sb := gpu.Array[T](upload(t, c, sorted))
			for _, n := range primSizes(s, cfg.full) {
				q := input[T](rng, "special", n)
				for i := range q {
					if m > 0 && rng.IntN(2) == 0 {
						q[i] = sorted[rng.IntN(m)]
					}
				}
				qb := gpu.Array[T](upload(t, c, q))
				for _, upper := range []bool{false, true} {
					want := make([]uint32, n)
					for i, x := range q {
						want[i] = uint32(len(sorted))
						for p, k := range sorted {
							if d := cmpOrdered(k, x); d > 0 || d == 0 && !upper {
								want[i] = uint32(p)
								break
							}
						}
					}
					what := fmt.Sprintf("LowerBound %s m=%d %s n=%d", kindOf[T](), m, kind, n)
					g := guarded(t, c, n, uint32(0xDEADBEEF), nil)
					if upper {
						what = "Upper" + what[5:]
						scan.UpperBound(s, g.View, sb, qb)
					} else {
						scan.LowerBound(s, g.View, sb, qb)
					}
					checkBits(t, what, g.Check(t, what), want)
				}
			}
		}
	}
}

// TestMerge checks Merge and MergePairs against a stable sort of the
// concatenated inputs (a's keys before b's among equal keys), for each key
// type, empty and one-sided inputs and lengths about an invocation's 8
// outputs and a work group's.
func TestMerge(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range passConfigs {
		t.Run(cfg.name, func(t *testing.T) {
			s := primScanner(t, c, cfg)
			mergeCases[uint32](t, c, s, cfg)
			mergeCases[int32](t, c, s, cfg)
			mergeCases[float32](t, c, s, cfg)
		})
	}
}

func mergeCases[K scan.Elem](t *testing.T, c *gpu.Context, s *scan.Scanner, cfg config) {
	rng := gputest.Rand(t)
	type val struct{ From, I uint32 }
	wg := s.Options().GroupSize
	lens := [][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {7, 9}, {8, 8}, {8 * wg, 1}, {8*wg - 1, 8*wg + 2}, {5000, 3}, {3000, 4000}}
	if !cfg.full {
		lens = [][2]int{{0, 0}, {1, 1}, {8*wg + 1, 3}, {70000, 50001}}
	}
	for _, l := range lens {
		for _, kind := range []string{"random", "narrow", "special", "equal"} {
			a, b := input[K](rng, kind, l[0]), input[K](rng, kind, l[1])
			slices.SortStableFunc(a, cmpOrdered[K])
			slices.SortStableFunc(b, cmpOrdered[K])
			av, bv := make([]val, len(a)), make([]val, len(b))
			for i := range av {
				av[i] = val{0, uint32(i)}
			}
			for i := range bv {
				bv[i] = val{1, uint32(i)}
			}
			type kv struct {
				k K
				v val
			}
			var all []kv
			for i := range a {
				all = append(all, kv{a[i], av[i]})
			}
			for i := range b {
				all = append(all, kv{b[i], bv[i]})
			}
			slices.SortStableFunc(all, func(x, y kv) int { return cmpOrdered(x.k, y.k) })
			wk, wv := make([]K, len(all)), make([]val, len(all))
			for i, e := range all {
				wk[i], wv[i] = e.k, e.v
			}
			ab, bb := gpu.Array[K](upload(t, c, a)), gpu.Array[K](upload(t, c, b))
			what := fmt.Sprintf("Merge %s %d+%d %s", kindOf[K](), l[0], l[1], kind)
			g := guarded(t, c, len(all), sentinel[K](), nil)
			scan.Merge(s, g.View, ab, bb)
			checkBits(t, what, g.Check(t, what), wk)

			what = "MergePairs" + what[5:]
			g.View.Write(0, make([]K, len(all)))
			gv := guarded(t, c, len(all), val{7, 7}, nil)
			scan.MergePairs(s, g.View, gv.View, ab, gpu.Array[val](upload(t, c, av)), bb, gpu.Array[val](upload(t, c, bv)))
			checkBits(t, what+" keys", g.Check(t, what), wk)
			checkBits(t, what+" values", gv.Check(t, what), wv)
		}
	}
}
