package mesh

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
)

// TestUploadBlocks: a mesh uploaded in blocks of 3 triangles comes back
// whole and in order, with Len and Blocks counting every block.
func TestUploadBlocks(t *testing.T) {
	c := gputest.Context(t)
	var soup [][3]float32
	for i := 0; i < 3*10; i++ {
		soup = append(soup, [3]float32{float32(i), float32(i * i % 7), float32(i % 3)})
	}
	m := FromSoup(soup, nil)
	for _, block := range []int{1, 3, 10, 11} {
		g, err := UploadBlocks(c, m, block)
		if err != nil {
			t.Fatal(err)
		}
		if g.Len() != 10 || len(g.Blocks()) != (10+block-1)/block || g.N != min(block, 10) {
			t.Fatalf("blocks of %d: Len %d, %d blocks, first N %d", block, g.Len(), len(g.Blocks()), g.N)
		}
		pos, _ := g.DownloadSoup()
		want, _ := m.Soup()
		if !slices.Equal(pos, want) {
			t.Fatalf("blocks of %d: the soup came back as %v, want %v", block, pos, want)
		}
		g.Delete()
	}
	empty, err := Upload(c, &Mesh{})
	if err != nil || empty.Len() != 0 || len(empty.Blocks()) != 1 {
		t.Fatalf("an empty mesh: %v, %v", empty, err)
	}
	empty.Delete()
	bad := &Mesh{Positions: [][3]float32{{float32(math.NaN()), 0, 0}}, Faces: [][3]uint32{{0, 0, 0}}}
	if _, err := Upload(c, bad); err == nil || !strings.Contains(err.Error(), "position 0") {
		t.Fatalf("a NaN position: %v", err)
	}
}

// TestNormalsHugeCoordinates: normals of a mesh at 1e20 and at 1e-20 are
// those of the same mesh at unit size (float32 squares would overflow or
// underflow), and ToUnitBox brings both back to the unit mesh.
func TestNormalsHugeCoordinates(t *testing.T) {
	unit := FromSoup([][3]float32{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 0}, {0, 1, 0}, {0, 0.5, 1}}, nil)
	unit.ComputeNormals()
	for _, s := range []float32{1e20, 1e-20, 3e37} {
		m := FromSoup([][3]float32{{0, 0, 0}, {s, 0, 0}, {0, s, 0}, {0, 0, 0}, {0, s, 0}, {0, 0.5 * s, s}}, nil)
		m.ComputeNormals()
		for i, n := range m.Normals {
			for a := 0; a < 3; a++ {
				if math.Abs(float64(n[a]-unit.Normals[i][a])) > 1e-6 {
					t.Fatalf("scale %g: normal %d is %v, at unit size %v", s, i, n, unit.Normals[i])
				}
			}
		}
		if n := m.FaceNormal(1); math.Abs(float64(n[0]-1)) > 1e-6 {
			t.Fatalf("scale %g: face normal %v", s, n)
		}
		f := m.ToUnitBox()
		if f.Scale != float64(s)/2 {
			t.Fatalf("scale %g: frame %+v", s, f)
		}
		for i, p := range m.Positions {
			w := f.World(p)
			for a := 0; a < 3; a++ {
				if p[a] < -1 || p[a] > 1 || math.Abs(w[a]-float64(unit.Positions[i][a])*float64(s)) > 1e-6*float64(s) {
					t.Fatalf("scale %g: position %d normalized to %v, back to %v", s, i, p, w)
				}
			}
		}
	}
}
