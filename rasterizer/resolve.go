package rasterizer

import (
	"math"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/view"
)

// resolveStage runs shaders/rasterizer/resolve.comp.
type resolveStage struct {
	c    *gpu.Context
	prog *gpu.Program
}

func newResolveStage(c *gpu.Context) (*resolveStage, error) {
	p, err := c.Program("rasterizer/resolve.comp", nil)
	if err != nil {
		return nil, err
	}
	return &resolveStage{c: c, prog: p}, nil
}

func unorm(c uint8) float32 { return float32(c) / 255 }

// run shades every pixel of prims (one primitive id a pixel, bottom row
// first) into rgba (RGBA8 packed, R in the low byte), one pass per block of
// the mesh (each shades the pixels its triangles won, and every pass
// paints the background; one pass without a block when there is none).
// Must run on the GL thread.
func (s *resolveStage) run(blocks []*mesh.GPU, prims, rgba gpu.Array[uint32], cam view.Camera, mat Material, w, h int) {
	if len(blocks) == 0 {
		blocks = []*mesh.GPU{nil}
	}
	base := 0
	for _, b := range blocks {
		s.pass(b, base, prims, rgba, cam, mat, w, h)
		if b != nil {
			base += b.N
		}
	}
	s.c.Barrier(gpu.BarrierStorage)
}

// pass shades the pixels whose primitive lies in block b, whose first
// triangle has id base.
func (s *resolveStage) pass(b *mesh.GPU, base int, prims, rgba gpu.Array[uint32], cam view.Camera, mat Material, w, h int) {
	p := s.prog
	n := 0
	if b != nil {
		n = b.N
	}
	setShading(s.c, p, b, cam, mat)
	p.SetUint("primBase", uint32(base))
	p.SetUint("primCount", uint32(n))
	s.c.BindStorage(bindingPrims, prims)
	s.c.BindStorage(bindingImage, rgba)
	p.SetIvec2("size", int32(w), int32(h))
	p.DispatchInvocations2D(w, h)
}

// setShading binds block b's positions and normals (none for a nil b) and
// sets the uniforms of shaders/rasterizer/shade.glsl in p for camera cam
// and material mat, on the GL thread.
func setShading(c *gpu.Context, p *gpu.Program, b *mesh.GPU, cam view.Camera, mat Material) {
	if b != nil {
		c.BindStorage(bindingPositions, b.Positions)
		c.BindStorage(bindingNormals, b.Normals)
	} else {
		c.BindStorage(bindingPositions, nil)
		c.BindStorage(bindingNormals, nil)
	}
	nm := cam.View.Mat3().Inv().Transpose().Mat4()
	flat := int32(0)
	if mat.Shading == Flat {
		flat = 1
	}
	p.SetInt("flatShading", flat)
	// An orthographic projection leaves w = 1 whatever the depth: its
	// bottom row is (0, 0, 0, 1).
	ortho := int32(0)
	if pr := cam.Projection; pr[3] == 0 && pr[7] == 0 && pr[11] == 0 && pr[15] == 1 {
		ortho = 1
	}
	p.SetInt("orthographic", ortho)
	p.SetMat4("mvp", cam.MVP())
	p.SetMat4("modelView", [16]float32(cam.View))
	p.SetMat4("normalMatrix", [16]float32(nm))
	p.SetVec4("baseColor", unorm(mat.Base.R), unorm(mat.Base.G), unorm(mat.Base.B), 1)
	p.SetVec4("background", unorm(mat.Background.R), unorm(mat.Background.G), unorm(mat.Background.B), unorm(mat.Background.A))
	p.SetVec4("material", mat.Ambient, mat.Diffuse, mat.Specular, float32(math.Max(float64(mat.Shininess), 1)))
}

// resolve ends the frame: the visibility buffer cleared if no batch
// reached the z-buffer (an empty or invisible mesh), the 64-bit path's
// primitive ids extracted, and every pixel shaded; nothing when the tiled
// path's one batch shaded the frame as it drew (f.shaded).
func (f *frame) resolve(blocks []*mesh.GPU, cam view.Camera) {
	if f.shaded {
		return
	}
	r := f.r
	w, h := r.opts.Width, r.opts.Height
	if !f.cleared {
		f.timedGL(StageZPrepare, f.clear)
	}
	if r.vis64 {
		f.timedGL(StageExtract, func() {
			r.c.BindStorage(bindingVisibility, r.depth)
			r.c.BindStorage(bindingPrims, r.prims)
			r.prepare.run(extractPrims, w*h)
		})
	}
	f.timedGL(StageResolve, func() { r.resolve.run(blocks, r.prims, r.rgba, cam, r.opts.Material, w, h) })
	r.clock.read(&f.st.Stages)
}
