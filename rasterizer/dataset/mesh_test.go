package dataset

import (
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
	if lo, hi, _ := src.Bounds(); p.Lo != lo || p.Hi != hi {
		t.Fatalf("bounds %v-%v, want %v-%v", p.Lo, p.Hi, lo, hi)
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
