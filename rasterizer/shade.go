package rasterizer

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/view"
)

// Shading says which normal lights a pixel.
type Shading int

const (
	// Smooth interpolates the vertex normals across each triangle
	// (perspective-correct): curved surfaces look curved.
	Smooth Shading = iota
	// Flat lights each triangle with its own face normal,
	// (p1−p0)×(p2−p0): the facets show, and a cube's faces each take one
	// shade instead of the blob that normals averaged over its corners
	// make. The vertex normals are not read.
	Flat
)

func (s Shading) String() string {
	switch s {
	case Smooth:
		return "smooth"
	case Flat:
		return "flat"
	}
	return fmt.Sprintf("Shading(%d)", int(s))
}

// Material is the surface's look under the head light.
type Material struct {
	Base       color.RGBA // diffuse colour
	Background color.RGBA // where no surface is drawn
	Ambient    float32
	Diffuse    float32
	Specular   float32
	Shininess  float32
	Shading    Shading // Smooth (the zero value) or Flat
}

// DefaultMaterial is a light bone colour on a dark blue-grey background.
var DefaultMaterial = Material{
	Base:       color.RGBA{R: 222, G: 200, B: 160, A: 255},
	Background: color.RGBA{R: 24, G: 28, B: 36, A: 255},
	Ambient:    0.12,
	Diffuse:    0.78,
	Specular:   0.25,
	Shininess:  32,
}

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
	nm := cam.View.Mat3().Inv().Transpose().Mat4()
	n := 0
	if b != nil {
		s.c.BindStorage(0, b.Positions)
		s.c.BindStorage(1, b.Normals)
		n = b.N
	} else {
		s.c.BindStorage(0, nil)
		s.c.BindStorage(1, nil)
	}
	p.SetUint("primBase", uint32(base))
	p.SetUint("primCount", uint32(n))
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
	s.c.BindStorage(2, prims)
	s.c.BindStorage(3, rgba)
	p.SetMat4("mvp", cam.MVP())
	p.SetMat4("modelView", [16]float32(cam.View))
	p.SetMat4("normalMatrix", [16]float32(nm))
	p.SetIvec2("size", int32(w), int32(h))
	p.SetVec4("baseColor", unorm(mat.Base.R), unorm(mat.Base.G), unorm(mat.Base.B), 1)
	p.SetVec4("background", unorm(mat.Background.R), unorm(mat.Background.G), unorm(mat.Background.B), unorm(mat.Background.A))
	p.SetVec4("material", mat.Ambient, mat.Diffuse, mat.Specular, float32(math.Max(float64(mat.Shininess), 1)))
	p.DispatchInvocations2D(w, h)
}

// ToImage converts packed RGBA8 pixels, bottom row first, to an image with
// the top row first.
func ToImage(rgba []uint32, w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		row := rgba[(h-1-y)*w : (h-y)*w]
		for x, v := range row {
			o := img.PixOffset(x, y)
			img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = uint8(v), uint8(v>>8), uint8(v>>16), uint8(v>>24)
		}
	}
	return img
}

// WritePNG encodes img as PNG.
func WritePNG(w io.Writer, img image.Image) error { return png.Encode(w, img) }
