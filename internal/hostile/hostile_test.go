package hostile

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/balancer/sssp"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// TestWellFormedCasesRead: the files that must draw are what they claim
// to be, read by the libraries' own readers; so a refusal of a damaged
// twin is the damage's doing, not the encoder's.
func TestWellFormedCasesRead(t *testing.T) {
	var ascii *mesh.Mesh
	for _, c := range Cases() {
		if !c.Draws() {
			continue
		}
		switch c.Kind {
		case NIfTI:
			v, _, err := volume.ReadNIfTI(bytes.NewReader(c.Data))
			if err != nil {
				t.Errorf("%s: %v", c.Name, err)
				continue
			}
			if v.Dims != [3]int{12, 10, 11} {
				t.Errorf("%s: dims %v", c.Name, v.Dims)
			}
		case PLY:
			m, err := mesh.ReadPLY(bytes.NewReader(c.Data))
			if err != nil {
				t.Errorf("%s: %v", c.Name, err)
				continue
			}
			if m.Len() != 12 {
				t.Errorf("%s: %d triangles, want a cube's 12", c.Name, m.Len())
			}
			if c.Name == "cube" {
				ascii = m
			} else if strings.HasPrefix(c.Name, "cube-binary") {
				for i := range m.Positions {
					if m.Positions[i] != ascii.Positions[i] {
						t.Errorf("%s: vertex %d is %v, the ASCII file's %v", c.Name, i, m.Positions[i], ascii.Positions[i])
					}
				}
			}
		case DIMACS:
			if _, err := sssp.ReadDIMACS(bytes.NewReader(c.Data), c.Name); err != nil {
				t.Errorf("%s: %v", c.Name, err)
			}
		}
	}
}
