package scan_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// TestThreeWayPartition checks ThreeWayPartitionIf and its …To form
// against a plain loop on every primitive configuration, with outputs of
// the input's length and shorter than their parts, and that a predicate
// the driver cannot compile is an error naming it.
func TestThreeWayPartition(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range primConfigs(t, c) {
		t.Run(cfg.name, func(t *testing.T) {
			s := primScanner(t, c, cfg)
			rng := gputest.Rand(t)
			for _, n := range primSizes(s, cfg.full) {
				for _, kind := range []string{"random", "special", "equal"} {
					src := input[float32](rng, kind, n)
					var w [3][]float32
					for _, x := range src {
						switch {
						case x < -0.25:
							w[0] = append(w[0], x)
						case x < 0.5 || x != x:
							w[1] = append(w[1], x)
						default:
							w[2] = append(w[2], x)
						}
					}
					sb := gpu.Array[float32](upload(t, c, src))
					for _, short := range []bool{false, true} {
						var g [3]*gputest.Guarded[float32]
						for k := range g {
							m := n
							if short {
								m = len(w[k]) / 2
							}
							g[k] = guarded(t, c, m, sentinel[float32](), nil)
						}
						what := fmt.Sprintf("ThreeWayPartitionIf n=%d %s short=%v", n, kind, short)
						n1, n2, err := scan.ThreeWayPartitionIf(s, g[0].View, g[1].View, g[2].View, sb, "x < -0.25", "x < 0.5 || isnan(x)")
						if err != nil || n1 != len(w[0]) || n2 != len(w[1]) {
							t.Fatalf("%s: %d, %d, %v; want %d, %d", what, n1, n2, err, len(w[0]), len(w[1]))
						}
						check := func(what string) {
							for k := range g {
								got := g[k].Check(t, what)
								l := min(len(got), len(w[k]))
								checkBits(t, fmt.Sprintf("%s part %d", what, k), got[:l], w[k][:l])
							}
						}
						check(what)
						what = "To: " + what
						cnt := guarded(t, c, 3, uint32(0xDEADBEEF), nil)
						for k := range g {
							g[k].View.Write(0, make([]float32, g[k].View.Len()))
						}
						if err := scan.ThreeWayPartitionIfTo(s, g[0].View, g[1].View, g[2].View, sb, "x < -0.25", "x < 0.5 || isnan(x)", cnt.View, 1); err != nil {
							t.Fatal(err)
						}
						checkBits(t, what+" counts", cnt.Check(t, what), []uint32{0xDEADBEEF, uint32(len(w[0])), uint32(len(w[1]))})
						check(what)
					}
				}
			}
			g := guarded(t, c, 4, uint32(0), nil)
			src := gpu.Array[uint32](upload(t, c, []uint32{1, 2, 3, 4}))
			if _, _, err := scan.ThreeWayPartitionIf(s, g.View, g.View.Buf.Slice(0, 0), g.View.Buf.Slice(0, 0), src, "x > 1u", "x ++ 2"); err == nil || !strings.Contains(err.Error(), `"x ++ 2"`) {
				t.Fatalf("a second predicate that does not compile: %v, want an error quoting it", err)
			}
		})
	}
}
