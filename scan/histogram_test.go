package scan_test

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// cpuHistEven is HistogramEven by a plain loop.
func cpuHistEven[T scan.Elem](x []T, bins int, lower, upper T) []uint32 {
	out := make([]uint32, bins)
	scale := float32(bins) / (float32(upper) - float32(lower))
	for _, v := range x {
		if !(v >= lower && v < upper) {
			continue
		}
		var b uint64
		if isFloat[T]() {
			f := (float32(v) - float32(lower)) * scale
			b = min(uint64(f), uint64(bins-1))
		} else {
			d, r := uint64(bitsOf(v)-bitsOf(lower)), uint64(bitsOf(upper)-bitsOf(lower))
			b = d * uint64(bins) / r
		}
		out[b]++
	}
	return out
}

// cpuHistRange is HistogramRange by a plain loop.
func cpuHistRange[T scan.Elem](x, bnd []T) []uint32 {
	bins := len(bnd) - 1
	out := make([]uint32, bins)
	for _, v := range x {
		if !(v >= bnd[0] && v < bnd[bins]) {
			continue
		}
		out[sort.Search(len(bnd), func(i int) bool { return bnd[i] > v })-1]++
	}
	return out
}

func TestHistogram(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range passConfigs {
		// "": the driver's choice; private and shared fall back to the
		// next path where the bins do not fit.
		for _, path := range []string{"", "private", "shared", "global"} {
			t.Run(cfg.name+"/"+path, func(t *testing.T) {
				s := primScanner(t, c, cfg)
				scan.SetHistogramPath(s, path)
				histCases[uint32](t, c, s, cfg, [][2]uint32{{0, 0xFFFFFFFF}, {5, 1000}, {0x3F000000, 0x80000001}})
				histCases[int32](t, c, s, cfg, [][2]int32{{math.MinInt32, math.MaxInt32}, {-1000, 1000}, {0, 8}})
				histCases[float32](t, c, s, cfg, [][2]float32{{-1, 1}, {0, 0.5}, {-1e30, 1e30}, {float32(math.Copysign(0, -1)), 1}})
			})
		}
	}
}

func histCases[T scan.Elem](t *testing.T, c *gpu.Context, s *scan.Scanner, cfg config, ranges [][2]T) {
	rng := gputest.Rand(t)
	binCounts := []int{1, 7, 300, 4096, 5000}
	for _, n := range primSizes(s, cfg.full) {
		for _, kind := range inputKinds {
			x := input[T](rng, kind, n)
			src := upload(t, c, x)
			for k, bins := range binCounts {
				r := ranges[(k+len(kind))%len(ranges)]
				what := fmt.Sprintf("HistogramEven %s n=%d %s bins=%d [%v, %v)", kindOf[T](), n, kind, bins, r[0], r[1])
				g := guarded(t, c, bins, uint32(0xDEADBEEF), nil)
				scan.HistogramEven(s, g.View, gpu.Array[T](src), r[0], r[1])
				checkBits(t, what, g.Check(t, what), cpuHistEven(x, bins, r[0], r[1]))

				bnd := input[T](rng, "random", bins+1)
				bnd = slices.DeleteFunc(bnd, func(v T) bool { return v != v })
				for len(bnd) < bins+1 {
					bnd = append(bnd, bnd[len(bnd)-1])
				}
				slices.Sort(bnd)
				if kind == "narrow" && bins >= 7 && n > 0 {
					bnd[1], bnd[2] = x[0], x[0] // an empty bin at a sample's value
					slices.Sort(bnd)
				}
				what = fmt.Sprintf("HistogramRange %s n=%d %s bins=%d", kindOf[T](), n, kind, bins)
				g.View.Write(0, make([]uint32, bins)) // counts are set, not added to
				scan.HistogramRange(s, g.View, gpu.Array[T](src), gpu.Array[T](upload(t, c, bnd)))
				checkBits(t, what, g.Check(t, what), cpuHistRange(x, bnd))
			}
		}
	}
}

// HistogramRange's lookup table on the keys' high bits holds, per bucket,
// the bins of its first and last key: boundaries crowded into one bucket
// (spans of 1, 2, 126, 127 and past, which the table saturates), all equal
// but the last, at most one a bucket, and samples at, between and around
// the boundaries.
func TestHistogramRangeCrowded(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range passConfigs {
		t.Run(cfg.name, func(t *testing.T) {
			s := primScanner(t, c, cfg)
			rangeCrowded[uint32](t, c, s, cfg)
			rangeCrowded[int32](t, c, s, cfg)
			rangeCrowded[float32](t, c, s, cfg)
		})
	}
}

func rangeCrowded[T scan.Elem](t *testing.T, c *gpu.Context, s *scan.Scanner, cfg config) {
	rng := gputest.Rand(t)
	// at(i) is the i-th of values a short step apart, within one bucket
	// of any table (the keys share their top 12 bits): 1000 + i, or 0.5 +
	// i * 2^-20 for floats.
	at := func(i int) T {
		if isFloat[T]() {
			return T(0.5 + float64(i)/(1<<20))
		}
		return T(1000 + i)
	}
	for _, n := range primSizes(s, cfg.full) {
		for _, bins := range []int{1, 2, 3, 127, 128, 300} {
			layouts := map[string][]T{}
			crowd := make([]T, bins+1)
			for i := range crowd {
				crowd[i] = at(2 * i)
			}
			layouts["crowded"] = crowd
			equal := make([]T, bins+1)
			for i := range equal {
				equal[i] = at(3)
			}
			equal[bins] = at(9)
			layouts["equal"] = equal
			// 37 steps apart: at most one boundary a bucket, so that the
			// table alone finds the bins (LOOP 0) even at small n.
			spread := make([]T, bins+1)
			for i := range spread {
				spread[i] = at(37 * i)
			}
			layouts["spread"] = spread
			// Samples from a little below the first boundary to a little
			// past the last.
			width := map[string]int{"crowded": 2*bins + 12, "equal": 20, "spread": 37*bins + 12}
			for name, bnd := range layouts {
				x := make([]T, n)
				for i := range x {
					x[i] = at(rng.IntN(width[name]) - 4)
				}
				if isFloat[T]() && n > 2 {
					x[0], x[1] = T(math.NaN()), T(math.Copysign(0, -1))
				}
				what := fmt.Sprintf("HistogramRange %s n=%d bins=%d %s", kindOf[T](), n, bins, name)
				g := guarded(t, c, bins, uint32(0xDEADBEEF), nil)
				scan.HistogramRange(s, g.View, gpu.Array[T](upload(t, c, x)), gpu.Array[T](upload(t, c, bnd)))
				checkBits(t, what, g.Check(t, what), cpuHistRange(x, bnd))
			}
		}
	}
}
