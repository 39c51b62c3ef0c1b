package scan_test

import (
	"fmt"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// TestMultiHistogramEven checks MultiHistogramEven against cpuHistEven
// per channel: RGBA pixels with three channels counted (the fourth
// skipped), one of one, and four channels whose bins add up past shared
// memory's 4096 (the global-atomics path), for each type.
func TestMultiHistogramEven(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range passConfigs {
		t.Run(cfg.name, func(t *testing.T) {
			s := primScanner(t, c, cfg)
			multiHistCases[uint32](t, c, s, cfg, 0, 1<<31)
			multiHistCases[int32](t, c, s, cfg, -1000, 70000)
			multiHistCases[float32](t, c, s, cfg, -1, 1)
		})
	}
}

func multiHistCases[T scan.Elem](t *testing.T, c *gpu.Context, s *scan.Scanner, cfg config, lo, hi T) {
	rng := gputest.Rand(t)
	layouts := []struct {
		channels int
		bins     []int
	}{{4, []int{256, 7, 1}}, {1, []int{100}}, {4, []int{3000, 1, 2000, 50}}}
	for _, l := range layouts {
		for _, px := range primSizes(s, cfg.full) {
			for _, kind := range []string{"random", "narrow", "special"} {
				samples := input[T](rng, kind, px*l.channels)
				lower, upper := make([]T, len(l.bins)), make([]T, len(l.bins))
				var counts []gpu.Array[uint32]
				var gs []*gputest.Guarded[uint32]
				for k, b := range l.bins {
					// Each channel its own range: the type's, or half of it.
					lower[k], upper[k] = lo, hi
					if k%2 == 1 {
						upper[k] = lo + (hi-lo)/2
					}
					g := guarded(t, c, b, uint32(0xDEADBEEF), nil)
					gs = append(gs, g)
					counts = append(counts, g.View)
				}
				scan.MultiHistogramEven(s, counts, gpu.Array[T](upload(t, c, samples)), l.channels, lower, upper)
				for k, b := range l.bins {
					ch := make([]T, px)
					for p := range ch {
						ch[p] = samples[p*l.channels+k]
					}
					what := fmt.Sprintf("MultiHistogramEven %s %d channels, channel %d of %d bins, %d pixels %s", kindOf[T](), l.channels, k, b, px, kind)
					checkBits(t, what, gs[k].Check(t, what), cpuHistEven(ch, b, lower[k], upper[k]))
				}
			}
		}
	}
}
