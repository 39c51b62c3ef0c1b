package workload

import (
	"testing"

	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// TestAgreesWithRenderer compares these counts with the renderer's exact
// fixed-point rules (package raster): scanlines per triangle must be equal
// but for a rare vertex that float32 rounds across a 1/32-pixel boundary,
// pixels within the fill rule's difference.
func TestAgreesWithRenderer(t *testing.T) {
	f := volume.Torus()
	m := isosurface.MarchingCubes(f.SampleCube(40), f.Iso)
	lo, hi, _ := m.Bounds()
	pos, _ := m.Soup()
	const w, h = 256, 192
	for _, v := range view.Paper() {
		mvp := v.Fit(lo, hi, w, h).MVP()
		mine, pixels := Workloads(pos, mvp, w, h)
		tris, _ := raster.SetupMesh(&mvp, pos, w, h)
		theirs := make([]int, len(mine))
		var rasterPixels int64
		for i := range tris {
			tr := &tris[i]
			theirs[tr.Prim] += tr.Rows()
			for y := tr.YLo; y <= tr.YHi; y++ {
				if x0, x1, ok := tr.Span(y, w); ok {
					rasterPixels += int64(x1 - x0 + 1)
				}
			}
		}
		var a, b, myPixels int64
		differ := 0
		for i := range mine {
			if d := int(mine[i]) - theirs[i]; d != 0 {
				differ++
				if d > 1 || d < -1 {
					t.Fatalf("%s: triangle %d has %d scanlines here, %d in raster", v.Name, i, mine[i], theirs[i])
				}
			}
			a += int64(mine[i])
			b += int64(theirs[i])
		}
		for _, p := range pixels {
			myPixels += int64(p)
		}
		if differ*1000 > len(mine) {
			t.Fatalf("%s: %d of %d triangles have other scanline counts than in raster", v.Name, differ, len(mine))
		}
		// Spans here include both edges' pixel centres; the fill rule gives
		// each shared edge to one side, so this count runs a little higher
		// (and snapping moves a few either way).
		if myPixels < rasterPixels-rasterPixels/50 || myPixels > rasterPixels+rasterPixels/10 {
			t.Fatalf("%s: %d pixels here, %d in raster", v.Name, myPixels, rasterPixels)
		}
		t.Logf("%s: scanlines %d vs %d (%d triangles differ), pixels %d vs %d", v.Name, a, b, differ, myPixels, rasterPixels)
	}
}
