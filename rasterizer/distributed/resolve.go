package distributed

import (
	"fmt"

	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
)

// Piece is a piece of a rank's share on its GPU: its triangles and the
// global id of the first.
type Piece struct {
	Mesh  *mesh.GPU
	First uint32
}

// notMine is the id a pixel of another rank's triangle gets for a piece's
// resolve: not NoPrimitive (that would paint the background) and past any
// piece's triangles, so the resolve pass leaves the pixel alone.
const notMine = uint64(raster.NoPrimitive - 1)

// ResolveShare is the resolve pass distributed: it shades into dst (one
// RGBA8 word a pixel, as rasterizer.Renderer.Pixels) the pixels of the
// composited words vis whose triangle lies in one of pieces, from the
// pieces' own triangles, and sets every other pixel to 0, but for the
// pixels nothing covers, which get the background when background is
// set (at one rank). Each pixel then has one rank that shades it; a
// shaded pixel is never 0 (its alpha byte is 255), so the bitwise OR of
// the ranks' dst (ReduceOr) is the image one renderer resolving the whole
// mesh makes, bit for bit, and no rank needs another's triangles.
func ResolveShare(r *rasterizer.Renderer, cam view.Camera, vis []uint64, pieces []Piece, background bool, dst []uint32) error {
	if len(dst) != len(vis) {
		panic(fmt.Sprintf("distributed: ResolveShare: dst of %d pixels for %d words", len(dst), len(vis)))
	}
	bg := uint32(0)
	if background {
		bg = rasterizer.PackRGBA(r.Options().Material.Background)
	}
	for i, v := range vis {
		dst[i] = 0
		if uint32(v) == raster.NoPrimitive {
			dst[i] = bg
		}
	}
	local := make([]uint64, len(vis))
	for _, p := range pieces {
		n := uint32(p.Mesh.Len())
		hit := false
		for i, v := range vis {
			id := uint32(v)
			switch {
			case id == raster.NoPrimitive:
				local[i] = uint64(raster.NoPrimitive)
			case id >= p.First && id-p.First < n:
				local[i], hit = uint64(id-p.First), true
			default:
				local[i] = notMine
			}
		}
		if !hit {
			continue
		}
		if err := r.Resolve(p.Mesh, cam, local); err != nil {
			return err
		}
		px := r.Pixels()
		for i, v := range local {
			if v != notMine && uint32(v) != raster.NoPrimitive {
				dst[i] = px[i]
			}
		}
	}
	return nil
}
