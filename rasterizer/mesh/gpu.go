package mesh

import (
	"fmt"

	"github.com/dpgl/dpgl/gpu"
)

// Vec4 mirrors a GLSL vec4 (16 bytes, std430).
type Vec4 [4]float32

// GPU is a triangle soup in two GPU storage buffers, the form in which
// isosurface extraction leaves its output and the renderer reads it:
//
//	layout(std430) readonly buffer Positions { vec4 position[]; }; // w = 1
//	layout(std430) readonly buffer Normals   { vec4 normal[];   }; // w = 0, unit xyz
//
// Vertex k (0, 1, 2) of triangle i is element 3i+k of each buffer;
// triangles are wound counter-clockwise seen from outside, and the normals
// point outside. The buffers may hold more triangles than N (their
// capacity, Cap); elements past 3N are undefined. Positions and normals
// live apart so that the transform and scan-conversion stages, which read
// only positions, touch half the memory; vec4 rather than vec3 because
// std430 pads vec3 arrays to 16 bytes anyway and vec4 loads are single
// instructions.
//
// Bounds tells where the triangles are without a download, when whoever
// filled the buffers said so (SetBounds): Upload does, with the mesh's
// exact box, and isosurface extraction with the volume's.
type GPU struct {
	Positions *gpu.Buffer[Vec4]
	Normals   *gpu.Buffer[Vec4]
	N         int // triangles

	lo, hi [3]float32 // a box holding every position of the N triangles, if boxed
	boxed  bool
}

// Bounds returns a box that holds every position of the N triangles: the
// box SetBounds was given. ok is false when none was given or N is 0.
func (g *GPU) Bounds() (lo, hi [3]float32, ok bool) {
	return g.lo, g.hi, g.boxed && g.N > 0
}

// SetBounds records a box that holds every position of the N triangles,
// for Bounds; whoever writes the buffers sets it again (or calls
// ClearBounds).
func (g *GPU) SetBounds(lo, hi [3]float32) {
	for a := 0; a < 3; a++ {
		if !(lo[a] <= hi[a]) {
			panic(fmt.Sprintf("mesh: GPU.SetBounds: lo %v is not below hi %v", lo, hi))
		}
	}
	g.lo, g.hi, g.boxed = lo, hi, true
}

// ClearBounds forgets the box: Bounds then reports none.
func (g *GPU) ClearBounds() { g.boxed = false }

// NewGPU allocates buffers for up to capacity triangles, with N = 0. It
// returns an error when they exceed the driver's storage-block limit
// (2.8 million triangles on llvmpipe).
func NewGPU(c *gpu.Context, capacity int) (*GPU, error) {
	if capacity < 0 {
		panic(fmt.Sprintf("mesh: NewGPU: negative capacity %d", capacity))
	}
	p, err := gpu.NewBuffer[Vec4](c, 3*capacity)
	if err != nil {
		return nil, fmt.Errorf("mesh: NewGPU: %d triangles: %w", capacity, err)
	}
	n, err := gpu.NewBuffer[Vec4](c, 3*capacity)
	if err != nil {
		p.Delete()
		return nil, fmt.Errorf("mesh: NewGPU: %d triangles: %w", capacity, err)
	}
	return &GPU{Positions: p, Normals: n}, nil
}

// Upload copies m to new GPU buffers. A mesh without normals gets
// ComputeNormals' (m itself is not changed).
func Upload(c *gpu.Context, m *Mesh) (*GPU, error) {
	if err := m.Validate(); err != nil {
		panic("mesh: Upload: " + err.Error())
	}
	if m.Normals == nil {
		cp := *m
		cp.ComputeNormals()
		m = &cp
	}
	g, err := NewGPU(c, m.Len())
	if err != nil {
		return nil, err
	}
	pos, nrm := m.Soup()
	g.Positions.Write(0, widen(pos, 1))
	g.Normals.Write(0, widen(nrm, 0))
	g.N = m.Len()
	if lo, hi, ok := m.Bounds(); ok {
		g.SetBounds(lo, hi)
	}
	return g, nil
}

func widen(v [][3]float32, w float32) []Vec4 {
	out := make([]Vec4, len(v))
	for i, p := range v {
		out[i] = Vec4{p[0], p[1], p[2], w}
	}
	return out
}

// Cap is the number of triangles the buffers can hold.
func (g *GPU) Cap() int { return g.Positions.Len() / 3 }

// DownloadSoup copies the N triangles back as vertex lists (3 per
// triangle, in buffer order). It waits for the GPU.
func (g *GPU) DownloadSoup() (pos, nrm [][3]float32) {
	p := make([]Vec4, 3*g.N)
	n := make([]Vec4, 3*g.N)
	g.Positions.Read(0, p)
	g.Normals.Read(0, n)
	pos = make([][3]float32, len(p))
	nrm = make([][3]float32, len(n))
	for i := range p {
		pos[i] = [3]float32{p[i][0], p[i][1], p[i][2]}
		nrm[i] = [3]float32{n[i][0], n[i][1], n[i][2]}
	}
	return pos, nrm
}

// Download copies the N triangles back as an indexed Mesh (FromSoup).
func (g *GPU) Download() *Mesh { return FromSoup(g.DownloadSoup()) }

// Delete frees both buffers.
func (g *GPU) Delete() {
	g.Positions.Delete()
	g.Normals.Delete()
}
