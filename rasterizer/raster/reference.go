package raster

// NoPrimitive marks a pixel that no triangle covers in Visibility.Prim.
const NoPrimitive = ^uint32(0)

// Visibility is the z-buffer's result: for each pixel (row 0 at the bottom)
// the depth and primitive id of the nearest surface; ties in depth go to the
// lowest primitive id.
type Visibility struct {
	W, H  int
	Depth []uint32 // DepthMax where nothing is drawn
	Prim  []uint32 // NoPrimitive where nothing is drawn
}

// NewVisibility returns a cleared visibility buffer.
func NewVisibility(w, h int) *Visibility {
	v := &Visibility{W: w, H: h, Depth: make([]uint32, w*h), Prim: make([]uint32, w*h)}
	for i := range v.Depth {
		v.Depth[i], v.Prim[i] = DepthMax, NoPrimitive
	}
	return v
}

// Test keeps (depth, prim) at pixel i if it is nearer, or as near with a
// lower primitive id: the order of calls does not change the result.
func (v *Visibility) Test(i int, depth, prim uint32) {
	if depth < v.Depth[i] || depth == v.Depth[i] && prim < v.Prim[i] {
		v.Depth[i], v.Prim[i] = depth, prim
	}
}

// Rasterize is the CPU reference renderer: the original loops of the paper
// run sequentially (every scanline of every triangle, every pixel of every
// span) with the same fixed-point rules as the GPU. Pixels at the far plane
// (depth DepthMax) are not drawn, as the GPU's z-buffer starts there.
func Rasterize(tris []Triangle, w, h int) *Visibility {
	v := NewVisibility(w, h)
	for i := range tris {
		t := &tris[i]
		for y := t.YLo; y <= t.YHi; y++ {
			x0, x1, ok := t.Span(y, w)
			if !ok {
				continue
			}
			for x := x0; x <= x1; x++ {
				v.Test(int(y)*w+int(x), t.Depth(x, y), t.Prim)
			}
		}
	}
	return v
}
