package balancer

import (
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
)

// Zero CalibrateOptions mean the defaults, the margin included (issue 39):
// Margin 0 adds DefaultMargin as Warmup 0 and Reps 0 mean one warm-up run
// and three measured; NoMargin adds none.
func TestCalibrateZeroMarginIsTheDefault(t *testing.T) {
	c := gputest.Context(t)
	w := pareto(gputest.Rand(t), 2048, 100)
	sol := newSynthetic(t, c, len(w))
	ids := problems(len(w))
	l := newLoop[uint32](t, Config{Name: "margin", Policy: Always, Lanes: 256})
	load := func(int) error { return l.Load(w, nil, ids) }
	for _, tc := range []struct {
		margin, want float64
	}{{0, DefaultMargin}, {NoMargin, 0}, {-0.5, 0}, {2.5, 2.5}} {
		lc, err := Calibrate(l, sol, 1, load, CalibrateOptions{Margin: tc.margin, Reps: 1})
		if err != nil {
			t.Fatal(err)
		}
		if lc.Margin != tc.want || lc.CostIterations < tc.want {
			t.Errorf("Calibrate with Margin %v: margin %v, cost %v iterations; want margin %v", tc.margin, lc.Margin, lc.CostIterations, tc.want)
		}
	}
	if got := calibrateMargin(0); got != DefaultMargin {
		t.Errorf("calibrateMargin(0) = %v", got)
	}
}
