package isosurface

import (
	"fmt"
	"math"

	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// MarchingCubes is the CPU reference extraction: the isosurface of v at iso
// separating samples > iso (inside) from samples <= iso (outside), as an
// indexed mesh with one vertex per crossed grid edge, so neighbouring cells
// share vertices exactly. Faces come in cell order (x fastest, then y, then
// z) and, within a cell, in the case table's order, the order in which the
// GPU extraction writes them. Faces are wound counter-clockwise seen from
// outside and the vertex normals, −∇f interpolated along the edge and
// normalized, point outside.
//
// A volume with a dimension of 1, or an isovalue no sample crosses, gives an
// empty mesh. Where the field leaves the grid inside (the surface is cut by
// the grid's faces) the mesh is open there; elsewhere it is closed. A cell
// with a corner that is NaN or ±Inf (volume.Finite) makes no triangles: the
// surface is open along a mask of NaNs.
//
// MarchingCubes is the reference; Extract is the same extraction with its
// Stats and the checks a program serving users needs.
func MarchingCubes(v *volume.Volume, iso float32) *mesh.Mesh {
	m, _, _ := marchingCubes(v, iso, math.MaxInt, 0, 0, max(v.Dims[2]-1, 0))
	return m
}

// Stats counts the cells of one extraction.
type Stats struct {
	Cells     int // grid cells
	NonFinite int // cells skipped, making no triangles, for a corner that is NaN or ±Inf
	Triangles int
}

// BytesPerTriangle is what a triangle of an extracted surface is taken to
// cost in host memory on its way to the screen, for the memory limit:
// measured, about 130 bytes in the indexed mesh as it grows and 1.2 KB at
// Decimate's peak (the perforator at 300^3: 615,200 triangles, 750 MB), so
// that a surface the rest of the pipeline cannot hold fails here, early.
const BytesPerTriangle = 1536

// Extract is MarchingCubes with its Stats, computed on all CPUs (slabs of
// cell layers on GOMAXPROCS goroutines, stitched into the same mesh,
// vertex for vertex and face for face), returning an error instead of a
// mesh when iso is not finite, when no sample of v is finite (an error that
// names the volume, not the isovalue), or when the surface grows past the
// memory limit (volume.MemoryLimit, at BytesPerTriangle a triangle): the
// mesh is checked as it grows, so that a noisy volume fails before it takes
// the machine's memory.
func Extract(v *volume.Volume, iso float32) (*mesh.Mesh, Stats, error) {
	if !volume.Finite(iso) {
		return nil, Stats{}, fmt.Errorf("isosurface: isovalue %v is not a finite number", iso)
	}
	if err := v.Validate(); err != nil {
		return nil, Stats{}, fmt.Errorf("isosurface: %w", err)
	}
	if _, _, err := v.FiniteRange(); err != nil {
		return nil, Stats{}, fmt.Errorf("isosurface: %w", err)
	}
	maxFaces := int(volume.MemoryLimit() / BytesPerTriangle)
	m, st, ok := extractParallel(v, iso, maxFaces, 0, 0, max(v.Dims[2]-1, 0), workers())
	if !ok {
		return nil, st, fmt.Errorf("isosurface: the surface of the %dx%dx%d volume at %v has more than %d triangles, more than the memory limit of %s holds",
			v.Dims[0], v.Dims[1], v.Dims[2], iso, maxFaces, volume.FormatBytes(volume.MemoryLimit()))
	}
	return m, st, nil
}

// marchingCubes extracts v's cell layers z in [z0, z1) (v's own indices),
// placing the vertices as if v's layer 0 were layer first of a larger
// volume (ExtractLayers); it stops with ok false when the mesh would pass
// maxFaces.
func marchingCubes(v *volume.Volume, iso float32, maxFaces, first, z0, z1 int) (m *mesh.Mesh, st Stats, ok bool) {
	m = &mesh.Mesh{Positions: [][3]float32{}, Normals: [][3]float32{}, Faces: [][3]uint32{}}
	nx, ny, nz := v.Dims[0], v.Dims[1], v.Dims[2]
	st.Cells = max(nx-1, 0) * max(ny-1, 0) * max(z1-z0, 0)
	if nx < 2 || ny < 2 || nz < 2 || z0 >= z1 {
		return m, st, true
	}
	// Vertex ids of the edges leaving each sample of two z layers
	// (ids[layer][3*(x+nx*y)+axis]), -1 until made: the surface's vertices
	// are shared by up to four cells, and each is computed once.
	layer := [2][]int32{make([]int32, 3*nx*ny), make([]int32, 3*nx*ny)}
	for i := range layer {
		for j := range layer[i] {
			layer[i][j] = -1
		}
	}
	vertex := func(x, y, z, axis int) uint32 {
		ids := layer[z&1]
		slot := 3*(x+nx*y) + axis
		if id := ids[slot]; id >= 0 {
			return uint32(id)
		}
		p, n := edgeVertex(v, iso, x, y, z, axis, first)
		id := int32(len(m.Positions))
		m.Positions = append(m.Positions, p)
		m.Normals = append(m.Normals, n)
		ids[slot] = id
		return uint32(id)
	}
	var corner [8]float32
	for z := z0; z < z1; z++ {
		// Layer z+1 is reused from z-1: forget its ids.
		for j := range layer[(z+1)&1] {
			layer[(z+1)&1][j] = -1
		}
		for y := 0; y < ny-1; y++ {
			for x := 0; x < nx-1; x++ {
				cs, finite := 0, true
				for c := 0; c < 8; c++ {
					corner[c] = v.At(x+c&1, y+c>>1&1, z+c>>2&1)
					if corner[c] > iso {
						cs |= 1 << c
					}
					finite = finite && volume.Finite(corner[c])
				}
				if !finite {
					st.NonFinite++
					continue
				}
				t := caseTriangles[cs]
				if len(m.Faces)+len(t)/3 > maxFaces {
					return nil, st, false
				}
				for i := 0; i < len(t); i += 3 {
					var f [3]uint32
					for k := 0; k < 3; k++ {
						e := int(t[i+k])
						lo := edgeCorners[e][0]
						f[k] = vertex(x+lo&1, y+lo>>1&1, z+lo>>2&1, e/4)
					}
					m.Faces = append(m.Faces, f)
				}
			}
		}
	}
	st.Triangles = len(m.Faces)
	return m, st, true
}

// edgeVertex is the surface's crossing of the grid edge from sample
// (x, y, z) one step along axis: the position by linear interpolation and
// the outward unit normal. shaders/isosurface/mc.glsl computes the same
// expressions in the same order. v's layer 0 is layer first of the
// volume the position is placed in (0 but for ExtractLayers).
func edgeVertex(v *volume.Volume, iso float32, x, y, z, axis, first int) (p, n [3]float32) {
	b := [3]int{x, y, z}
	b[axis]++
	fa, fb := v.At(x, y, z), v.At(b[0], b[1], b[2])
	// Halved before the differences, which therefore stay finite for any
	// finite samples (±3e38 included): t is in [0, 1], never Inf/Inf.
	t := (iso/2 - fa/2) / (fb/2 - fa/2)
	idx := [3]float32{float32(x), float32(y), float32(z + first)}
	idx[axis] += t
	for a := 0; a < 3; a++ {
		p[a] = v.Origin[a] + idx[a]*v.Spacing[a]
	}
	ga, gb := v.Gradient(x, y, z), v.Gradient(b[0], b[1], b[2])
	var g [3]float32
	for a := 0; a < 3; a++ {
		g[a] = ga[a] + t*(gb[a]-ga[a])
	}
	// Divided by its largest component first, so that the squares neither
	// underflow nor overflow float32 when the spacing is extreme (a pixdim
	// of 1e30 makes gradients of 1e-30).
	s := max(abs32(g[0]), abs32(g[1]), abs32(g[2]))
	if s > 0 && volume.Finite(s) {
		g = [3]float32{g[0] / s, g[1] / s, g[2] / s}
	}
	l := float32(math.Sqrt(float64(g[0]*g[0] + g[1]*g[1] + g[2]*g[2])))
	if !(l > 0) || !volume.Finite(l) {
		// A flat or non-finite gradient: the edge's own direction, from the
		// inside sample to the outside one, is the best normal there is.
		if fb > fa {
			n[axis] = -1
		} else {
			n[axis] = 1
		}
		return p, n
	}
	return p, [3]float32{-g[0] / l, -g[1] / l, -g[2] / l}
}

func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }
