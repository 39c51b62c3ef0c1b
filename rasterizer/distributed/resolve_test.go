package distributed

import (
	"fmt"
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
	"github.com/dpgl/dpgl/scan"
)

// TestResolveShare: 1 to 4 ranks' pieces of the perforator's surface
// (pieces of 1, 37 and 500 triangles) are drawn, composited by minimum
// and resolved each by its rank alone; the OR of the ranks' pixels is the
// whole mesh's frame bit for bit at the paper's four views, and a rank
// leaves 0 where it shaded nothing.
func TestResolveShare(t *testing.T) {
	c := gputest.Context(t)
	sc, err := scan.New(c)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Delete()
	const w, h = 80, 64
	o := rasterizer.DefaultOptions()
	o.Width, o.Height = w, h
	quiet := func(string, ...any) {}
	o.ScanConversion.Logf, o.ZBuffer.Logf = quiet, quiet
	r, err := rasterizer.New(sc, o)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Delete()
	f := volume.PerforatorJet()
	m := isosurface.MarchingCubes(f.SampleCube(14), f.Iso)
	whole, err := mesh.Upload(c, m)
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Delete()
	lo, hi, _ := m.Bounds()
	for _, v := range view.Paper() {
		cam := v.Fit(lo, hi, w, h)
		if _, err := r.Render(whole, cam); err != nil {
			t.Fatal(err)
		}
		want, wantPix := r.Visibility(), r.Pixels()
		for ranks := 1; ranks <= 4; ranks++ {
			for _, slab := range []int{1, 37, 500} {
				if slab == 1 && (ranks != 3 || v.Name != "(0,0)") {
					continue // a piece a triangle: slow on llvmpipe; once
				}
				name := fmt.Sprintf("%s, %d ranks, slabs of %d", v.Name, ranks, slab)
				b := Partition(m.Len(), ranks)
				pieces := make([][]Piece, ranks)
				comp := make([]uint64, w*h)
				for i := range comp {
					comp[i] = rasterizer.EmptyVisibility
				}
				for k := 0; k < ranks; k++ {
					for _, p := range Pieces(b[k], b[k+1], slab) {
						g, err := mesh.Upload(c, &mesh.Mesh{Positions: m.Positions, Normals: m.Normals, Faces: m.Faces[p[0]:p[1]]})
						if err != nil {
							t.Fatal(err)
						}
						defer g.Delete()
						if _, err := r.Render(g, cam); err != nil {
							t.Fatal(err)
						}
						words := r.Visibility()
						Globalize(words, uint32(p[0]))
						for i, x := range words {
							comp[i] = min(comp[i], x)
						}
						pieces[k] = append(pieces[k], Piece{Mesh: g, First: uint32(p[0])})
					}
				}
				for i := range comp {
					if comp[i] != want[i] {
						t.Fatalf("%s: composited word %#x at pixel %d, want %#x", name, comp[i], i, want[i])
					}
				}
				got := make([]uint32, w*h)
				for k := 0; k < ranks; k++ {
					dst := make([]uint32, w*h)
					if err := ResolveShare(r, cam, comp, pieces[k], k == 0, dst); err != nil {
						t.Fatal(err)
					}
					for i, px := range dst {
						id := uint32(comp[i])
						mine := id != raster.NoPrimitive && int(id) >= b[k] && int(id) < b[k+1]
						if (k == 0 && id == raster.NoPrimitive) || mine {
							if px == 0 {
								t.Fatalf("%s: rank %d left its pixel %d (id %#x) 0", name, k, i, id)
							}
						} else if px != 0 {
							t.Fatalf("%s: rank %d wrote %#x to pixel %d of triangle %d, not its own", name, k, px, i, id)
						}
						got[i] |= px
					}
				}
				for i := range got {
					if got[i] != wantPix[i] {
						t.Fatalf("%s: pixel %d is %#x, one renderer's %#x", name, i, got[i], wantPix[i])
					}
				}
			}
		}
	}
}
