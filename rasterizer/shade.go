package rasterizer

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
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

// PackRGBA is colour c as a packed RGBA8 pixel of Pixels and ImageBuffer,
// R in the low byte (shade.glsl's packUnorm4x8 of its components over
// 255); ToImage unpacks them.
func PackRGBA(c color.RGBA) uint32 {
	return uint32(c.R) | uint32(c.G)<<8 | uint32(c.B)<<16 | uint32(c.A)<<24
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
