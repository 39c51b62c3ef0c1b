package dataset

import (
	"math"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

func TestFromMesh(t *testing.T) {
	src := FromField(volume.Torus(), 20, 1).Balanced
	bare := &mesh.Mesh{Positions: src.Positions, Faces: src.Faces}
	p, err := FromMesh("torus.ply", bare, 4)
	if err != nil {
		t.Fatal(err)
	}
	if bare.Normals != nil {
		t.Fatal("FromMesh changed its input")
	}
	if p.Balanced.Len() != src.Len() || len(p.Balanced.Normals) != len(src.Positions) || p.Volume != nil {
		t.Fatalf("balanced set: %d triangles, %d normals", p.Balanced.Len(), len(p.Balanced.Normals))
	}
	// Computed normals agree with the field's gradient normals that
	// marching cubes gave the same vertices.
	for i, n := range p.Balanced.Normals {
		if d := mesh.Dot(n, src.Normals[i]); d < 0.8 {
			t.Fatalf("vertex %d: normal %v, the field's %v", i, n, src.Normals[i])
		}
	}
	if n := p.Unbalanced.Len(); n > src.Len()/4 || n < src.Len()/5 {
		t.Fatalf("unbalanced set has %d triangles, want about %d", n, src.Len()/4)
	}
	// The sets lie in the unit box (half the longest side 1, centred),
	// and Frame maps that box back onto the source's.
	lo, hi, _ := src.Bounds()
	if wlo, whi := p.Frame.World(p.Lo), p.Frame.World(p.Hi); !near3(wlo, lo) || !near3(whi, hi) {
		t.Fatalf("bounds %v-%v map back to %v-%v, want %v-%v", p.Lo, p.Hi, wlo, whi, lo, hi)
	}
	if side := max(p.Hi[0]-p.Lo[0], p.Hi[1]-p.Lo[1], p.Hi[2]-p.Lo[2]); math.Abs(float64(side)-2) > 1e-6 {
		t.Fatalf("bounds %v-%v: longest side %v, want 2", p.Lo, p.Hi, side)
	}
	for a := 0; a < 3; a++ {
		if c := p.Lo[a] + p.Hi[a]; math.Abs(float64(c)) > 1e-6 {
			t.Fatalf("bounds %v-%v not centred on the origin", p.Lo, p.Hi)
		}
	}
	for _, err := range []error{
		func() error { _, err := FromMesh("empty", &mesh.Mesh{}, 4); return err }(),
		func() error {
			_, err := FromMesh("bad", &mesh.Mesh{Positions: [][3]float32{{0, 0, 0}}, Faces: [][3]uint32{{0, 0, 1}}}, 1)
			return err
		}(),
	} {
		if err == nil || !strings.HasPrefix(err.Error(), "dataset: ") {
			t.Errorf("bad mesh: %v", err)
		}
	}
}

func near3(a [3]float64, b [3]float32) bool {
	for i := range a {
		if math.Abs(a[i]-float64(b[i])) > 1e-5*(1+math.Abs(a[i])) {
			return false
		}
	}
	return true
}

// A unit cube far from the origin keeps its shape: positions reach the
// GPU relative to the box's centre, so float32 cancellation against the
// camera cannot quantize it.
func TestFromMeshFarFromOrigin(t *testing.T) {
	cube := func(off float32) *mesh.Mesh {
		m := &mesh.Mesh{Faces: [][3]uint32{{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4}, {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}}}
		for i := 0; i < 8; i++ {
			m.Positions = append(m.Positions, [3]float32{off + float32(i&1), off + float32(i>>1&1), off + float32(i>>2)})
		}
		return m
	}
	near, err := FromMesh("near", cube(0), 1)
	if err != nil {
		t.Fatal(err)
	}
	far, err := FromMesh("far", cube(1e7), 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range far.Balanced.Positions {
		if p != near.Balanced.Positions[i] {
			t.Fatalf("vertex %d: %v far from the origin, %v near it", i, p, near.Balanced.Positions[i])
		}
	}
	if w := far.Frame.World(far.Balanced.Positions[7]); w != [3]float64{1e7 + 1, 1e7 + 1, 1e7 + 1} {
		t.Fatalf("the far cube's corner maps back to %v", w)
	}
}
