package mesh

import "math"

// SetFaceNormals gives every vertex of g's N triangles its triangle's
// unit normal, (p1−p0)×(p2−p0) normalized, computed in float64: flat
// shading, under which a cube shows six flat faces instead of the blob
// that vertex normals averaged over its corners make. A triangle of zero
// area keeps its normals. It reads the positions back and waits for the GPU.
func SetFaceNormals(g *GPU) {
	if g.N == 0 {
		return
	}
	p := make([]Vec4, 3*g.N)
	n := make([]Vec4, 3*g.N)
	g.Positions.Read(0, p)
	g.Normals.Read(0, n)
	for i := 0; i < g.N; i++ {
		a, b, c := p[3*i], p[3*i+1], p[3*i+2]
		var u, v [3]float64
		for k := 0; k < 3; k++ {
			u[k], v[k] = float64(b[k])-float64(a[k]), float64(c[k])-float64(a[k])
		}
		x := [3]float64{u[1]*v[2] - u[2]*v[1], u[2]*v[0] - u[0]*v[2], u[0]*v[1] - u[1]*v[0]}
		l := math.Sqrt(x[0]*x[0] + x[1]*x[1] + x[2]*x[2])
		if l == 0 || math.IsInf(l, 0) || math.IsNaN(l) {
			continue
		}
		f := Vec4{float32(x[0] / l), float32(x[1] / l), float32(x[2] / l), 0}
		n[3*i], n[3*i+1], n[3*i+2] = f, f, f
	}
	g.Normals.Write(0, n)
}
