package isosurface

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// topology checks that m is an oriented 2-manifold whose only border lies
// on the grid's faces: every directed edge is used once, every undirected
// edge twice (once each way) unless both ends lie on one face of the grid.
// It returns the number of border edges and the Euler characteristic.
func topology(t *testing.T, what string, v *volume.Volume, m *mesh.Mesh) (border, euler int) {
	t.Helper()
	if err := m.Validate(); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	// Directed edges as a<<32|b, sorted: a repeat is a directed edge used
	// twice; an edge without its reverse is a border edge.
	directed := make([]uint64, 0, 3*len(m.Faces))
	used := make([]bool, len(m.Positions))
	for i, f := range m.Faces {
		if f[0] == f[1] || f[1] == f[2] || f[0] == f[2] {
			t.Fatalf("%s: face %d repeats a vertex: %v", what, i, f)
		}
		for k := 0; k < 3; k++ {
			directed = append(directed, uint64(f[k])<<32|uint64(f[(k+1)%3]))
			used[f[k]] = true
		}
	}
	slices.Sort(directed)
	lo, hi := v.Bounds()
	onGridFace := func(a, b uint32) bool {
		pa, pb := m.Positions[a], m.Positions[b]
		for ax := 0; ax < 3; ax++ {
			if pa[ax] == pb[ax] && (pa[ax] == lo[ax] || pa[ax] == hi[ax]) {
				return true
			}
		}
		return false
	}
	undirected2 := 0 // twice the number of undirected edges
	for i, e := range directed {
		if i > 0 && directed[i-1] == e {
			t.Fatalf("%s: directed edge %d→%d used twice (inconsistent winding or a non-manifold edge)", what, e>>32, uint32(e))
		}
		a, b := uint32(e>>32), uint32(e)
		if _, ok := slices.BinarySearch(directed, uint64(b)<<32|uint64(a)); ok {
			undirected2++
			continue
		}
		if !onGridFace(a, b) {
			t.Fatalf("%s: edge %d→%d (%v to %v) has one triangle but is not on the grid's border: a crack",
				what, a, b, m.Positions[a], m.Positions[b])
		}
		border++
		undirected2 += 2
	}
	for i, u := range used {
		if !u {
			t.Fatalf("%s: vertex %d is used by no face", what, i)
		}
	}
	return border, len(m.Positions) - undirected2/2 + len(m.Faces)
}

func signedVolume(m *mesh.Mesh) float64 {
	s := 0.0
	for _, f := range m.Faces {
		a, b, c := m.Positions[f[0]], m.Positions[f[1]], m.Positions[f[2]]
		s += float64(mesh.Dot(a, mesh.Cross(b, c)))
	}
	return s / 6
}

func TestSphereClosedAndOutward(t *testing.T) {
	for _, n := range []int{6, 17, 40} {
		v := volume.Sphere().SampleCube(n)
		m := MarchingCubes(v, 0)
		what := fmt.Sprintf("sphere %d^3", n)
		border, euler := topology(t, what, v, m)
		if border != 0 || euler != 2 {
			t.Fatalf("%s: %d border edges, Euler characteristic %d; want a closed sphere (0, 2)", what, border, euler)
		}
		h := float64(v.Spacing[0])
		want := 4 * math.Pi / 3 * 0.7 * 0.7 * 0.7
		if got := signedVolume(m); math.Abs(got-want) > 3*h*4*math.Pi*0.49 {
			t.Fatalf("%s: enclosed volume %v, want %v (positive: outward winding)", what, got, want)
		}
		for i, p := range m.Positions {
			r := math.Sqrt(float64(mesh.Dot(p, p)))
			if math.Abs(r-0.7) > h/2 {
				t.Fatalf("%s: vertex %d at radius %v, more than half a cell from 0.7", what, i, r)
			}
			radial := mesh.Normalize(p)
			if d := mesh.Dot(radial, m.Normals[i]); d < 0.95 {
				t.Fatalf("%s: vertex %d normal %v is not radial (dot %v)", what, i, m.Normals[i], d)
			}
		}
		for i := range m.Faces {
			f := m.Faces[i]
			c := mesh.Normalize(mesh.Sub(m.Positions[f[0]], [3]float32{}))
			if fn := m.FaceNormal(i); fn != [3]float32{} && mesh.Dot(fn, c) <= 0 {
				t.Fatalf("%s: face %d normal %v points inward", what, i, fn)
			}
		}
	}
}

func TestTorusGenus(t *testing.T) {
	v := volume.Torus().SampleCube(30)
	m := MarchingCubes(v, 0)
	if border, euler := topology(t, "torus", v, m); border != 0 || euler != 0 {
		t.Fatalf("torus: %d border edges, Euler characteristic %d; want 0, 0", border, euler)
	}
	if signedVolume(m) <= 0 {
		t.Fatal("torus: negative enclosed volume: inward winding")
	}
}

// TestEveryCase puts each of the 256 corner configurations in the middle of
// a grid that is outside everywhere else: each must give a closed,
// consistently and outward wound surface.
func TestEveryCase(t *testing.T) {
	for cs := 1; cs < 256; cs++ {
		v := volume.New([3]int{4, 4, 4}, [3]float32{1, 1, 1}, [3]float32{})
		for i := range v.Data {
			v.Data[i] = -1
		}
		for c := 0; c < 8; c++ {
			if cs>>c&1 == 1 {
				v.Data[v.Index(1+c&1, 1+c>>1&1, 1+c>>2&1)] = 1
			}
		}
		m := MarchingCubes(v, 0)
		what := fmt.Sprintf("case %d", cs)
		border, _ := topology(t, what, v, m)
		if border != 0 || len(m.Faces) == 0 {
			t.Fatalf("%s: %d border edges, %d faces", what, border, len(m.Faces))
		}
		if signedVolume(m) <= 0 {
			t.Fatalf("%s: enclosed volume %v: inward winding", what, signedVolume(m))
		}
	}
}

// TestRandomFieldsNoCracks extracts random fields, including ones full of
// samples exactly at the isovalue and grids of size 2 along an axis.
func TestRandomFieldsNoCracks(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 300; trial++ {
		dims := [3]int{2 + rng.IntN(6), 2 + rng.IntN(6), 2 + rng.IntN(6)}
		if trial%5 == 0 {
			dims[trial%3] = 2
		}
		v := volume.New(dims, [3]float32{0.5, 1, 2}, [3]float32{-1, 0, 3})
		ties := trial%3 == 0
		for i := range v.Data {
			if ties {
				v.Data[i] = float32(rng.IntN(3) - 1) // many samples equal to the isovalue
			} else {
				v.Data[i] = rng.Float32()*2 - 1
			}
		}
		m := MarchingCubes(v, 0)
		topology(t, fmt.Sprintf("trial %d dims %v", trial, dims), v, m)
		for i, n := range m.Normals {
			if l := mesh.Dot(n, n); math.Abs(float64(l)-1) > 1e-5 {
				t.Fatalf("trial %d: normal %d has length² %v", trial, i, l)
			}
		}
	}
}

func TestNoSurface(t *testing.T) {
	for _, f := range volume.Fields() {
		v := f.SampleCube(9)
		lo, hi := v.Range()
		for _, iso := range []float32{hi, hi + 1, lo - 1} {
			if m := MarchingCubes(v, iso); len(m.Faces) != 0 || len(m.Positions) != 0 {
				t.Fatalf("%s at isovalue %v (range [%v, %v]): %d faces, want none", f.Name, iso, lo, hi, len(m.Faces))
			}
		}
	}
	flat := volume.New([3]int{5, 1, 5}, [3]float32{1, 1, 1}, [3]float32{})
	if m := MarchingCubes(flat, -1); len(m.Faces) != 0 {
		t.Fatal("a grid one sample thick has no cells, but gave faces")
	}
}

func TestCaseTableShape(t *testing.T) {
	for cs := 0; cs < 256; cs++ {
		crossed := 0
		for e := 0; e < 12; e++ {
			if cs>>edgeCorners[e][0]&1 != cs>>edgeCorners[e][1]&1 {
				crossed |= 1 << e
			}
		}
		used := 0
		for _, e := range caseTriangles[cs] {
			if crossed>>e&1 == 0 {
				t.Fatalf("case %d uses edge %d, which it does not cross", cs, e)
			}
			used |= 1 << e
		}
		if used != crossed {
			t.Fatalf("case %d: crossed edges %012b, triangles use %012b", cs, crossed, used)
		}
	}
	// Case 1 (corner 0 inside) is the triangle x-edge, y-edge, z-edge:
	// counter-clockwise around (1, 1, 1), away from the corner.
	if got := caseTriangles[1]; len(got) != 3 || got[0] != 0 || got[1] != 4 || got[2] != 8 {
		t.Fatalf("case 1: %v, want [0 4 8]", got)
	}
}
