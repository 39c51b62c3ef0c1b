package isosurface

import (
	"math"
	"testing"

	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

func TestDecimateSphereStaysClosed(t *testing.T) {
	v := volume.Sphere().SampleCube(33)
	m := MarchingCubes(v, 0)
	d := Decimate(m, DecimateOptions{TargetFaces: m.Len() / 10})
	checkDecimatedSphere(t, "decimated sphere", v, m, d)
	h := float64(v.Spacing[0])
	for i, p := range d.Positions {
		if r := math.Sqrt(float64(mesh.Dot(p, p))); math.Abs(r-0.7) > h {
			t.Fatalf("vertex %d at radius %v, more than a cell off 0.7", i, r)
		}
	}
	again := Decimate(m, DecimateOptions{TargetFaces: m.Len() / 10})
	p1, _ := d.Soup()
	p2, _ := again.Soup()
	for i := range p1 {
		if p1[i] != p2[i] {
			t.Fatal("two runs differ")
		}
	}
}

func TestDecimateMaxError(t *testing.T) {
	v := volume.Sphere().SampleCube(33)
	m := MarchingCubes(v, 0)
	h := float64(v.Spacing[0])
	loose := Decimate(m, DecimateOptions{MaxError: h / 2})
	tight := Decimate(m, DecimateOptions{MaxError: h / 50})
	if !(loose.Len() < tight.Len() && tight.Len() < m.Len()) {
		t.Fatalf("faces: loose %d, tight %d, input %d", loose.Len(), tight.Len(), m.Len())
	}
	for i, p := range tight.Positions {
		if r := math.Sqrt(float64(mesh.Dot(p, p))); math.Abs(r-0.7) > h/2+h/10 {
			t.Fatalf("tight: vertex %d at radius %v", i, r)
		}
	}
}

func TestDecimateTorusKeepsGenus(t *testing.T) {
	v := volume.Torus().SampleCube(24)
	m := MarchingCubes(v, 0)
	d := Decimate(m, DecimateOptions{TargetFaces: 40})
	if border, euler := topology(t, "decimated torus", v, d); border != 0 || euler != 0 {
		t.Fatalf("decimated torus: %d border edges, Euler %d", border, euler)
	}
	if signedVolume(d) <= 0 {
		t.Fatal("decimated torus turned inside out")
	}
}

// TestDecimateOpenSurface decimates the gyroid, which the grid cuts open on
// every side: its border must stay on the grid's faces, vertex for vertex.
func TestDecimateOpenSurface(t *testing.T) {
	v := volume.Gyroid().SampleCube(33)
	m := MarchingCubes(v, 0)
	d := Decimate(m, DecimateOptions{TargetFaces: m.Len() / 4})
	border0, euler0 := topology(t, "gyroid", v, m)
	border1, euler1 := topology(t, "decimated gyroid", v, d)
	if border0 != border1 || euler0 != euler1 {
		t.Fatalf("border edges %d → %d, Euler %d → %d", border0, border1, euler0, euler1)
	}
	if d.Len() >= m.Len()/3 {
		t.Fatalf("only %d of %d faces removed", m.Len()-d.Len(), m.Len())
	}
}

// TestDecimateFlat collapses a flat square grid: the interior goes, the
// border and the area stay.
func TestDecimateFlat(t *testing.T) {
	const n = 9
	m := &mesh.Mesh{}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			m.Positions = append(m.Positions, [3]float32{float32(x), float32(y), 0})
		}
	}
	for y := 0; y+1 < n; y++ {
		for x := 0; x+1 < n; x++ {
			i := uint32(y*n + x)
			m.Faces = append(m.Faces, [3]uint32{i, i + 1, i + n + 1}, [3]uint32{i, i + n + 1, i + n})
		}
	}
	d := Decimate(m, DecimateOptions{MaxError: 1e-6})
	area := 0.0
	for i := range d.Faces {
		f := d.Faces[i]
		c := mesh.Cross(mesh.Sub(d.Positions[f[1]], d.Positions[f[0]]), mesh.Sub(d.Positions[f[2]], d.Positions[f[0]]))
		if c[2] <= 0 {
			t.Fatalf("face %d flipped or degenerate: %v", i, c)
		}
		area += float64(c[2]) / 2
	}
	if area != (n-1)*(n-1) {
		t.Fatalf("area %v, want %v", area, (n-1)*(n-1))
	}
	// Only the 4(n-1) border vertices remain, so 4(n-1)-2 faces.
	if len(d.Positions) != 4*(n-1) || d.Len() != 4*(n-1)-2 {
		t.Fatalf("%d vertices, %d faces; want the border's %d and %d", len(d.Positions), d.Len(), 4*(n-1), 4*(n-1)-2)
	}
}

// TestDecimateUnbalances checks what the unbalanced dataset is for: the
// decimated perforator's triangles span a far wider range of sizes than
// marching cubes'.
func TestDecimateUnbalances(t *testing.T) {
	f := volume.PerforatorJet()
	v := f.SampleCube(48)
	m := MarchingCubes(v, f.Iso)
	d := Decimate(m, DecimateOptions{TargetFaces: m.Len() / 5})
	if a, b := edgeSpread(m), edgeSpread(d); a > 2 || b < 8 {
		t.Fatalf("longest-edge spread: marching cubes %.1f (want <= 2), decimated %.1f (want >= 8)", a, b)
	}
}

func TestSetFieldNormals(t *testing.T) {
	v := volume.Sphere().SampleCube(21)
	d := Decimate(MarchingCubes(v, 0), DecimateOptions{TargetFaces: 100})
	SetFieldNormals(d, v)
	for i, p := range d.Positions {
		if dot := mesh.Dot(mesh.Normalize(p), d.Normals[i]); dot < 0.98 {
			t.Fatalf("vertex %d at %v: field normal %v is not radial (%v)", i, p, d.Normals[i], dot)
		}
	}
}

// checkDecimatedSphere checks d, m (the marching-cubes sphere of v)
// decimated to a tenth of its faces: the target met, within a half, a
// closed surface of genus 0, the enclosed volume kept (positive: outward
// winding) and a normal for every vertex.
func checkDecimatedSphere(t *testing.T, what string, v *volume.Volume, m, d *mesh.Mesh) {
	t.Helper()
	if d.Len() > m.Len()/10 || d.Len() < m.Len()/20 {
		t.Fatalf("%s: %d faces from %d, target %d", what, d.Len(), m.Len(), m.Len()/10)
	}
	if border, euler := topology(t, what, v, d); border != 0 || euler != 2 {
		t.Fatalf("%s: %d border edges, Euler %d", what, border, euler)
	}
	if a, b := signedVolume(d), signedVolume(m); math.Abs(a-b) > 0.03*b {
		t.Fatalf("%s: enclosed volume %v, was %v", what, a, b)
	}
	if len(d.Normals) != len(d.Positions) {
		t.Fatalf("%s: %d normals for %d positions", what, len(d.Normals), len(d.Positions))
	}
}
