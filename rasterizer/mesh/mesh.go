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
// for a degenerate face. It is computed in float64, so that any finite
// float32 coordinates give a finite normal.
func (m *Mesh) FaceNormal(i int) [3]float32 {
	return unit64(m.faceCross(i))
}

// faceCross is (p1−p0)×(p2−p0) of face i in float64: twice its area along
// its normal. Its components stay below 2^256, where float32's squares
// would overflow past 1.8e19.
func (m *Mesh) faceCross(i int) [3]float64 {
	f := m.Faces[i]
	p0, p1, p2 := m.Positions[f[0]], m.Positions[f[1]], m.Positions[f[2]]
	var u, v [3]float64
	for a := 0; a < 3; a++ {
		u[a], v[a] = float64(p1[a])-float64(p0[a]), float64(p2[a])-float64(p0[a])
	}
	return [3]float64{u[1]*v[2] - u[2]*v[1], u[2]*v[0] - u[0]*v[2], u[0]*v[1] - u[1]*v[0]}
}

// unit64 is n/|n| in float32, or zero for a zero vector; n is scaled by its
// largest component first, so that neither its squares overflow nor tiny
// ones underflow.
func unit64(n [3]float64) [3]float32 {
	m := max(math.Abs(n[0]), math.Abs(n[1]), math.Abs(n[2]))
	if !(m > 0) || math.IsInf(m, 0) {
		return [3]float32{}
	}
	x, y, z := n[0]/m, n[1]/m, n[2]/m
	l := math.Sqrt(x*x + y*y + z*z)
	return [3]float32{float32(x / l), float32(y / l), float32(z / l)}
}

// ComputeNormals sets area-weighted vertex normals from the faces, for
// meshes without them, in float64 (FaceNormal).
func (m *Mesh) ComputeNormals() {
	acc := make([][3]float64, len(m.Positions))
	for i, f := range m.Faces {
		n := m.faceCross(i)
		for _, v := range f {
			for a := 0; a < 3; a++ {
				acc[v][a] += n[a]
			}
		}
	}
	m.Normals = make([][3]float32, len(m.Positions))
	for i, n := range acc {
		m.Normals[i] = unit64(n)
	}
}

// Frame maps a mesh's coordinates back to those it was given in: world =
// Center + Scale·p, in float64. ToUnitBox returns it.
type Frame struct {
	Center [3]float64
	Scale  float64
}

// World is the world position of p.
func (f Frame) World(p [3]float32) [3]float64 {
	return [3]float64{f.Center[0] + f.Scale*float64(p[0]), f.Center[1] + f.Scale*float64(p[1]), f.Center[2] + f.Scale*float64(p[2])}
}

// ToUnitBox moves and scales the positions, in float64, so that the
// bounding box of all of them is centred on the origin with half its
// longest side 1, and returns the Frame that maps them back. Loaders call
// it so that coordinates of any finite size (1e20, 1e-20, far from the
// origin) reach the float32 camera and GPU arithmetic in a range where
// nothing overflows and little precision is lost. Normals keep their
// directions (the map is a translation and a uniform scale). A mesh
// without positions, or whose positions all coincide, is only moved
// (Scale 1). The positions must be finite (Validate).
func (m *Mesh) ToUnitBox() Frame {
	if len(m.Positions) == 0 {
		return Frame{Scale: 1}
	}
	lo := [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi := [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for _, p := range m.Positions {
		for a := 0; a < 3; a++ {
			lo[a] = min(lo[a], float64(p[a]))
			hi[a] = max(hi[a], float64(p[a]))
		}
	}
	f := Frame{Scale: max(hi[0]-lo[0], hi[1]-lo[1], hi[2]-lo[2]) / 2}
	for a := 0; a < 3; a++ {
		f.Center[a] = lo[a] + (hi[a]-lo[a])/2
	}
	if !(f.Scale > 0) || math.IsInf(f.Scale, 0) {
		f.Scale = 1
	}
	for i, p := range m.Positions {
		for a := 0; a < 3; a++ {
			m.Positions[i][a] = float32((float64(p[a]) - f.Center[a]) / f.Scale)
		}
	}
	return f
}

// Sub is a−b.
func Sub(a, b [3]float32) [3]float32 { return [3]float32{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// Cross is a×b.
func Cross(a, b [3]float32) [3]float32 {
	return [3]float32{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// Dot is a·b.
func Dot(a, b [3]float32) float32 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// Normalize is a/|a|, or zero for a zero vector, computed in float64
// after scaling by the largest component, so that vectors of any finite
// size (a gradient of 1e-30, an edge of 1e20) give a unit vector.
func Normalize(a [3]float32) [3]float32 {
	return unit64([3]float64{float64(a[0]), float64(a[1]), float64(a[2])})
}
