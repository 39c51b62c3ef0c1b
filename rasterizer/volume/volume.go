package volume

import (
	"fmt"
	"math"
)

// Volume is a scalar field sampled on a regular grid. Sample (x, y, z) lies
// at world position Origin + (x, y, z)·Spacing (componentwise) and is stored
// at Data[x + Dims[0]*(y + Dims[1]*z)]: x varies fastest, as in NIfTI files
// and in the GPU buffer that Upload makes.
type Volume struct {
	Dims    [3]int     // samples along x, y and z; each at least 1
	Spacing [3]float32 // world distance between neighbouring samples; each positive
	Origin  [3]float32 // world position of sample (0, 0, 0)
	Data    []float32  // Dims[0]*Dims[1]*Dims[2] samples, x fastest
	// RAS reports that the world axes are anatomy's RAS+: x toward the
	// patient's right, y anterior, z superior (ReadNIfTI of a file whose
	// sform or qform says so); cameras then use view.RAS to show the
	// head upright.
	RAS bool
}

// New returns a zero-filled volume. It panics unless every dimension is at
// least 1 and every spacing is positive and finite.
func New(dims [3]int, spacing, origin [3]float32) *Volume {
	for i := 0; i < 3; i++ {
		if dims[i] < 1 {
			panic(fmt.Sprintf("volume: New: dims[%d] = %d, want >= 1", i, dims[i]))
		}
		if !(spacing[i] > 0) || math.IsInf(float64(spacing[i]), 0) {
			panic(fmt.Sprintf("volume: New: spacing[%d] = %v, want positive and finite", i, spacing[i]))
		}
	}
	n := int64(dims[0]) * int64(dims[1]) * int64(dims[2])
	if n > math.MaxInt32 {
		panic(fmt.Sprintf("volume: New: dims %v hold %d samples, more than the 2^31-1 the GPU kernels can index", dims, n))
	}
	return &Volume{Dims: dims, Spacing: spacing, Origin: origin, Data: make([]float32, n)}
}

// Len is the number of samples.
func (v *Volume) Len() int { return v.Dims[0] * v.Dims[1] * v.Dims[2] }

// Cells is the number of grid cells (cubes of 8 neighbouring samples): the
// unit of work of marching cubes. It is 0 when any dimension is 1.
func (v *Volume) Cells() int {
	return max(v.Dims[0]-1, 0) * max(v.Dims[1]-1, 0) * max(v.Dims[2]-1, 0)
}

// Index is the position of sample (x, y, z) in Data.
func (v *Volume) Index(x, y, z int) int { return x + v.Dims[0]*(y+v.Dims[1]*z) }

// At is sample (x, y, z).
func (v *Volume) At(x, y, z int) float32 { return v.Data[x+v.Dims[0]*(y+v.Dims[1]*z)] }

// Position is the world position of sample (x, y, z).
func (v *Volume) Position(x, y, z int) [3]float32 {
	return [3]float32{
		v.Origin[0] + float32(x)*v.Spacing[0],
		v.Origin[1] + float32(y)*v.Spacing[1],
		v.Origin[2] + float32(z)*v.Spacing[2],
	}
}

// Bounds are the world positions of the first and the last sample.
func (v *Volume) Bounds() (lo, hi [3]float32) {
	return v.Origin, v.Position(v.Dims[0]-1, v.Dims[1]-1, v.Dims[2]-1)
}

// Finite reports whether a sample is a number: not NaN and not ±Inf.
// Volumes often hold NaN outside a mask; marching cubes makes no surface in
// a cell with a corner that is not finite, and every statistic over the
// samples ignores them.
func Finite(s float32) bool {
	// The exponent bits all set is NaN or ±Inf; a bit test, because
	// comparisons with NaN are what an optimizer likes to rewrite.
	return math.Float32bits(s)&0x7f800000 != 0x7f800000
}

// Summary describes a volume's samples.
type Summary struct {
	Min, Max  float32 // of the finite samples; NaN when there are none
	Finite    int     // samples that are numbers
	NonFinite int     // samples that are NaN or ±Inf
}

// Summary scans the samples once.
func (v *Volume) Summary() Summary {
	s := Summary{Min: float32(math.Inf(1)), Max: float32(math.Inf(-1))}
	for _, x := range v.Data {
		if !Finite(x) {
			s.NonFinite++
			continue
		}
		s.Finite++
		s.Min = min(s.Min, x)
		s.Max = max(s.Max, x)
	}
	if s.Finite == 0 {
		s.Min, s.Max = float32(math.NaN()), float32(math.NaN())
	}
	return s
}

// Range is the smallest and the largest finite sample, ignoring NaN and
// ±Inf; both are NaN when no sample is finite (FiniteRange says so with an
// error).
func (v *Volume) Range() (lo, hi float32) {
	s := v.Summary()
	return s.Min, s.Max
}

// FiniteRange is Range, or an error when no sample is finite: such a
// volume has no isosurface at any isovalue. Callers that offer a range of
// isovalues (the viewer's slider) or pick a default one use it.
func (v *Volume) FiniteRange() (lo, hi float32, err error) {
	s := v.Summary()
	if s.Finite == 0 {
		return s.Min, s.Max, fmt.Errorf("volume: none of the %d samples of the %dx%dx%d volume is a finite number (all are NaN or ±Inf), so it has no surface",
			len(v.Data), v.Dims[0], v.Dims[1], v.Dims[2])
	}
	return s.Min, s.Max, nil
}

// DefaultIso is the isovalue to use when the user names none: the middle
// of FiniteRange, computed in float64 so that the extremes of float32 do
// not overflow to ±Inf.
func (v *Volume) DefaultIso() (float32, error) {
	lo, hi, err := v.FiniteRange()
	if err != nil {
		return 0, err
	}
	return float32((float64(lo) + float64(hi)) / 2), nil
}

// Gradient is the field's gradient at sample (x, y, z) in world units:
// central differences inside the grid, one-sided differences on its faces
// and beside samples that are not finite (a mask's edge), and 0 along an
// axis with a single sample, or at a sample that is not finite itself. Marching cubes interpolates it
// along cell edges for vertex normals; the GPU kernels compute the same
// expression in the same order (see shaders/isosurface/mc.glsl).
func (v *Volume) Gradient(x, y, z int) [3]float32 {
	p := [3]int{x, y, z}
	var g [3]float32
	if !Finite(v.At(x, y, z)) {
		return g
	}
	for a := 0; a < 3; a++ {
		lo, hi := p, p
		if p[a] > 0 {
			lo[a]--
			if !Finite(v.At(lo[0], lo[1], lo[2])) {
				lo[a]++
			}
		}
		if p[a] < v.Dims[a]-1 {
			hi[a]++
			if !Finite(v.At(hi[0], hi[1], hi[2])) {
				hi[a]--
			}
		}
		if lo[a] == hi[a] {
			continue
		}
		d := v.At(hi[0], hi[1], hi[2]) - v.At(lo[0], lo[1], lo[2])
		g[a] = d / (float32(hi[a]-lo[a]) * v.Spacing[a])
	}
	return g
}

// Clone returns a deep copy.
func (v *Volume) Clone() *Volume {
	w := *v
	w.Data = append([]float32(nil), v.Data...)
	return &w
}

// Validate reports the first inconsistency between the dimensions, spacing
// and data, as an error naming the field.
func (v *Volume) Validate() error {
	for i := 0; i < 3; i++ {
		if v.Dims[i] < 1 {
			return fmt.Errorf("volume: Dims[%d] = %d, want >= 1", i, v.Dims[i])
		}
		if !(v.Spacing[i] > 0) || math.IsInf(float64(v.Spacing[i]), 0) {
			return fmt.Errorf("volume: Spacing[%d] = %v, want positive and finite", i, v.Spacing[i])
		}
		if math.IsNaN(float64(v.Origin[i])) || math.IsInf(float64(v.Origin[i]), 0) {
			return fmt.Errorf("volume: Origin[%d] = %v, want finite", i, v.Origin[i])
		}
	}
	if n := int64(v.Dims[0]) * int64(v.Dims[1]) * int64(v.Dims[2]); n != int64(len(v.Data)) {
		return fmt.Errorf("volume: Data has %d samples, Dims %v need %d", len(v.Data), v.Dims, n)
	}
	return nil
}

// GradientAt is the gradient at world position p: the samples' Gradient
// interpolated trilinearly, with p clamped to the grid. Decimated meshes
// take their normals from it.
func (v *Volume) GradientAt(p [3]float32) [3]float32 {
	var i0 [3]int
	var t [3]float32
	for a := 0; a < 3; a++ {
		u := (p[a] - v.Origin[a]) / v.Spacing[a]
		hi := float32(v.Dims[a] - 1)
		if !(u > 0) { // also NaN
			u = 0
		}
		if u > hi {
			u = hi
		}
		i0[a] = min(int(u), max(v.Dims[a]-2, 0))
		t[a] = u - float32(i0[a])
	}
	var g [3]float32
	for c := 0; c < 8; c++ {
		w := float32(1)
		var q [3]int
		for a := 0; a < 3; a++ {
			bit := c >> a & 1
			q[a] = min(i0[a]+bit, v.Dims[a]-1)
			if bit == 1 {
				w *= t[a]
			} else {
				w *= 1 - t[a]
			}
		}
		if w == 0 {
			continue
		}
		s := v.Gradient(q[0], q[1], q[2])
		for a := 0; a < 3; a++ {
			g[a] += w * s[a]
		}
	}
	return g
}
