package rasterizer

import (
	"fmt"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/view"
)

// TestResolveShadesBox: the loops' resolve pass shades only the box the
// mesh's bounds project to where setup finds every set-up triangle within
// it, and paints the rest by a fill (and the 32-bit path merges only the
// box's keys); the visibility and the pixels are those of a merge and a
// resolve of the whole image, bit for bit, on every visibility path. A mesh whose
// bounds are wrong (a box that misses most triangles), a camera inside the
// box, and a mesh without bounds shade the whole image.
func TestResolveShadesBox(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	const w, h = 96, 80
	sphere := mesh.FromSoup(sphereSoup(16, 32), nil)
	lo, hi, _ := sphere.Bounds()
	// From further away: the sphere a small part of the image.
	far := view.Camera{View: mgl32.LookAtV(mgl32.Vec3{1, 2, 6}, mgl32.Vec3{0, 0, 0}, mgl32.Vec3{0, 1, 0}), Projection: mgl32.Perspective(mgl32.DegToRad(40), float32(w)/float32(h), 0.5, 20)}
	inside := view.Camera{View: mgl32.LookAtV(mgl32.Vec3{0.1, 0.2, 0.3}, mgl32.Vec3{0, 0, -1}, mgl32.Vec3{0, 1, 0}), Projection: mgl32.Perspective(mgl32.DegToRad(60), float32(w)/float32(h), 0.01, 100)}
	forVisibilityPaths(t, c, func(vis32 bool, test testOptions) {
		for _, k := range []struct {
			name   string
			cam    view.Camera
			bounds func(g *mesh.GPU)
			box    bool // the box is smaller than the image
		}{
			{"fitted", view.Paper()[1].Fit(lo, hi, w, h), nil, true},
			{"far", far, nil, true},
			{"wrong bounds", view.Paper()[1].Fit(lo, hi, w, h), func(g *mesh.GPU) { g.SetBounds([3]float32{-0.1, -0.1, -0.1}, [3]float32{0.1, 0.1, 0.1}) }, false},
			{"no bounds", view.Paper()[1].Fit(lo, hi, w, h), func(g *mesh.GPU) { g.ClearBounds() }, false},
			{"eye inside", inside, nil, false},
		} {
			g, err := mesh.Upload(c, sphere)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(g.Delete)
			if k.bounds != nil {
				k.bounds(g)
			}
			o := DefaultOptions()
			o.Width, o.Height, o.Visibility32 = w, h, vis32
			var img [2][]uint32
			var vis [2][]uint64
			var box [2][4]int
			for i, whole := range []bool{false, true} {
				test.resolveWholeImage = whole
				rd, st := renderedWith(t, s, o, test, g, k.cam)
				img[i], vis[i], box[i] = rd.Pixels(), rd.Visibility(), rd.lastBox
				if st.Setup.Output == 0 {
					t.Fatalf("%s: nothing set up", k.name)
				}
				rd.Delete()
			}
			name := fmt.Sprintf("%s, 32-bit %v", k.name, vis32)
			if smaller := box[0] != [4]int{0, 0, w, h}; smaller != k.box {
				t.Errorf("%s: shaded box %v, want a smaller one than the image: %v", name, box[0], k.box)
			}
			if box[1] != [4]int{0, 0, w, h} {
				t.Fatalf("%s: testOptions.resolveWholeImage shaded %v", name, box[1])
			}
			for p := range vis[0] {
				if vis[0][p] != vis[1][p] {
					t.Fatalf("%s: pixel (%d,%d) has visibility %#x, merging the whole image %#x (box %v)", name, p%w, p/w, vis[0][p], vis[1][p], box[0])
				}
			}
			samePixels(t, img[0], img[1], w, fmt.Sprintf("%s (box %v)", name, box[0]), "shading the whole image")
		}
	})
}
