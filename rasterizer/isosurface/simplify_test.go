package isosurface

import (
	"math"
	"sort"
	"testing"

	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// edgeSpread is the longest edge of m's largest triangle over the median
// triangle's: how unbalanced a set is.
func edgeSpread(m *mesh.Mesh) float64 {
	var l []float64
	for _, f := range m.Faces {
		e := 0.0
		for k := 0; k < 3; k++ {
			s := mesh.Sub(m.Positions[f[k]], m.Positions[f[(k+1)%3]])
			e = math.Max(e, math.Sqrt(float64(mesh.Dot(s, s))))
		}
		l = append(l, e)
	}
	sort.Float64s(l)
	return l[len(l)-1] / l[len(l)/2]
}

// TestSimplify holds Simplify, in either build, to what Decimate promises:
// the target, a closed surface staying closed and outward wound, an open
// one keeping its border, the decimated perforator's wide spread of
// triangle sizes, and each vertex with a normal from the input. Without
// meshoptimizer it is Decimate, bit for bit.
func TestSimplify(t *testing.T) {
	t.Logf("meshoptimizer: %v", Meshoptimizer())
	sv := volume.Sphere().SampleCube(33)
	sphere := MarchingCubes(sv, 0)
	d := Simplify(sphere, DecimateOptions{TargetFaces: sphere.Len() / 10})
	checkDecimatedSphere(t, "simplified sphere", sv, sphere, d)
	for i, p := range d.Positions {
		if dot := mesh.Dot(mesh.Normalize(p), d.Normals[i]); dot < 0.9 {
			t.Fatalf("vertex %d at %v: normal %v is not radial (%v)", i, p, d.Normals[i], dot)
		}
	}
	// An open surface: the grid cuts the sphere; its border stays.
	cut := &volume.Volume{Dims: [3]int{33, 33, 20}, Spacing: sv.Spacing, Origin: sv.Origin, Data: sv.Data[:33*33*20]}
	open := MarchingCubes(cut, 0)
	ob, _ := topology(t, "cut sphere", cut, open)
	od := Simplify(open, DecimateOptions{TargetFaces: open.Len() / 5})
	if b, _ := topology(t, "simplified cut sphere", cut, od); b == 0 || b > ob {
		t.Fatalf("cut sphere: %d border edges after, %d before", b, ob)
	}
	f := volume.PerforatorJet()
	pm := MarchingCubes(f.SampleCube(48), f.Iso)
	pd := Simplify(pm, DecimateOptions{TargetFaces: pm.Len() / 5})
	if a, b := edgeSpread(pm), edgeSpread(pd); a > 2 || b < 8 {
		t.Fatalf("longest-edge spread: marching cubes %.1f (want <= 2), simplified %.1f (want >= 8)", a, b)
	}
	if !Meshoptimizer() {
		if got, want := meshHash(pd), meshHash(Decimate(pm, DecimateOptions{TargetFaces: pm.Len() / 5})); got != want {
			t.Fatal("without meshoptimizer Simplify is not Decimate")
		}
	}
	// Fewer faces than the target: the mesh as it is.
	if s := Simplify(sphere, DecimateOptions{TargetFaces: sphere.Len()}); meshHash(s) != meshHash(sphere) {
		t.Fatal("Simplify to as many faces as there are changed the mesh")
	}
}
