package rasterizer

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/view"
)

// TestTiledCullingSameFrames draws the test scenes, whole and in batches,
// on the tiled path with the culling pass in every batch that may leave a
// triangle outside the view and with it in none: the images, the id and
// depth words and the setup statistics are the same, bit for bit. Some
// batches culled, and some of those left triangles out.
func TestTiledCullingSameFrames(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	const w, h = 96, 80
	plain := newTiledRenderer(t, s, w, h)
	culled := newTiledRenderer(t, s, w, h)
	ran, left := 0, 0
	forScenesInBatches(t, c, w, h, func(label string, m *mesh.GPU, cam view.Camera, batch int) {
		plain.batchTriangles, culled.batchTriangles = batch, batch
		plain.test.tiledCull = -1
		want, err := plain.Render(m, cam)
		if err != nil {
			t.Fatal(err)
		}
		if plain.tiled.culledLast {
			t.Fatalf("%s: the culling pass ran where it was off", label)
		}
		culled.test.tiledCull = 1
		got, err := culled.Render(m, cam)
		if err != nil {
			t.Fatal(err)
		}
		if culled.tiled.culledLast {
			ran++
			// Every triangle it leaves out lies wholly outside.
			if out := culled.tiled.culledOut; out > got.Setup.Outside {
				t.Fatalf("%s: the culling pass left out %d triangles, %d lie outside", label, out, got.Setup.Outside)
			} else if out > 0 {
				left++
			}
		}
		if got.Setup != want.Setup {
			t.Fatalf("%s: setup statistics %+v culling, %+v not", label, got.Setup, want.Setup)
		}
		sameFrame(t, culled, plain, w, label, "culling", "not")
	})
	if ran == 0 || left == 0 {
		t.Fatalf("the culling pass ran in %d frames and left triangles out in %d: the test checks nothing", ran, left)
	}
}

// TestTiledCullingChoice checks when the tiled setup culls: not in a
// mesh's first frame (nothing known of its view), then in every frame
// after one that left more than a quarter of a large batch's triangles
// outside the view, and never where the mesh's bounds lie within it or
// for a batch too small to pay for the pass; the frames are the same
// either way.
func TestTiledCullingChoice(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	const w, h = 64, 64
	r := gputest.Rand(t)
	// Tiny triangles in the unit cube, half of them moved far right of
	// every view that sees the cube.
	var soup [][3]float32
	for i := 0; i < 12000; i++ {
		p := [3]float32{r.Float32() - 0.5, r.Float32() - 0.5, r.Float32() - 0.5}
		if i%2 == 1 {
			p[0] += 40
		}
		soup = append(soup, p, [3]float32{p[0] + 0.01, p[1], p[2]}, [3]float32{p[0], p[1] + 0.01, p[2] + 0.01})
	}
	m := uploadSoup(t, c, soup)
	cam := testViewCamera(w, h)
	rd := newTiledRenderer(t, s, w, h)
	var first FrameStats
	for frame, want := range []bool{false, true, true} {
		st, err := rd.Render(m, cam)
		if err != nil {
			t.Fatal(err)
		}
		if rd.tiled.culledLast != want {
			t.Fatalf("frame %d: culled %v, want %v (%+v)", frame, rd.tiled.culledLast, want, st.Setup)
		}
		if frame == 0 {
			first = st
			if st.Setup.Outside != len(soup)/6 {
				t.Fatalf("%d triangles outside, want %d", st.Setup.Outside, len(soup)/6)
			}
			continue
		}
		if st.Setup != first.Setup {
			t.Fatalf("frame %d: setup statistics %+v, the first frame's %+v", frame, st.Setup, first.Setup)
		}
		if rd.tiled.culledOut != len(soup)/6 {
			t.Fatalf("frame %d: the culling pass left out %d triangles, not the %d outside", frame, rd.tiled.culledOut, len(soup)/6)
		}
	}
	pixels := rd.Pixels()
	// The inside half alone, its bounds known and within the view: the
	// last batch's count does not matter.
	var inside [][3]float32
	for i := 0; i < len(soup); i += 6 {
		inside = append(inside, soup[i:i+3]...)
	}
	in := uploadSoup(t, c, inside)
	in.SetBounds([3]float32{-0.5, -0.5, -0.5}, [3]float32{0.52, 0.52, 0.52})
	if _, err := rd.Render(m, cam); err != nil {
		t.Fatal(err)
	}
	if _, err := rd.Render(in, cam); err != nil {
		t.Fatal(err)
	}
	if rd.tiled.culledLast {
		t.Fatal("culled a mesh whose bounds lie within the view")
	}
	samePixels(t, rd.Pixels(), pixels, w, "the inside half", "the whole soup")
	// A small batch does not pay for the compaction's passes.
	rd.batchTriangles = 500
	for frame := 0; frame < 2; frame++ {
		if _, err := rd.Render(m, cam); err != nil {
			t.Fatal(err)
		}
		if rd.tiled.culledLast {
			t.Fatalf("frame %d: culled a batch of %d triangles", frame, rd.batchTriangles)
		}
	}
	samePixels(t, rd.Pixels(), pixels, w, "batches of 500", "one batch")
}

// TestBoundsInView checks the corners' test that lets the tiled setup
// skip the culling pass: a box well inside the view holds, one that
// reaches past a side, the near or far plane or behind the eye does not,
// nor do unknown or non-finite bounds.
func TestBoundsInView(t *testing.T) {
	cam := view.Camera{
		View:       mgl32.LookAtV(mgl32.Vec3{0, 0, 5}, mgl32.Vec3{}, mgl32.Vec3{0, 1, 0}),
		Projection: mgl32.Perspective(mgl32.DegToRad(60), 1, 1, 10),
	}
	box := func(lo, hi [3]float32) []*mesh.GPU {
		g := &mesh.GPU{N: 1}
		g.SetBounds(lo, hi)
		return []*mesh.GPU{g}
	}
	f := float32(math.Inf(1))
	for _, c := range []struct {
		name   string
		blocks []*mesh.GPU
		want   bool
	}{
		{"unit box at the centre", box([3]float32{-0.5, -0.5, -0.5}, [3]float32{0.5, 0.5, 0.5}), true},
		{"past the right side", box([3]float32{-0.5, -0.5, -0.5}, [3]float32{4, 0.5, 0.5}), false},
		{"wholly right of the view", box([3]float32{30, -0.5, -0.5}, [3]float32{31, 0.5, 0.5}), false},
		{"through the near plane", box([3]float32{-0.1, -0.1, -0.5}, [3]float32{0.1, 0.1, 4.5}), false},
		{"behind the eye", box([3]float32{-0.1, -0.1, 6}, [3]float32{0.1, 0.1, 7}), false},
		{"past the far plane", box([3]float32{-0.1, -0.1, -8}, [3]float32{0.1, 0.1, 0}), false},
		{"infinite", box([3]float32{-0.5, -0.5, -0.5}, [3]float32{f, 0.5, 0.5}), false},
		{"unknown bounds", []*mesh.GPU{{N: 1}}, false},
		{"no blocks", nil, false},
	} {
		if got := boundsInView(c.blocks, cam); got != c.want {
			t.Errorf("%s: boundsInView %v, want %v", c.name, got, c.want)
		}
	}
}
