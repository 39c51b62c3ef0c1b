package volume

import (
	"math"
	"strings"
	"testing"
)

// TestRangeIgnoresNonFinite: Range, Summary and DefaultIso skip NaN and
// ±Inf; a volume of nothing else is an error from FiniteRange.
func TestRangeIgnoresNonFinite(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	v := New([3]int{3, 2, 1}, [3]float32{1, 1, 1}, [3]float32{})
	copy(v.Data, []float32{nan, -2, inf, 5, -inf, nan})
	if lo, hi := v.Range(); lo != -2 || hi != 5 {
		t.Fatalf("Range %v %v, want -2 5", lo, hi)
	}
	if s := v.Summary(); s.Finite != 2 || s.NonFinite != 4 || s.Min != -2 || s.Max != 5 {
		t.Fatalf("Summary %+v", s)
	}
	if iso, err := v.DefaultIso(); err != nil || iso != 1.5 {
		t.Fatalf("DefaultIso %v %v, want 1.5", iso, err)
	}
	// The middle of the float32 extremes is 0, not Inf - Inf.
	copy(v.Data, []float32{math.MaxFloat32, -math.MaxFloat32, 0, 0, 0, 0})
	if iso, err := v.DefaultIso(); err != nil || iso != 0 {
		t.Fatalf("DefaultIso of ±MaxFloat32: %v %v, want 0", iso, err)
	}
	copy(v.Data, []float32{nan, nan, inf, -inf, nan, nan})
	if lo, hi := v.Range(); !math.IsNaN(float64(lo)) || !math.IsNaN(float64(hi)) {
		t.Fatalf("Range of no finite sample: %v %v, want NaN NaN", lo, hi)
	}
	if _, _, err := v.FiniteRange(); err == nil || !strings.Contains(err.Error(), "none of the 6 samples of the 3x2x1 volume is a finite number") {
		t.Fatalf("FiniteRange: %v", err)
	}
	if _, err := v.DefaultIso(); err == nil {
		t.Fatal("DefaultIso of no finite sample: no error")
	}
	for _, x := range []float32{0, -1, math.MaxFloat32, math.SmallestNonzeroFloat32} {
		if !Finite(x) {
			t.Fatalf("Finite(%v) false", x)
		}
	}
	for _, x := range []float32{nan, inf, -inf, math.Float32frombits(0x7fc00001), math.Float32frombits(0xffffffff)} {
		if Finite(x) {
			t.Fatalf("Finite(%v) true", x)
		}
	}
}

// TestCheckGrid: requests too large for the kernels' indices, for memory or
// for a GPU storage block are errors naming the size, with nothing
// allocated; the sizes commands are asked for (100000^3) do not overflow.
func TestCheckGrid(t *testing.T) {
	prev := SetMemoryLimit(1 << 30)
	defer SetMemoryLimit(prev)
	if MemoryLimit() != 1<<30 {
		t.Fatalf("MemoryLimit %d after SetMemoryLimit(1 GiB)", MemoryLimit())
	}
	for _, c := range []struct {
		dims [3]int
		want string
	}{
		{[3]int{100000, 100000, 100000}, "a 100000x100000x100000 volume has 1000000000000000 samples, more than the 2147483647"},
		{[3]int{1 << 40, 1 << 40, 1 << 40}, "has 1.33e+36 samples"},
		{[3]int{600, 600, 600}, "a 600x600x600 volume needs 824.0 MiB as float32, more than the 512.0 MiB a volume may use (half of the memory limit, 1.0 GiB)"},
		{[3]int{0, 5, 5}, "dims[0] = 0"},
		{[3]int{5, 5, -3}, "dims[2] = -3"},
	} {
		if err := CheckGrid(c.dims); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("CheckGrid(%v): %v, want %q", c.dims, err, c.want)
		}
		if _, err := Default().SampleGrid(c.dims); err == nil {
			t.Fatalf("SampleGrid(%v): no error", c.dims)
		}
	}
	for _, dims := range [][3]int{{1, 1, 1}, {500, 500, 500}, {1, 1, 1 << 27}} {
		if err := CheckGrid(dims); err != nil {
			t.Fatalf("CheckGrid(%v): %v", dims, err)
		}
	}
	if err := CheckStorage([3]int{323, 323, 323}, 128<<20); err == nil || !strings.Contains(err.Error(), "more than the driver's largest storage block (128.0 MiB)") {
		t.Fatalf("CheckStorage 323^3: %v", err)
	}
	if err := CheckStorage([3]int{322, 322, 322}, 128<<20); err != nil {
		t.Fatalf("CheckStorage 322^3: %v", err)
	}
	SetMemoryLimit(0)
	if MemoryLimit() < 1<<28 {
		t.Fatalf("default MemoryLimit %d: less than 256 MiB", MemoryLimit())
	}
}
