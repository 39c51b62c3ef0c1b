package volume

import (
	"fmt"
	"math"
	"runtime"
	"sync"
)

// Field is a scalar function of world position with a domain box and the
// isovalue at which it shows its intended surface. Every built-in field is
// positive inside its object: the isosurface separates Eval > Iso (inside)
// from Eval <= Iso (outside). Sample turns a field into a Volume at any
// resolution.
type Field struct {
	Name        string
	Description string
	Lo, Hi      [3]float64 // the domain box
	Iso         float32    // the isovalue of the intended surface
	// Isovalues are further isovalues worth testing: one gives no
	// surface, the others change the surface's topology.
	Isovalues []float32
	Eval      func(x, y, z float64) float64
}

// Sample evaluates the field at nx×ny×nz points spanning its domain box
// (corners included), on all CPUs. It panics when a dimension is below 2 or
// the grid fails CheckGrid: a program sampling at a size its user chose
// calls SampleGrid, which returns those as errors.
func (f Field) Sample(nx, ny, nz int) *Volume {
	v, err := f.SampleGrid([3]int{nx, ny, nz})
	if err != nil {
		panic(err.Error())
	}
	return v
}

// SampleGrid is Sample with an error, naming the dimensions and the
// limit, when a dimension is below 2 or the grid fails CheckGrid; it
// allocates nothing then.
func (f Field) SampleGrid(dims [3]int) (*Volume, error) {
	nx, ny, nz := dims[0], dims[1], dims[2]
	if nx < 2 || ny < 2 || nz < 2 {
		return nil, fmt.Errorf("volume: Field.Sample: %s at %dx%dx%d: every dimension must be at least 2", f.Name, nx, ny, nz)
	}
	if err := CheckGrid(dims); err != nil {
		return nil, fmt.Errorf("volume: Field.Sample: %s: %w", f.Name, err)
	}
	v := New(dims, f.spacing(dims), f.origin())
	f.sampleInto(v, dims, 0)
	return v, nil
}

// spacing is the grid's spacing over f's box.
func (f Field) spacing(dims [3]int) [3]float32 {
	var sp [3]float32
	for a := 0; a < 3; a++ {
		sp[a] = float32((f.Hi[a] - f.Lo[a]) / float64(dims[a]-1))
	}
	return sp
}

func (f Field) origin() [3]float32 {
	return [3]float32{float32(f.Lo[0]), float32(f.Lo[1]), float32(f.Lo[2])}
}

// sampleInto fills v, which holds the sample layers first to
// first+v.Dims[2]−1 of the grid dims, with f: every sample from the same
// float64 expression of its whole-grid indices, so that a slab of the
// grid is bit for bit the grid's own layers.
func (f Field) sampleInto(v *Volume, dims [3]int, first int) {
	nx, ny, nz := dims[0], dims[1], v.Dims[2]
	// The positions are computed in float64 from the box, not from the
	// float32 spacing, so that the last sample lands on Hi exactly.
	coord := func(a, i int) float64 {
		return f.Lo[a] + (f.Hi[a]-f.Lo[a])*float64(i)/float64(dims[a]-1)
	}
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), nz)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for z := w; z < nz; z += workers {
				pz := coord(2, first+z)
				for y := 0; y < ny; y++ {
					py := coord(1, y)
					row := v.Data[nx*(y+ny*z):]
					for x := 0; x < nx; x++ {
						row[x] = float32(f.Eval(coord(0, x), py, pz))
					}
				}
			}
		}(w)
	}
	wg.Wait()
}

// SampleCube is Sample(n, n, n).
func (f Field) SampleCube(n int) *Volume { return f.Sample(n, n, n) }

// Fields are the built-in fields, the default first.
func Fields() []Field {
	return []Field{PerforatorJet(), MarschnerLobb(), Sphere(), Torus(), Gyroid()}
}

// Default is the field of the embedded default dataset: PerforatorJet.
func Default() Field { return PerforatorJet() }

// ByName returns the built-in field with the given name.
func ByName(name string) (Field, error) {
	var names []string
	for _, f := range Fields() {
		if f.Name == name {
			return f, nil
		}
		names = append(names, f.Name)
	}
	return Field{}, fmt.Errorf("volume: no built-in field %q (have %v)", name, names)
}

var cube = [2][3]float64{{-1, -1, -1}, {1, 1, 1}}

// MarschnerLobb is the test signal of Marschner and Lobb, "An evaluation
// of reconstruction filters for volume rendering" (1994), with fM = 6 and
// α = 0.25 on [-1, 1]^3: a slow ramp along z modulated by rings of high
// radial frequency, the standard test of how well a reconstruction keeps
// thin features. Its isosurface at 0.5 is a stack of wavy rings.
func MarschnerLobb() Field {
	const fM, alpha = 6.0, 0.25
	return Field{
		Name:        "marschner-lobb",
		Description: "Marschner–Lobb test signal (fM = 6, α = 0.25)",
		Lo:          cube[0], Hi: cube[1],
		Iso:       0.5,
		Isovalues: []float32{0.25, 0.75, 2},
		Eval: func(x, y, z float64) float64 {
			r := math.Sqrt(x*x + y*y)
			rho := math.Cos(2 * math.Pi * fM * math.Cos(math.Pi*r/2))
			return (1 - math.Sin(math.Pi*z/2) + alpha*(1+rho)) / (2 * (1 + alpha))
		},
	}
}

// Sphere is 0.7 − |p| on [-1, 1]^3: a sphere of radius 0.7 at isovalue 0,
// a closed surface (the watertightness test).
func Sphere() Field {
	return Field{
		Name:        "sphere",
		Description: "sphere of radius 0.7 (signed distance, positive inside)",
		Lo:          cube[0], Hi: cube[1],
		Iso:       0,
		Isovalues: []float32{0.5, -0.5, 1},
		Eval: func(x, y, z float64) float64 {
			return 0.7 - math.Sqrt(x*x+y*y+z*z)
		},
	}
}

// Torus is a torus about the y axis with radii 0.6 and 0.25 on [-1, 1]^3,
// as a signed distance positive inside; isovalue 0. Raising the isovalue
// past 0.25 removes the surface; lowering it past −0.6 closes the hole.
func Torus() Field {
	return Field{
		Name:        "torus",
		Description: "torus about y, radii 0.6 and 0.25 (signed distance, positive inside)",
		Lo:          cube[0], Hi: cube[1],
		Iso:       0,
		Isovalues: []float32{0.2, -0.3, 0.5},
		Eval: func(x, y, z float64) float64 {
			q := math.Sqrt(x*x+z*z) - 0.6
			return 0.25 - math.Sqrt(q*q+y*y)
		},
	}
}

// Gyroid is sin x cos y + sin y cos z + sin z cos x with two periods across
// [-1, 1]^3: a triply periodic minimal-like surface that the domain box cuts
// open on every side (the open-boundary test).
func Gyroid() Field {
	const k = 2 * math.Pi
	return Field{
		Name:        "gyroid",
		Description: "gyroid, two periods per axis",
		Lo:          cube[0], Hi: cube[1],
		Iso:       0,
		Isovalues: []float32{0.9, -1.2, 1.6},
		Eval: func(x, y, z float64) float64 {
			return math.Sin(k*x)*math.Cos(k*y) + math.Sin(k*y)*math.Cos(k*z) + math.Sin(k*z)*math.Cos(k*x)
		},
	}
}
