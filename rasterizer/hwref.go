package rasterizer

import (
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
)

// HardwareRenderer draws a triangle soup with the GPU's own pipeline (vertex
// and fragment shaders, depth test, into a framebuffer), writing primitive
// ids: the reference that the compute renderer's visibility is compared
// with, and the baseline its speed is compared with.
type HardwareRenderer struct {
	c     *gpu.Context
	prog  *gpu.Program
	ids   *gpu.Texture
	depth *gpu.Texture
	fb    *gpu.Framebuffer
	timer *gpu.Timer
}

// NewHardwareRenderer makes the framebuffer for w x h images.
func NewHardwareRenderer(c *gpu.Context, w, h int) (*HardwareRenderer, error) {
	r := &HardwareRenderer{c: c}
	var err error
	if r.prog, err = c.GraphicsProgram("rasterizer/hwref.vert", "rasterizer/hwref.frag", nil); err != nil {
		return nil, err
	}
	if r.ids, err = gpu.NewTexture(c, w, h, gpu.R32UI); err != nil {
		return nil, err
	}
	if r.depth, err = gpu.NewTexture(c, w, h, gpu.Depth32F); err != nil {
		r.Delete()
		return nil, err
	}
	if r.fb, err = gpu.NewFramebuffer(c, r.depth, r.ids); err != nil {
		r.Delete()
		return nil, err
	}
	r.timer = c.NewTimer()
	return r, nil
}

// Render draws the first n triangles of pos with the column-major mvp and
// leaves the primitive ids in the framebuffer.
func (r *HardwareRenderer) Render(pos gpu.Array[mesh.Vec4], n int, mvp *[16]float32) {
	r.draw([]gpu.Array[mesh.Vec4]{pos}, []int{n}, mvp)
}

// RenderMesh draws every block of m (Render for a mesh of one block), the
// primitive ids counting on across blocks as the compute renderer's do.
func (r *HardwareRenderer) RenderMesh(m *mesh.GPU, mvp *[16]float32) {
	var pos []gpu.Array[mesh.Vec4]
	var ns []int
	for _, b := range m.Blocks() {
		pos = append(pos, b.Positions)
		ns = append(ns, b.N)
	}
	r.draw(pos, ns, mvp)
}

func (r *HardwareRenderer) draw(pos []gpu.Array[mesh.Vec4], ns []int, mvp *[16]float32) {
	r.fb.ClearColorUint(0, [4]uint32{raster.NoPrimitive})
	r.fb.ClearDepth(1)
	r.c.Do(func() {
		r.timer.Start()
		r.c.BindFramebuffer(r.fb)
		r.c.DepthTest(true)
		r.prog.SetMat4("mvp", *mvp)
		base := 0
		for i, p := range pos {
			if ns[i] == 0 {
				continue
			}
			r.c.BindStorage(bindingPositions, p)
			r.prog.SetUint("primBase", uint32(base))
			r.prog.DrawTriangles(0, 3*ns[i])
			base += ns[i]
		}
		r.c.DepthTest(false)
		r.c.BindFramebuffer(nil)
		r.timer.Stop()
	})
}

// Timer measures the last Render on the GPU.
func (r *HardwareRenderer) Timer() *gpu.Timer { return r.timer }

// Prims returns the primitive id of each pixel, bottom row first
// (raster.NoPrimitive where nothing was drawn).
func (r *HardwareRenderer) Prims() []uint32 { return r.ids.ReadUint32() }

// Delete frees the framebuffer, textures and timer.
func (r *HardwareRenderer) Delete() {
	r.fb.Delete()
	r.ids.Delete()
	r.depth.Delete()
	if r.timer != nil {
		r.timer.Delete()
	}
}

// AgreeFraction is the fraction of pixels covered in a or b whose
// primitive ids are equal.
func AgreeFraction(a, b []uint32) float64 {
	covered, same := 0, 0
	for i := range a {
		if a[i] == raster.NoPrimitive && b[i] == raster.NoPrimitive {
			continue
		}
		covered++
		if a[i] == b[i] {
			same++
		}
	}
	if covered == 0 {
		return 1
	}
	return float64(same) / float64(covered)
}
