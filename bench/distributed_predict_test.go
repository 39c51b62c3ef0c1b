package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestPredictShares(t *testing.T) {
	flat := make([]float64, 1000)
	ramp := make([]float64, 1000)
	for i := range flat {
		flat[i], ramp[i] = 3, float64(i)+0.5
	}
	if p := predictShares(flat, 8, 5); p.static != 1 || p.costEffective != 1 || p.rounds != 0 {
		t.Fatalf("equal costs: %+v, want balanced and no rounds", p)
	}
	// Two ranks of a ramp: the halves' work is 1/4 and 3/4 of the total,
	// so half a share must cross the one boundary: 2 rounds.
	p := predictShares(ramp, 2, 20)
	if p.static < 1.49 || p.static > 1.51 || p.costEffective > 1.02 || p.rounds != 2 {
		t.Fatalf("a ramp on 2 ranks: %+v, want static 1.5, CostEffective near 1, 2 rounds", p)
	}
}

func TestDistributedPredict(t *testing.T) {
	var out bytes.Buffer
	err := runDistributedPredict([]string{"-res", "16", "-width", "64", "-height", "64", "-ranks", "1,3", "-views", "(0,0)", "-frames", "3"}, &out)
	if err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"bricks: 15 cell layers of 15x15 cells", "1 ranks: static", "balanced    bricks", "1.00  1.00  ≥0", "image KiB", "    3         32"} {
		if !strings.Contains(s, want) {
			t.Fatalf("no %q in:\n%s", want, s)
		}
	}
	if err := runDistributedPredict([]string{"-ranks", "4,0"}, &out); err == nil || !strings.Contains(err.Error(), "-ranks") {
		t.Fatalf("-ranks 4,0: %v, want an error naming the flag", err)
	}
}
