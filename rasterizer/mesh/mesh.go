package mesh

import (
	"fmt"
	"math"
)

// Mesh is an indexed triangle mesh on the host. Faces are wound
// counter-clockwise seen from outside (the side the normals point to), so
// (p1−p0)×(p2−p0) points outward.
type Mesh struct {
	Positions [][3]float32
	Normals   [][3]float32 // unit vertex normals, one per position; nil when absent
	Faces     [][3]uint32
}

// Len is the number of triangles.
func (m *Mesh) Len() int { return len(m.Faces) }

// Validate reports the first inconsistency: a face index out of range,
// a normal count that differs from the position count, or a non-finite
// coordinate.
func (m *Mesh) Validate() error {
	if m.Normals != nil && len(m.Normals) != len(m.Positions) {
		return fmt.Errorf("mesh: %d normals for %d positions", len(m.Normals), len(m.Positions))
	}
	for i, p := range m.Positions {
		if !finite3(p) {
			return fmt.Errorf("mesh: position %d is %v", i, p)
		}
	}
	for i, n := range m.Normals {
		if !finite3(n) {
			return fmt.Errorf("mesh: normal %d is %v", i, n)
		}
	}
	for i, f := range m.Faces {
		for _, v := range f {
			if int(v) >= len(m.Positions) {
				return fmt.Errorf("mesh: face %d uses vertex %d of %d", i, v, len(m.Positions))
			}
		}
	}
	return nil
}

func finite3(v [3]float32) bool {
	for _, c := range v {
		if math.IsNaN(float64(c)) || math.IsInf(float64(c), 0) {
			return false
		}
	}
	return true
}

// Bounds is the bounding box of the vertices that faces use; ok is false
// for a mesh without faces.
func (m *Mesh) Bounds() (lo, hi [3]float32, ok bool) {
	lo = [3]float32{float32(math.Inf(1)), float32(math.Inf(1)), float32(math.Inf(1))}
	hi = [3]float32{float32(math.Inf(-1)), float32(math.Inf(-1)), float32(math.Inf(-1))}
	for _, f := range m.Faces {
		for _, v := range f {
			p := m.Positions[v]
			for a := 0; a < 3; a++ {
				lo[a] = min(lo[a], p[a])
				hi[a] = max(hi[a], p[a])
			}
		}
	}
	return lo, hi, len(m.Faces) > 0
}

// Soup returns the triangles as unindexed vertex lists, vertex k of
// triangle i at 3i+k: the order of the GPU buffers and of
// raster.SetupMesh. nrm is nil when the mesh has no normals.
func (m *Mesh) Soup() (pos, nrm [][3]float32) {
	pos = make([][3]float32, 3*len(m.Faces))
	if m.Normals != nil {
		nrm = make([][3]float32, 3*len(m.Faces))
	}
	for i, f := range m.Faces {
		for k, v := range f {
			pos[3*i+k] = m.Positions[v]
			if nrm != nil {
				nrm[3*i+k] = m.Normals[v]
			}
		}
	}
	return pos, nrm
}

// FromSoup indexes a triangle soup (3 vertices per triangle; nrm nil or of
// the same length), merging vertices with bit-identical position and
// normal, so that Soup gives back exactly pos and nrm.
func FromSoup(pos, nrm [][3]float32) *Mesh {
	if len(pos)%3 != 0 {
		panic(fmt.Sprintf("mesh: FromSoup: %d positions is not a multiple of 3", len(pos)))
	}
	if nrm != nil && len(nrm) != len(pos) {
		panic(fmt.Sprintf("mesh: FromSoup: %d normals for %d positions", len(nrm), len(pos)))
	}
	type key [6]uint32
	ids := make(map[key]uint32, len(pos)/2)
	m := &Mesh{Faces: make([][3]uint32, len(pos)/3)}
	for i, p := range pos {
		var k key
		var n [3]float32
		if nrm != nil {
			n = nrm[i]
		}
		for a := 0; a < 3; a++ {
			k[a], k[3+a] = math.Float32bits(p[a]), math.Float32bits(n[a])
		}
		id, ok := ids[k]
		if !ok {
			id = uint32(len(m.Positions))
			ids[k] = id
			m.Positions = append(m.Positions, p)
			if nrm != nil {
				m.Normals = append(m.Normals, n)
			}
		}
		m.Faces[i/3][i%3] = id
	}
	return m
}

// FaceNormal is the unit normal of face i by the right-hand rule, or zero
// for a degenerate face.
func (m *Mesh) FaceNormal(i int) [3]float32 {
	f := m.Faces[i]
	return Normalize(Cross(Sub(m.Positions[f[1]], m.Positions[f[0]]), Sub(m.Positions[f[2]], m.Positions[f[0]])))
}

// ComputeNormals sets area-weighted vertex normals from the faces, for
// meshes without them.
func (m *Mesh) ComputeNormals() {
	acc := make([][3]float64, len(m.Positions))
	for _, f := range m.Faces {
		n := Cross(Sub(m.Positions[f[1]], m.Positions[f[0]]), Sub(m.Positions[f[2]], m.Positions[f[0]]))
		for _, v := range f {
			for a := 0; a < 3; a++ {
				acc[v][a] += float64(n[a])
			}
		}
	}
	m.Normals = make([][3]float32, len(m.Positions))
	for i, n := range acc {
		l := math.Sqrt(n[0]*n[0] + n[1]*n[1] + n[2]*n[2])
		if l > 0 {
			m.Normals[i] = [3]float32{float32(n[0] / l), float32(n[1] / l), float32(n[2] / l)}
		}
	}
}

// Sub is a−b.
func Sub(a, b [3]float32) [3]float32 { return [3]float32{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// Cross is a×b.
func Cross(a, b [3]float32) [3]float32 {
	return [3]float32{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// Dot is a·b.
func Dot(a, b [3]float32) float32 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// Normalize is a/|a|, or zero for a zero vector.
func Normalize(a [3]float32) [3]float32 {
	l := float32(math.Sqrt(float64(Dot(a, a))))
	if l == 0 {
		return [3]float32{}
	}
	return [3]float32{a[0] / l, a[1] / l, a[2] / l}
}
