package mesh

import (
	"fmt"
	"math"

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
// A mesh larger than one storage block (48 bytes a triangle: 2.8 million
// triangles in llvmpipe's 128 MiB) is a chain of blocks: Next holds the
// triangles after the first N, triangle i of Next being triangle N+i of
// the mesh, its primitive id in the renderer. Upload splits a mesh so;
// Len, Blocks, DownloadSoup and Delete walk the chain. The renderer draws
// every block; code that reads Positions directly sees the first block.
//
// Bounds tells where the triangles are without a download, when whoever
// filled the buffers said so (SetBounds): Upload does, with the mesh's
// exact box, and isosurface extraction with the volume's. A chain's box is
// the first block's, and holds every block's triangles.
type GPU struct {
	Positions *gpu.Buffer[Vec4]
	Normals   *gpu.Buffer[Vec4]
	N         int  // triangles in this block
	Next      *GPU // the next block, nil for the last (or only) one

	lo, hi [3]float32 // a box holding every position of the mesh's triangles, if boxed
	boxed  bool
}

// MaxBlockTriangles is the most triangles one block can hold on c: what
// fits the driver's storage-block limit at 48 bytes a triangle.
func MaxBlockTriangles(c *gpu.Context) int {
	return int(min(c.Caps().MaxSSBOSize/(3*16), math.MaxInt32/3))
}

// Len is the number of triangles in all blocks.
func (g *GPU) Len() int {
	n := 0
	for b := g; b != nil; b = b.Next {
		n += b.N
	}
	return n
}

// Blocks lists the chain's blocks in order (none for a nil mesh).
func (g *GPU) Blocks() []*GPU {
	var bs []*GPU
	for b := g; b != nil; b = b.Next {
		bs = append(bs, b)
	}
	return bs
}

// Bounds returns a box that holds every position of the mesh's triangles
// (every block's): the box SetBounds was given. ok is false when none was
// given or there are no triangles.
func (g *GPU) Bounds() (lo, hi [3]float32, ok bool) {
	return g.lo, g.hi, g.boxed && g.Len() > 0
}

// SetBounds records a box that holds every position of the mesh's
// triangles, for Bounds; whoever writes the buffers sets it again (or
// calls ClearBounds).
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
// (MaxBlockTriangles; Upload splits larger meshes into blocks).
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

// Upload copies m to new GPU buffers, in blocks of MaxBlockTriangles when
// it is larger than one. A mesh without normals gets ComputeNormals' (m
// itself is not changed).
func Upload(c *gpu.Context, m *Mesh) (*GPU, error) {
	return UploadBlocks(c, m, MaxBlockTriangles(c))
}

// UploadBlocks is Upload into a chain of blocks of at most blockTriangles
// triangles each (at least one block, empty for an empty mesh).
func UploadBlocks(c *gpu.Context, m *Mesh, blockTriangles int) (*GPU, error) {
	if blockTriangles < 1 || blockTriangles > MaxBlockTriangles(c) {
		panic(fmt.Sprintf("mesh: UploadBlocks: %d triangles a block, want 1..%d", blockTriangles, MaxBlockTriangles(c)))
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if m.Normals == nil {
		cp := *m
		cp.ComputeNormals()
		m = &cp
	}
	pos, nrm := m.Soup()
	var head, tail *GPU
	for first := 0; first == 0 || first < m.Len(); first += blockTriangles {
		n := min(blockTriangles, m.Len()-first)
		g, err := NewGPU(c, n)
		if err != nil {
			head.Delete()
			return nil, err
		}
		g.Positions.Write(0, widen(pos[3*first:3*(first+n)], 1))
		g.Normals.Write(0, widen(nrm[3*first:3*(first+n)], 0))
		g.N = n
		if head == nil {
			head = g
		} else {
			tail.Next = g
		}
		tail = g
	}
	if lo, hi, ok := m.Bounds(); ok {
		head.SetBounds(lo, hi)
	}
	return head, nil
}

func widen(v [][3]float32, w float32) []Vec4 {
	out := make([]Vec4, len(v))
	for i, p := range v {
		out[i] = Vec4{p[0], p[1], p[2], w}
	}
	return out
}

// Cap is the number of triangles the first block's buffers can hold.
func (g *GPU) Cap() int { return g.Positions.Len() / 3 }

// DownloadSoup copies the triangles of every block back as vertex lists
// (3 per triangle, in mesh order). It waits for the GPU.
func (g *GPU) DownloadSoup() (pos, nrm [][3]float32) {
	pos = make([][3]float32, 0, 3*g.Len())
	nrm = make([][3]float32, 0, 3*g.Len())
	for _, b := range g.Blocks() {
		p := make([]Vec4, 3*b.N)
		n := make([]Vec4, 3*b.N)
		b.Positions.Read(0, p)
		b.Normals.Read(0, n)
		for i := range p {
			pos = append(pos, [3]float32{p[i][0], p[i][1], p[i][2]})
			nrm = append(nrm, [3]float32{n[i][0], n[i][1], n[i][2]})
		}
	}
	return pos, nrm
}

// Download copies the triangles back as an indexed Mesh (FromSoup).
func (g *GPU) Download() *Mesh { return FromSoup(g.DownloadSoup()) }

// Delete frees the buffers of every block; a nil mesh is a no-op.
func (g *GPU) Delete() {
	for b := g; b != nil; b = b.Next {
		b.Positions.Delete()
		b.Normals.Delete()
	}
}
