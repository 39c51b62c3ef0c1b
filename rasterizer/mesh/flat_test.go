package mesh

import (
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
)

// cube is the unit cube with its 8 corners shared by 12 triangles wound
// outward, so that ComputeNormals averages three faces at each corner.
func cube() *Mesh {
	m := &Mesh{}
	for i := 0; i < 8; i++ {
		m.Positions = append(m.Positions, [3]float32{float32(i & 1), float32(i >> 1 & 1), float32(i >> 2)})
	}
	for _, q := range [][4]uint32{{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}} {
		m.Faces = append(m.Faces, [3]uint32{q[0], q[1], q[2]}, [3]uint32{q[0], q[2], q[3]})
	}
	return m
}

func TestSetFaceNormals(t *testing.T) {
	c := gputest.Context(t)
	m := cube()
	g, err := Upload(c, m) // vertex normals: the corners' diagonals
	if err != nil {
		t.Fatal(err)
	}
	defer g.Delete()
	SetFaceNormals(g)
	pos, nrm := g.DownloadSoup()
	for i := 0; i < m.Len(); i++ {
		// The axis the face is normal to is the one on which its three
		// corners agree; the normal points away from the cube's centre.
		var want [3]float32
		for a := 0; a < 3; a++ {
			if v := pos[3*i][a]; v == pos[3*i+1][a] && v == pos[3*i+2][a] {
				want[a] = 2*v - 1
			}
		}
		for k := 0; k < 3; k++ {
			if nrm[3*i+k] != want {
				t.Fatalf("triangle %d vertex %d: normal %v, want %v", i, k, nrm[3*i+k], want)
			}
		}
	}
	e, _ := NewGPU(c, 4) // N = 0: nothing to read
	defer e.Delete()
	SetFaceNormals(e)
}
