package isosurface

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// nonFiniteVolumes are volumes with NaN and ±Inf where real data has them:
// outside a mask (a half-space of NaN through the surface), scattered
// single samples of NaN, +Inf and -Inf, and on the grid's faces.
func nonFiniteVolumes(rng *rand.Rand) map[string]*volume.Volume {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	out := map[string]*volume.Volume{}

	mask := volume.Sphere().Sample(19, 17, 21)
	for z := 0; z < 21; z++ {
		for y := 0; y < 17; y++ {
			for x := 10; x < 19; x++ {
				mask.Data[mask.Index(x, y, z)] = nan
			}
		}
	}
	out["NaN half-space"] = mask

	scattered := volume.Sphere().SampleCube(16)
	for i := 0; i < 60; i++ {
		scattered.Data[rng.IntN(len(scattered.Data))] = [...]float32{nan, inf, -inf}[i%3]
	}
	out["scattered NaN and ±Inf"] = scattered

	faces := volume.Torus().Sample(12, 9, 14)
	for y := 0; y < 9; y++ {
		for x := 0; x < 12; x++ {
			faces.Data[faces.Index(x, y, 0)] = -inf
			faces.Data[faces.Index(x, y, 13)] = nan
		}
	}
	out["±Inf and NaN faces"] = faces
	return out
}

// wantStats counts, with a plain loop, the cells marching cubes must skip
// and the triangles the others make.
func wantStats(v *volume.Volume, iso float32) Stats {
	st := Stats{Cells: v.Cells()}
	for z := 0; z+1 < v.Dims[2]; z++ {
		for y := 0; y+1 < v.Dims[1]; y++ {
			for x := 0; x+1 < v.Dims[0]; x++ {
				cs, bad := 0, false
				for c := 0; c < 8; c++ {
					s := v.At(x+c&1, y+c>>1&1, z+c>>2&1)
					if math.IsNaN(float64(s)) || math.IsInf(float64(s), 0) {
						bad = true
					}
					if s > iso {
						cs |= 1 << c
					}
				}
				if bad {
					st.NonFinite++
				} else {
					st.Triangles += len(caseTriangles[cs]) / 3
				}
			}
		}
	}
	return st
}

// TestNonFiniteCells: cells with a NaN or ±Inf corner make no triangles,
// Stats counts them, and the mesh is finite everywhere, so that decimation
// and field normals work on it (bench panicked in Decimate on NaN
// positions).
func TestNonFiniteCells(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 14))
	for name, v := range nonFiniteVolumes(rng) {
		for _, iso := range []float32{0, 0.1, -0.4} {
			what := fmt.Sprintf("%s at %v", name, iso)
			m, st, err := Extract(v, iso)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if want := wantStats(v, iso); st != want || m.Len() != want.Triangles {
				t.Fatalf("%s: stats %+v with %d faces, want %+v", what, st, m.Len(), want)
			}
			if st.NonFinite == 0 || st.Triangles == 0 {
				t.Fatalf("%s: a test volume that tests nothing: %+v", what, st)
			}
			if err := m.Validate(); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if ref := MarchingCubes(v, iso); ref.Len() != m.Len() {
				t.Fatalf("%s: MarchingCubes %d faces, Extract %d", what, ref.Len(), m.Len())
			}
			d := Decimate(m, DecimateOptions{TargetFaces: m.Len() / 4})
			SetFieldNormals(d, v)
			if err := d.Validate(); err != nil {
				t.Fatalf("%s: decimated: %v", what, err)
			}
		}
	}
}

// TestGradientBesideNonFinite: beside a NaN the gradient is one-sided, not
// NaN, and at a NaN it is 0.
func TestGradientBesideNonFinite(t *testing.T) {
	v := volume.New([3]int{4, 3, 3}, [3]float32{1, 2, 1}, [3]float32{})
	for z := 0; z < 3; z++ {
		for y := 0; y < 3; y++ {
			for x := 0; x < 4; x++ {
				v.Data[v.Index(x, y, z)] = float32(3*x + y)
			}
		}
	}
	v.Data[v.Index(3, 1, 1)] = float32(math.NaN())
	v.Data[v.Index(1, 2, 1)] = float32(math.Inf(-1))
	if g := v.Gradient(2, 1, 1); g != [3]float32{3, 0.5, 0} {
		t.Fatalf("gradient beside NaN (x+) and at z faces: %v, want [3 0.5 0]", g)
	}
	if g := v.Gradient(1, 1, 1); g != [3]float32{3, 0.5, 0} {
		t.Fatalf("gradient beside -Inf (y+): %v, want [3 0.5 0]", g)
	}
	if g := v.Gradient(3, 1, 1); g != [3]float32{} {
		t.Fatalf("gradient at NaN: %v, want 0", g)
	}
}

// TestAllNonFinite: a volume with no finite sample is an error that names
// the volume, not the isovalue.
func TestAllNonFinite(t *testing.T) {
	v := volume.New([3]int{3, 4, 2}, [3]float32{1, 1, 1}, [3]float32{})
	for i := range v.Data {
		v.Data[i] = [...]float32{float32(math.NaN()), float32(math.Inf(1))}[i%2]
	}
	_, _, err := Extract(v, 0.5)
	if err == nil || !strings.Contains(err.Error(), "none of the 24 samples of the 3x4x2 volume is a finite number") || strings.Contains(err.Error(), "isovalue") {
		t.Fatalf("all-NaN volume: %v", err)
	}
	if _, _, err := Extract(volume.Sphere().SampleCube(4), float32(math.NaN())); err == nil || !strings.Contains(err.Error(), "isovalue NaN") {
		t.Fatalf("NaN isovalue: %v", err)
	}
}

// TestExtractMemoryLimit: a surface larger than the memory limit is an
// error, found while it grows, not an exhausted machine.
func TestExtractMemoryLimit(t *testing.T) {
	v := volume.Gyroid().SampleCube(24)
	m, _, err := Extract(v, 0)
	if err != nil {
		t.Fatal(err)
	}
	// A limit that holds the volume but not the surface.
	prev := volume.SetMemoryLimit(int64(m.Len()) * BytesPerTriangle / 2)
	defer volume.SetMemoryLimit(prev)
	_, st, err := Extract(v, 0)
	if err == nil || !strings.Contains(err.Error(), "more than the memory limit") {
		t.Fatalf("surface of %d triangles under a limit of %d bytes: %v", m.Len(), volume.MemoryLimit(), err)
	}
	if st.Triangles != 0 {
		t.Fatalf("stats of a failed extraction: %+v", st)
	}
}

// TestGPUNonFinite: the GPU skips the same cells, counts them, and makes
// the CPU's triangles.
func TestGPUNonFinite(t *testing.T) {
	c := gputest.Context(t)
	e, err := NewExtractor(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Delete()
	var dst *mesh.GPU
	rng := rand.New(rand.NewPCG(7, 14))
	for name, v := range nonFiniteVolumes(rng) {
		for _, iso := range []float32{0, 0.1, -0.4} {
			what := fmt.Sprintf("%s at %v", name, iso)
			dst = extract(t, c, e, dst, v, iso)
			cpu, want, err := Extract(v, iso)
			if err != nil {
				t.Fatal(err)
			}
			if st := e.Stats(); st != want {
				t.Fatalf("%s: GPU stats %+v, CPU %+v", what, st, want)
			}
			pos, nrm := dst.DownloadSoup()
			sameSoup(t, what, v, cpu, pos, nrm)
		}
	}
	// The count starts again at each dispatch.
	v := volume.Sphere().SampleCube(9)
	dst = extract(t, c, e, dst, v, 0)
	if st := e.Stats(); st.NonFinite != 0 || st.Cells != 512 {
		t.Fatalf("finite volume after non-finite ones: %+v", st)
	}
	dst.Delete()
}

// TestExtremeSpacing: with a voxel spacing of 1e30 or 1e-20 (what a NIfTI
// pixdim may say) the normals are those of spacing 1, not the edge
// directions that an underflowing or overflowing length would give; CPU and
// GPU alike.
func TestExtremeSpacing(t *testing.T) {
	c := gputest.Context(t)
	e, err := NewExtractor(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Delete()
	unit := volume.Sphere().SampleCube(12)
	unit.Spacing, unit.Origin = [3]float32{1, 1, 1}, [3]float32{}
	want := MarchingCubes(unit, 0)
	for _, sp := range []float32{1e30, 1e-20} {
		v := unit.Clone()
		v.Spacing = [3]float32{sp, sp, sp}
		m := MarchingCubes(v, 0)
		if m.Len() != want.Len() {
			t.Fatalf("spacing %v: %d faces, %d at spacing 1", sp, m.Len(), want.Len())
		}
		for i, n := range m.Normals {
			for a := 0; a < 3; a++ {
				if math.Abs(float64(n[a]-want.Normals[i][a])) > 1e-5 {
					t.Fatalf("spacing %v: normal %d is %v, %v at spacing 1", sp, i, n, want.Normals[i])
				}
			}
		}
		dst := extract(t, c, e, nil, v, 0)
		pos, nrm := dst.DownloadSoup()
		dst.Delete()
		sameSoup(t, fmt.Sprint("spacing ", sp), v, m, pos, nrm)
	}
}

// TestExtremeValues: samples near ±MaxFloat32 are finite, so their cells
// make triangles, and the vertices must be finite too (a difference of
// ±3e38 overflows float32 unless it is halved first).
func TestExtremeValues(t *testing.T) {
	c := gputest.Context(t)
	e, err := NewExtractor(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Delete()
	v := volume.Sphere().SampleCube(10)
	for i, s := range v.Data {
		v.Data[i] = -3e38
		if s > 0 {
			v.Data[i] = 3e38
		}
	}
	for _, iso := range []float32{0, 2.9e38, -2.9e38} {
		m, st, err := Extract(v, iso)
		if err != nil || st.Triangles == 0 {
			t.Fatalf("iso %v: %v, %+v", iso, err, st)
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("iso %v: %v", iso, err)
		}
		dst := extract(t, c, e, nil, v, iso)
		pos, nrm := dst.DownloadSoup()
		dst.Delete()
		sameSoup(t, fmt.Sprint("±3e38 at ", iso), v, m, pos, nrm)
	}
}
