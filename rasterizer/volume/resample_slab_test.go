package volume

import (
	"math"
	"math/rand/v2"
	"testing"
)

// resampleWhole is Resample as it was before slabs: both float64 grids of
// the whole volume at once. The reference for the slabbed Resample.
func resampleWhole(v *Volume, dims [3]int, spacing [3]float32) *Volume {
	// The filter is separable, and so is leaving non-finite samples out:
	// filter val = v·finite and wt = finite along each axis in turn, then
	// divide.
	cur := v.Dims
	val := make([]float64, len(v.Data))
	wt := make([]float64, len(v.Data))
	for i, s := range v.Data {
		if Finite(s) {
			val[i], wt[i] = float64(s), 1
		}
	}
	for a := 0; a < 3; a++ {
		if dims[a] == cur[a] {
			continue
		}
		val, wt, cur = filterAxis(val, wt, cur, a, axisTaps(cur[a], dims[a]))
	}
	out := New(dims, spacing, v.Origin)
	for i := range out.Data {
		if wt[i] > 0 {
			out.Data[i] = float32(val[i] / wt[i])
		} else {
			out.Data[i] = float32(math.NaN())
		}
	}
	return out
}

// TestResampleSlabsEqualWhole: Resample on slabs of a few layers equals
// the whole-volume pass bit for bit, shrinking and enlarging, with NaN
// samples, and its memory per slab stays within the bound.
func TestResampleSlabsEqualWhole(t *testing.T) {
	prev := resampleSlabBytes
	defer func() { resampleSlabBytes = prev }()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		dims [3]int
		n    int
	}{{[3]int{30, 20, 41}, 9}, {[3]int{17, 33, 25}, 12}, {[3]int{9, 8, 7}, 20}, {[3]int{40, 1, 30}, 7}, {[3]int{5, 6, 2}, 3}} {
		v := New(c.dims, [3]float32{1, 0.5, 2}, [3]float32{1, 2, 3})
		for i := range v.Data {
			v.Data[i] = float32(rng.NormFloat64())
			if rng.IntN(50) == 0 {
				v.Data[i] = float32(math.NaN())
			}
		}
		for _, budget := range []int64{1, 16 << 10, 64 << 20} {
			resampleSlabBytes = budget
			got, err := Resample(v, c.n)
			if err != nil {
				t.Fatal(err)
			}
			want := resampleWhole(v, got.Dims, got.Spacing)
			for i := range want.Data {
				if math.Float32bits(got.Data[i]) != math.Float32bits(want.Data[i]) {
					t.Fatalf("%v to %d, slabs of %d bytes: sample %d is %v, the whole pass's %v", c.dims, c.n, budget, i, got.Data[i], want.Data[i])
				}
			}
			if got.Origin != v.Origin {
				t.Fatalf("origin %v", got.Origin)
			}
		}
	}
}
