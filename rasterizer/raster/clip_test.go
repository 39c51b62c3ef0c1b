package raster

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

func camera(w, h int, eye mgl32.Vec3) [16]float32 {
	p := mgl32.Perspective(mgl32.DegToRad(40), float32(w)/float32(h), 0.1, 100)
	v := mgl32.LookAtV(eye, mgl32.Vec3{0, 0, 0}, mgl32.Vec3{0, 1, 0})
	return p.Mul4(v)
}

func TestTransformMatchesMathgl(t *testing.T) {
	m := camera(64, 48, mgl32.Vec3{1, 2, 5})
	p := [3]float32{0.3, -0.2, 0.7}
	got := Transform(&m, p)
	want := mgl32.Mat4(m).Mul4x1(mgl32.Vec4{p[0], p[1], p[2], 1})
	for i := range got {
		if math.Abs(float64(got[i]-want[i])) > 1e-5 {
			t.Fatalf("Transform %v, mathgl %v", got, want)
		}
	}
}

// TestNearPlaneClipping: a quad reaching behind the camera is clipped, not
// dropped and not drawn inverted: it covers the bottom of the image, and the
// pixels it covers equal those of the same quad cut at the near plane in
// model space.
func TestNearPlaneClipping(t *testing.T) {
	const w, h = 64, 64
	// The eye 1 above a floor, looking along -z.
	m := [16]float32(mgl32.Perspective(mgl32.DegToRad(60), 1, 0.5, 50).Mul4(mgl32.LookAtV(mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 1, -1}, mgl32.Vec3{0, 1, 0})))
	// A floor from z=+10 (behind the eye) to z=-10 (in front), two triangles.
	floor := [][3]float32{{-5, 0, 10}, {5, 0, 10}, {5, 0, -10}, {-5, 0, 10}, {5, 0, -10}, {-5, 0, -10}}
	tris, st := SetupMesh(&m, floor, w, h)
	if st.Clipped != 2 || st.Outside != 0 || st.Output < 2 {
		t.Fatalf("stats %+v", st)
	}
	vis := Rasterize(tris, w, h)
	// The floor fills the bottom rows and nothing above the horizon (the
	// middle row, y = h/2).
	for x := 0; x < w; x++ {
		if vis.Prim[0*w+x] == NoPrimitive {
			t.Fatalf("bottom row pixel %d not covered", x)
		}
		if vis.Prim[(h-1)*w+x] != NoPrimitive {
			t.Fatalf("top row pixel %d covered: the floor was drawn inverted", x)
		}
	}
	// Nearer rows have smaller depth.
	if !(vis.Depth[0*w+w/2] < vis.Depth[(h/2-4)*w+w/2]) {
		t.Fatalf("depth does not grow towards the horizon: %d vs %d", vis.Depth[w/2], vis.Depth[(h/2-4)*w+w/2])
	}
}

func TestClipClassification(t *testing.T) {
	const w, h = 32, 32
	m := camera(w, h, mgl32.Vec3{0, 0, 5})
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	soup := [][3]float32{
		{-0.5, -0.5, 0}, {0.5, -0.5, 0}, {0, 0.5, 0}, // inside
		{50, 50, 0}, {51, 50, 0}, {50, 51, 0}, // outside to the right/top
		{0, 0, 10}, {1, 0, 10}, {0, 1, 10}, // behind the eye
		{0, 0, 0}, {nan, 0, 0}, {0, 1, 0}, // NaN
		{0, 0, 0}, {inf, 0, 0}, {0, 1, 0}, // Inf
		{0, 0, 0}, {0.5, 0.5, 0}, {1, 1, 0}, // collinear: zero area
		{-1000, -1000, 0}, {1000, -1000, 0}, {0, 1000, 0}, // far larger than the view: guard-band clipped
	}
	tris, st := SetupMesh(&m, soup, w, h)
	want := SetupStats{Input: 7, Outside: 2, NonFinite: 2, ZeroArea: 1, Clipped: 1}
	got := st
	got.Output = 0
	if got != want {
		t.Fatalf("stats %+v, want %+v", st, want)
	}
	vis := Rasterize(tris, w, h)
	for i, p := range vis.Prim {
		if p != 0 && p != 6 {
			t.Fatalf("pixel %d has primitive %d", i, p)
		}
	}
	for i := range vis.Prim {
		if vis.Prim[i] == NoPrimitive {
			t.Fatalf("pixel %d uncovered though triangle 6 covers the whole view", i)
		}
	}
}

// TestGuardBandKeepsCoordinatesBounded: random huge and near-degenerate
// triangles never produce vertices outside the guard band.
func TestGuardBandKeepsCoordinatesBounded(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, size := range [][2]int{{1, 1}, {512, 512}, {4096, 17}} {
		m := camera(size[0], size[1], mgl32.Vec3{0.1, 0.2, 3})
		var soup [][3]float32
		for i := 0; i < 3000; i++ {
			s := float32(math.Pow(10, r.Float64()*8-3))
			soup = append(soup, [3]float32{(r.Float32() - 0.5) * s, (r.Float32() - 0.5) * s, (r.Float32() - 0.5) * s})
		}
		tris, _ := SetupMesh(&m, soup, size[0], size[1])
		lim := int32(GuardPixels * One)
		for _, tr := range tris {
			for _, v := range tr.V {
				if v.X <= -lim || v.X >= lim || v.Y <= -lim || v.Y >= lim {
					t.Fatalf("%v: vertex %v outside the guard band", size, v)
				}
			}
		}
		Rasterize(tris, size[0], size[1]) // no panic, no overflow
	}
}
