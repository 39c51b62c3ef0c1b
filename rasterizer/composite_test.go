package rasterizer

import (
	"fmt"
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer/raster"
)

// TestVisibilityComposite draws a soup in shares (1 to 5 renderers'
// worth, uneven), joins the shares' visibility words by elementwise
// minimum with their ids offset by the share's first triangle, and checks
// the result against the whole soup's frame and the CPU reference bit for
// bit, and that Resolve of it shades the whole frame's image: sort-last
// compositing as bench distributed does it over MPI.
func TestVisibilityComposite(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	const w, h = 72, 56
	r := gputest.Rand(t)
	soup := append(randomSoup(r, 300), sphereSoup(10, 20)...)
	tris := len(soup) / 3
	whole := uploadSoup(t, c, soup)
	cam := testViewCamera(w, h)
	mvp := cam.MVP()
	setup, _ := raster.SetupMesh(&mvp, soup, w, h)
	ref := raster.Rasterize(setup, w, h)
	forVisibilityPaths(t, c, func(vis32 bool, test testOptions) {
		o := DefaultOptions()
		o.Width, o.Height, o.Visibility32 = w, h, vis32
		o.ScanConversion, o.ZBuffer = quiet(o.ScanConversion), quiet(o.ZBuffer)
		rd, err := newRenderer(s, o, test)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(rd.Delete)
		if _, err := rd.Render(whole, cam); err != nil {
			t.Fatal(err)
		}
		want := rd.Visibility()
		wantPixels := rd.Pixels()
		for p, v := range want {
			if uint32(v) != ref.Prim[p] || (ref.Prim[p] != raster.NoPrimitive && uint32(v>>32) != ref.Depth[p]) {
				t.Fatalf("vis64 %v: whole frame's word %#x at pixel %d; CPU reference depth %#x id %#x", !vis32, v, p, ref.Depth[p], ref.Prim[p])
			}
			if ref.Prim[p] == raster.NoPrimitive && v != EmptyVisibility {
				t.Fatalf("vis64 %v: empty pixel %d has word %#x, want EmptyVisibility", !vis32, p, v)
			}
		}
		for shares := 1; shares <= 5; shares++ {
			name := fmt.Sprintf("vis64 %v, %d shares", !vis32, shares)
			acc := make([]uint64, w*h)
			for i := range acc {
				acc[i] = EmptyVisibility
			}
			for k := 0; k < shares; k++ {
				// Uneven shares: the k-th ends at (k+1)²/shares² of the soup.
				lo, hi := tris*k*k/(shares*shares), tris*(k+1)*(k+1)/(shares*shares)
				part := uploadSoup(t, c, soup[3*lo:3*hi])
				if _, err := rd.Render(part, cam); err != nil {
					t.Fatalf("%s: share %d: %v", name, k, err)
				}
				for p, v := range rd.Visibility() {
					if uint32(v) != raster.NoPrimitive {
						v += uint64(lo)
					}
					acc[p] = min(acc[p], v)
				}
			}
			for p := range acc {
				if acc[p] != want[p] {
					t.Fatalf("%s: pixel %d composited %#x, the whole frame %#x", name, p, acc[p], want[p])
				}
			}
			if err := rd.Resolve(whole, cam, acc); err != nil {
				t.Fatal(err)
			}
			for p, v := range rd.Pixels() {
				if v != wantPixels[p] {
					t.Fatalf("%s: resolved pixel %d is %#x, the whole frame's %#x", name, p, v, wantPixels[p])
				}
			}
		}
		if err := rd.Resolve(whole, cam, make([]uint64, w*h-1)); err == nil {
			t.Fatalf("vis64 %v: Resolve of one word too few: no error", !vis32)
		}
	})
}
