package volume

import (
	"math"
	"strings"
	"testing"
)

func TestSampleGrid(t *testing.T) {
	f := Sphere()
	v := f.Sample(5, 3, 2)
	if err := v.Validate(); err != nil {
		t.Fatal(err)
	}
	lo, hi := v.Bounds()
	if lo != [3]float32{-1, -1, -1} || hi != [3]float32{1, 1, 1} {
		t.Fatalf("bounds %v %v, want the domain box", lo, hi)
	}
	if v.Cells() != 4*2*1 || v.Len() != 30 {
		t.Fatalf("cells %d len %d", v.Cells(), v.Len())
	}
	for z := 0; z < 2; z++ {
		for y := 0; y < 3; y++ {
			for x := 0; x < 5; x++ {
				p := v.Position(x, y, z)
				want := float32(f.Eval(float64(p[0]), float64(p[1]), float64(p[2])))
				if got := v.At(x, y, z); math.Abs(float64(got-want)) > 1e-6 {
					t.Fatalf("sample (%d,%d,%d) = %v, field at %v is %v", x, y, z, got, p, want)
				}
			}
		}
	}
	if got := Sphere().SampleCube(3).At(1, 1, 1); got != 0.7 {
		t.Fatalf("sphere centre %v, want 0.7", got)
	}
}

func TestKnownValues(t *testing.T) {
	near := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	// r = 0: rho = cos(12π) = 1, so (1 - 0 + 0.25·2) / 2.5.
	near("marschner-lobb(0,0,0)", MarschnerLobb().Eval(0, 0, 0), 0.6)
	near("marschner-lobb(0,0,1)", MarschnerLobb().Eval(0, 0, 1), 0.2)
	near("torus on its core circle", Torus().Eval(0.6, 0, 0), 0.25)
	near("gyroid(0,0,0)", Gyroid().Eval(0, 0, 0), 0)
	near("gyroid(1/4,0,0)", Gyroid().Eval(0.25, 0, 0), 1) // sin(π/2)cos 0
}

// TestPerforatorParts probes the perforator at points inside and outside
// each part, so that a change to its geometry is a deliberate one.
func TestPerforatorParts(t *testing.T) {
	f := PerforatorJet()
	in := map[string][3]float64{
		"case wall":     {0.37, -0.6, 0},
		"case bottom":   {0, -0.89, 0},
		"slug":          {0, -0.12, 0},
		"jet":           {0, 0.1, 0},
		"jet in hole":   {0, 0.25, 0},
		"bead":          {0, 0.53, 0},
		"particle":      {0.012, 0.87, 0},
		"casing wall":   {0.5, 0.27, 0},
		"casing flank":  {-0.8, -0.6 + 0.87*0.6, 0.87 * 0.8},
		"lip":           {0, 0.33, 0.12},
		"flared mouth":  {0, -0.31, 0.43},
		"wall far edge": {-0.84, 0.27, 0},
	}
	out := map[string][3]float64{
		"inside the case": {0, -0.6, 0},
		"gap in the hole": {0.095, 0.27, 0},
		"neck":            {0, 0.485, 0.02},
		"beyond the wall": {0.9, 0.27, 0},
		"inside the pipe": {0.5, 0.1, 0},
		"corner":          {1, 1, 1},
		"beside the jet":  {0.2, 0.6, 0},
		"ahead of tip":    {0, 0.99, 0},
	}
	for name, p := range in {
		if v := f.Eval(p[0], p[1], p[2]); v <= float64(f.Iso) {
			t.Errorf("%s %v: density %v, want inside (> %v)", name, p, v, f.Iso)
		}
	}
	for name, p := range out {
		if v := f.Eval(p[0], p[1], p[2]); v > float64(f.Iso) {
			t.Errorf("%s %v: density %v, want outside (<= %v)", name, p, v, f.Iso)
		}
	}
	// The surface stays off the domain's faces, so it is closed.
	v := f.SampleCube(33)
	for z := 0; z < 33; z++ {
		for y := 0; y < 33; y++ {
			for x := 0; x < 33; x++ {
				edge := x == 0 || y == 0 || z == 0 || x == 32 || y == 32 || z == 32
				if edge && v.At(x, y, z) > f.Iso {
					t.Fatalf("sample (%d,%d,%d) on the domain's face is inside", x, y, z)
				}
			}
		}
	}
}

func TestGradientOfLinearField(t *testing.T) {
	// A linear field has the exact gradient everywhere, with central and
	// with one-sided differences, on any spacing; a single-sample axis gets 0.
	for _, dims := range [][3]int{{4, 3, 5}, {2, 2, 2}, {3, 1, 2}} {
		v := New(dims, [3]float32{0.5, 2, 0.25}, [3]float32{1, -1, 3})
		for z := 0; z < dims[2]; z++ {
			for y := 0; y < dims[1]; y++ {
				for x := 0; x < dims[0]; x++ {
					p := v.Position(x, y, z)
					v.Data[v.Index(x, y, z)] = 2*p[0] + 3*p[1] - p[2]
				}
			}
		}
		want := [3]float32{2, 3, -1}
		for a := 0; a < 3; a++ {
			if dims[a] == 1 {
				want[a] = 0
			}
		}
		for z := 0; z < dims[2]; z++ {
			for y := 0; y < dims[1]; y++ {
				for x := 0; x < dims[0]; x++ {
					g := v.Gradient(x, y, z)
					for a := 0; a < 3; a++ {
						if math.Abs(float64(g[a]-want[a])) > 1e-4 {
							t.Fatalf("dims %v: gradient at (%d,%d,%d) = %v, want %v", dims, x, y, z, g, want)
						}
					}
				}
			}
		}
	}
}

func TestMisuse(t *testing.T) {
	panics := func(name, want string, fn func()) {
		t.Helper()
		defer func() {
			p := recover()
			if p == nil || !strings.Contains(p.(string), want) {
				t.Errorf("%s: panic %v, want one containing %q", name, p, want)
			}
		}()
		fn()
	}
	panics("New dims", "volume: New: dims[1] = 0", func() { New([3]int{2, 0, 2}, [3]float32{1, 1, 1}, [3]float32{}) })
	panics("New spacing", "volume: New: spacing[2]", func() { New([3]int{2, 2, 2}, [3]float32{1, 1, 0}, [3]float32{}) })
	panics("Sample", "volume: Field.Sample: sphere at 1x4x4", func() { Sphere().Sample(1, 4, 4) })
	if _, err := ByName("nope"); err == nil || !strings.Contains(err.Error(), "perforator") {
		t.Errorf("ByName(nope): %v", err)
	}
	v := New([3]int{2, 2, 2}, [3]float32{1, 1, 1}, [3]float32{})
	v.Data = v.Data[:7]
	if err := v.Validate(); err == nil || !strings.Contains(err.Error(), "Data has 7") {
		t.Errorf("Validate: %v", err)
	}
}

func TestGradientAt(t *testing.T) {
	// Quadratic along x: the sample gradients are exact at interior samples
	// (central differences of x² are exact), and GradientAt interpolates
	// them linearly in between.
	v := New([3]int{5, 3, 2}, [3]float32{0.5, 1, 1}, [3]float32{-1, 0, 0})
	for z := 0; z < 2; z++ {
		for y := 0; y < 3; y++ {
			for x := 0; x < 5; x++ {
				p := v.Position(x, y, z)
				v.Data[v.Index(x, y, z)] = p[0]*p[0] + 3*p[1]
			}
		}
	}
	for _, c := range []struct{ p, want [3]float32 }{
		{[3]float32{-0.5, 1, 0}, [3]float32{-1, 3, 0}},        // a sample
		{[3]float32{-0.25, 1.5, 0.5}, [3]float32{-0.5, 3, 0}}, // between samples
		{[3]float32{-5, -5, -5}, v.Gradient(0, 0, 0)},         // clamped to the corner
		{[3]float32{5, 5, 5}, v.Gradient(4, 2, 1)},
	} {
		g := v.GradientAt(c.p)
		for a := 0; a < 3; a++ {
			if math.Abs(float64(g[a]-c.want[a])) > 1e-5 {
				t.Fatalf("GradientAt(%v) = %v, want %v", c.p, g, c.want)
			}
		}
	}
}
