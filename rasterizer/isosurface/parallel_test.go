package isosurface

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// identicalMesh reports the first difference between two indexed meshes,
// comparing coordinates bit for bit (so −0 and +0 differ).
func identicalMesh(got, want *mesh.Mesh) error {
	if len(got.Positions) != len(want.Positions) || len(got.Normals) != len(want.Normals) || len(got.Faces) != len(want.Faces) {
		return fmt.Errorf("%d vertices, %d normals, %d faces; want %d, %d, %d",
			len(got.Positions), len(got.Normals), len(got.Faces), len(want.Positions), len(want.Normals), len(want.Faces))
	}
	same := func(a, b [3]float32) bool {
		for k := range a {
			if math.Float32bits(a[k]) != math.Float32bits(b[k]) {
				return false
			}
		}
		return true
	}
	for i := range want.Positions {
		if !same(got.Positions[i], want.Positions[i]) || !same(got.Normals[i], want.Normals[i]) {
			return fmt.Errorf("vertex %d: %v %v, want %v %v", i, got.Positions[i], got.Normals[i], want.Positions[i], want.Normals[i])
		}
	}
	for i := range want.Faces {
		if got.Faces[i] != want.Faces[i] {
			return fmt.Errorf("face %d: %v, want %v", i, got.Faces[i], want.Faces[i])
		}
	}
	return nil
}

// checkParallel extracts v with 1 to 5 workers (1 to many slabs, slabs
// of one layer) and wants marchingCubes' mesh and Stats exactly.
func checkParallel(t *testing.T, what string, v *volume.Volume, iso float32, first, z0, z1 int) {
	t.Helper()
	want, wst, _ := marchingCubes(v, iso, math.MaxInt, first, z0, z1)
	wst.Triangles = len(want.Faces)
	for _, w := range []int{1, 2, 3, 5} {
		got, st, ok := extractParallel(v, iso, math.MaxInt, first, z0, z1, w)
		if !ok {
			t.Fatalf("%s, %d workers: failed with no limit", what, w)
		}
		if err := identicalMesh(got, want); err != nil {
			t.Fatalf("%s, %d workers: %v", what, w, err)
		}
		if st != wst {
			t.Fatalf("%s, %d workers: stats %+v, want %+v", what, w, st, wst)
		}
	}
}

// TestParallelMatchesMarchingCubes: the parallel extraction is the
// reference's mesh, vertex for vertex and face for face, on random fields
// (ties at the isovalue included), widths about a word of bits (63, 64,
// 65, 129 samples), grids 2 samples thick, NaN and ±Inf, the built-in
// fields, and a run of cell layers placed as ExtractLayers places them.
func TestParallelMatchesMarchingCubes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 60; trial++ {
		dims := [3]int{2 + rng.IntN(9), 2 + rng.IntN(9), 2 + rng.IntN(30)}
		switch trial % 6 {
		case 1:
			dims[0] = []int{63, 64, 65, 66, 129}[trial/6%5]
		case 2:
			dims[trial%3] = 2
		}
		v := volume.New(dims, [3]float32{0.5, 1, 2}, [3]float32{-1, 0, 3})
		for i := range v.Data {
			if trial%3 == 0 {
				v.Data[i] = float32(rng.IntN(3) - 1) // samples equal to the isovalue
			} else {
				v.Data[i] = rng.Float32()*2 - 1
			}
		}
		if trial%4 == 3 {
			for i := 0; i < len(v.Data)/10; i++ {
				v.Data[rng.IntN(len(v.Data))] = [...]float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))}[i%3]
			}
		}
		checkParallel(t, fmt.Sprintf("trial %d dims %v", trial, dims), v, 0, 0, 0, dims[2]-1)
	}
	for name, v := range nonFiniteVolumes(rand.New(rand.NewPCG(3, 4))) {
		checkParallel(t, name, v, 0, 0, 0, v.Dims[2]-1)
	}
	for _, f := range volume.Fields() {
		v := f.Sample(70, 33, 41)
		checkParallel(t, f.Name, v, f.Iso, 0, 0, v.Dims[2]-1)
		// Cell layers [5, 31) of the same volume, placed as layer 9 of a
		// larger one.
		checkParallel(t, f.Name+" layers", v, f.Iso, 9, 5, 31)
	}
	// Empty: no crossing, no layers, no cells.
	sphere := volume.Sphere().SampleCube(12)
	checkParallel(t, "no crossing", sphere, 10, 0, 0, 11)
	checkParallel(t, "no layers", sphere, 0, 0, 4, 4)
	checkParallel(t, "one sample thick", volume.New([3]int{5, 1, 5}, [3]float32{1, 1, 1}, [3]float32{}), 0, 0, 0, 4)
}

// TestParallelOnMRI: the same mesh as the reference on real data (the
// ch2 template Debian's mricron-data installs, when present), every
// second sample along each axis.
func TestParallelOnMRI(t *testing.T) {
	const path = "/usr/share/mricron/templates/ch2.nii.gz"
	full, _, err := volume.LoadNIfTI(path)
	if err != nil {
		t.Skipf("%s: %v", path, err)
	}
	nx, ny, nz := full.Dims[0]/2, full.Dims[1]/2, full.Dims[2]/2
	v := volume.New([3]int{nx, ny, nz}, [3]float32{2, 2, 2}, [3]float32{})
	for z := 0; z < nz; z++ {
		for y := 0; y < ny; y++ {
			for x := 0; x < nx; x++ {
				v.Data[v.Index(x, y, z)] = full.At(2*x, 2*y, 2*z)
			}
		}
	}
	checkParallel(t, "ch2", v, 60, 0, 0, nz-1)
}

// TestParallelMemoryLimit: a limit the surface passes fails the parallel
// extraction, on any number of workers, as it fails the reference.
func TestParallelMemoryLimit(t *testing.T) {
	v := volume.Gyroid().SampleCube(24)
	m := MarchingCubes(v, 0)
	for _, limit := range []int{0, m.Len() / 2, m.Len() - 1} {
		for _, w := range []int{1, 2, 4} {
			if _, st, ok := extractParallel(v, 0, limit, 0, 0, 23, w); ok || st.Triangles != 0 {
				t.Fatalf("limit %d of %d triangles, %d workers: ok %v, stats %+v", limit, m.Len(), w, ok, st)
			}
		}
	}
	if got, _, ok := extractParallel(v, 0, m.Len(), 0, 0, 23, 2); !ok || got.Len() != m.Len() {
		t.Fatalf("limit of exactly %d triangles: ok %v", m.Len(), ok)
	}
}

func BenchmarkExtract(b *testing.B) {
	v := volume.Gyroid().SampleCube(128)
	b.Run("reference", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			MarchingCubes(v, 0)
		}
	})
	b.Run("parallel", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			extractParallel(v, 0, math.MaxInt, 0, 0, 127, workers())
		}
	})
}
