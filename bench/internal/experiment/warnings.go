package experiment

import (
	"fmt"

	"github.com/dpgl/dpgl/rasterizer/mesh"
)

// DatasetWarnings are what the dataset makes of the experiment without an
// error: a balanced set every one of whose triangles has zero area (every
// image is blank), or an unbalanced set no smaller than the balanced one
// (the decimation left it as it was, so the two sets measure the same
// thing). The commands print each as a warning.
func (e *Experiment) DatasetWarnings(reduction int) []string {
	var out []string
	p := e.Pair
	if n := p.Balanced.Len(); n > 0 && zeroArea(p.Balanced) {
		out = append(out, fmt.Sprintf("every one of the %d triangles of %s has zero area: every image will be blank", n, p.Name))
	}
	if b, u := p.Balanced.Len(), p.Unbalanced.Len(); b > 0 && u >= b {
		out = append(out, fmt.Sprintf("the unbalanced set equals the balanced one (%d triangles): decimating to 1/%d of %d triangles left it as it was, so the two sets measure the same frames (a smaller -reduction, or a larger mesh, makes them differ)",
			u, reduction, b))
	}
	return out
}

// zeroArea reports whether every triangle of m has zero area: its edge
// vectors' cross product is 0 (collinear or coincident corners).
func zeroArea(m *mesh.Mesh) bool {
	for _, f := range m.Faces {
		a, b, c := m.Positions[f[0]], m.Positions[f[1]], m.Positions[f[2]]
		var u, v [3]float64
		for i := range 3 {
			u[i], v[i] = float64(b[i]-a[i]), float64(c[i]-a[i])
		}
		if u[1]*v[2]-u[2]*v[1] != 0 || u[2]*v[0]-u[0]*v[2] != 0 || u[0]*v[1]-u[1]*v[0] != 0 {
			return false
		}
	}
	return true
}
