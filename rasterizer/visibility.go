package rasterizer

import (
	"fmt"

	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
)

// EmptyVisibility is the visibility word of a pixel nothing covers: the
// cleared depth (2^24−1) above raster.NoPrimitive. Every drawn word is
// smaller, so it is the identity of a minimum.
const EmptyVisibility = uint64(1<<24-1)<<32 | uint64(raster.NoPrimitive)

// Visibility reads the last frame's visibility word of every pixel, bottom
// row first: the 24-bit depth in the high 32 bits, the primitive id in the
// low 32 (EmptyVisibility where nothing is drawn). The nearest surface, ties
// to the lowest id, is the smallest word, so the visibility of triangles
// drawn apart (by several renderers, with their ids made distinct) is
// their elementwise minimum: sort-last compositing. The 32-bit scheme's two
// buffers are joined here on the host.
func (r *Renderer) Visibility() []uint64 {
	n := r.opts.Width * r.opts.Height
	words := make([]uint64, n)
	d := r.depth.Download()
	if r.vis64 {
		// uint64 words on the GPU: word 2p is the low (id), 2p+1 the high.
		for p := range words {
			words[p] = uint64(d[2*p+1])<<32 | uint64(d[2*p])
		}
		return words
	}
	ids := r.prims.Download()
	for p := range words {
		words[p] = uint64(d[p])<<32 | uint64(ids[p])
	}
	return words
}

// Resolve shades visibility words vis (one a pixel, as Visibility gives
// them, e.g. composited from several renderers) with the triangles of m
// as cam sees them: Render's last stage alone. Image, Pixels and Prims then
// read the result. The primitive ids of vis index m's triangles.
func (r *Renderer) Resolve(m *mesh.GPU, cam view.Camera, vis []uint64) error {
	w, h := r.opts.Width, r.opts.Height
	if len(vis) != w*h {
		return fmt.Errorf("rasterizer: Resolve: %d visibility words for a %dx%d image", len(vis), w, h)
	}
	ids := make([]uint32, len(vis))
	for p, v := range vis {
		ids[p] = uint32(v)
	}
	r.prims.Write(0, ids)
	// Shaded from the vertices: no frame stored records of vis's triangles.
	var err error
	r.c.Do(func() {
		err = r.resolve.run(m.Blocks(), r.prims, r.rgba, cam, r.opts.Material, w, h, nil, [4]int{0, 0, w, h}, nil)
	})
	return err
}
