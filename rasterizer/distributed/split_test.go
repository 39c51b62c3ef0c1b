package distributed

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// splitCost, the search from share 0 that splitCosts replaced, is the
// reference: the triangle i in [lo, hi] where the predicted cost of
// [lo, i) first reaches frac of that of [lo, hi).
func splitCost(bounds []int, rho []float64, lo, hi int, frac float64) int {
	want := frac * cost(rho, bounds, lo, hi)
	acc := 0.0
	for r := range rho {
		a, b := max(bounds[r], lo), min(bounds[r+1], hi)
		if a >= b {
			continue
		}
		c := rho[r] * float64(b-a)
		if acc+c >= want {
			if rho[r] <= 0 {
				return a
			}
			return min(b, a+int(math.Round((want-acc)/rho[r])))
		}
		acc += c
	}
	return hi
}

// TestSplitCostsEqualsSearch: the one-sweep splits equal a search from
// share 0 for each k, on random shares with empty and zero-cost ones.
func TestSplitCostsEqualsSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.IntN(40)
		bounds := make([]int, n+1)
		for r := 1; r <= n; r++ {
			bounds[r] = bounds[r-1] + rng.IntN(6) // 0: an empty share
		}
		rho := make([]float64, n)
		for r := range rho {
			if rng.IntN(5) > 0 {
				rho[r] = rng.Float64() * 3
			}
		}
		got := make([]int, n+1)
		splitCosts(bounds, rho, got)
		want := make([]int, n+1)
		for k := 1; k < n; k++ {
			want[k] = splitCost(bounds, rho, 0, bounds[n], float64(k)/float64(n))
		}
		if !slices.Equal(got[1:n], want[1:n]) {
			t.Fatalf("bounds %v rho %v: splits %v, search %v", bounds, rho, got[1:n], want[1:n])
		}
	}
}
