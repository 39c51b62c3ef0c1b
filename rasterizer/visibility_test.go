package rasterizer

import (
	"fmt"
	"testing"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer/raster"
)

// TestVisibilityUnderContention draws 160 triangles that each cover most
// of a small image, in pairs of identical copies (equal depths: the lower
// id must win) at random depths, so that every pixel sees 160 depth tests
// at once: the visibility paths (the 64-bit one emulated where the driver
// lacks 64-bit atomics) must keep the CPU reference's winner at every
// pixel under every policy.
func TestVisibilityUnderContention(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	const w, h = 40, 32
	r := gputest.Rand(t)
	var soup [][3]float32
	for i := 0; i < 80; i++ {
		z := float32(r.Float64()*4 - 2)
		tri := [][3]float32{{-3 + r.Float32(), -3, z}, {3, -3 + r.Float32(), z + r.Float32() - 0.5}, {0, 3, z + r.Float32() - 0.5}}
		soup = append(soup, tri...)
		soup = append(soup, tri...)
	}
	m := uploadSoup(t, c, soup)
	cam := testViewCamera(w, h)
	mvp := cam.MVP()
	tris, _ := raster.SetupMesh(&mvp, soup, w, h)
	ref := raster.Rasterize(tris, w, h)
	forVisibilityPaths(t, c, func(vis32 bool, test testOptions) {
		for _, pol := range balancer.Policies {
			for _, lanes := range []int{0, 7, -1} {
				// -1: the 32-bit path's two-pass fallback (no keys fit).
				fallback := lanes < 0
				if fallback && !vis32 {
					continue
				}
				lanes = max(lanes, 0)
				o := DefaultOptions()
				o.Width, o.Height, o.Visibility32 = w, h, vis32
				o.ScanConversion = quiet(balancer.Config{Policy: pol, Lanes: lanes})
				o.ZBuffer = quiet(balancer.Config{Policy: pol, Lanes: lanes})
				rd, err := newRenderer(s, o, test)
				if err != nil {
					t.Fatal(err)
				}
				if fallback {
					rd.maxKeyWords = 1
				}
				st, err := rd.Render(m, cam)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%s lanes %d %s", pol, lanes, st.Visibility)
				if st.Pixels < int64(100*w*h) {
					t.Fatalf("%s: %d depth tests, want over %d", name, st.Pixels, 100*w*h)
				}
				for i, p := range rd.Prims() {
					if p != ref.Prim[i] {
						t.Fatalf("%s: pixel (%d,%d) has primitive %d, the CPU reference %d", name, i%w, i/w, p, ref.Prim[i])
					}
				}
				rd.Delete()
			}
		}
	})
}
