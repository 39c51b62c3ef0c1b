package rasterizer

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/scan"
)

func newScanner(t testing.TB, c *gpu.Context) *scan.Scanner {
	s, err := scan.New(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Delete)
	return s
}

// uploadSoup puts a soup on the GPU as it is (NaNs and degenerate
// triangles too, which mesh.Upload would refuse) with flat normals.
func uploadSoup(t *testing.T, c *gpu.Context, soup [][3]float32) *mesh.GPU {
	g, err := mesh.NewGPU(c, len(soup)/3)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Delete)
	nrm := make([]mesh.Vec4, len(soup))
	for i := 0; i+2 < len(soup); i += 3 {
		n := mesh.Normalize(mesh.Cross(mesh.Sub(soup[i+1], soup[i]), mesh.Sub(soup[i+2], soup[i])))
		for k := 0; k < 3; k++ {
			nrm[i+k] = mesh.Vec4{n[0], n[1], n[2], 0}
		}
	}
	g.Positions.Write(0, toVec4(soup))
	g.Normals.Write(0, nrm)
	g.N = len(soup) / 3
	return g
}

func testViewCamera(w, h int) view.Camera {
	return view.Camera{
		View:       mgl32.LookAtV(mgl32.Vec3{0.3, 0.2, 3}, mgl32.Vec3{0, 0, 0}, mgl32.Vec3{0, 1, 0}),
		Projection: mgl32.Perspective(mgl32.DegToRad(50), float32(w)/float32(h), 0.5, 20),
	}
}

// neverOptions are DefaultOptions for a w x h image with both loops
// under the paper's original policy (Never), quiet.
func neverOptions(w, h int) Options {
	o := DefaultOptions()
	o.Width, o.Height = w, h
	o.ScanConversion = quiet(balancer.Config{Policy: balancer.Never})
	o.ZBuffer = quiet(balancer.Config{Policy: balancer.Never})
	return o
}

func quiet(cfg balancer.Config) balancer.Config {
	cfg.Logf = func(string, ...any) {}
	if cfg.CostIterations == 0 {
		cfg.CostIterations = 8
	}
	return cfg
}

// forVisibilityPaths runs f on each visibility path c can run: the 32-bit
// one, then the one-pass 64-bit one. Where the driver lacks 64-bit atomics
// the 64-bit path's buffers, packing and id extraction still run, with a
// lock-based stand-in for 64-bit atomicMin (testOptions.emulateAtomic64 in
// the test options f is given for its renderers); where it has no 64-bit
// integers at all, the path is skipped and the test says so.
func forVisibilityPaths(tb testing.TB, c *gpu.Context, f func(vis32 bool, test testOptions)) {
	tb.Helper()
	for _, vis32 := range []bool{true, false} {
		if !vis32 && !c.Caps().Atomic64 {
			if !c.Caps().Int64 {
				tb.Logf("64-bit visibility: not tested, the driver (%s) has no 64-bit integers", c.Caps().Renderer)
				continue
			}
			tb.Logf("64-bit visibility: emulated, the driver (%s) lacks 64-bit atomics", c.Caps().Renderer)
		}
		f(vis32, testOptions{emulateAtomic64: !vis32 && !c.Caps().Atomic64})
	}
}

// visibilityPathName names the path forVisibilityPaths runs for vis32.
func visibilityPathName(c *gpu.Context, vis32 bool) string {
	switch {
	case vis32:
		return "32-bit"
	case c.Caps().Atomic64:
		return "64-bit"
	}
	return "64-bit-emulated"
}

// TestRenderMatchesCPUReference renders a random soup (large and tiny
// triangles, clipped ones, NaNs) under every policy and several Lanes: the
// primitive ids equal the CPU reference's bit for bit, and the images are
// identical across policies and lanes.
func TestRenderMatchesCPUReference(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	const w, h = 96, 80
	r := gputest.Rand(t)
	soup := append(randomSoup(r, 600), sphereSoup(12, 24)...)
	m := uploadSoup(t, c, soup)
	cam := testViewCamera(w, h)
	mvp := cam.MVP()
	tris, cst := raster.SetupMesh(&mvp, soup, w, h)
	ref := raster.Rasterize(tris, w, h)
	forVisibilityPaths(t, c, func(vis32 bool, test testOptions) {
		var firstImage []uint32
		for _, pol := range balancer.Policies {
			for _, lanes := range []int{0, 1, 13} {
				o := DefaultOptions()
				o.Width, o.Height, o.Visibility32 = w, h, vis32
				o.ScanConversion = quiet(balancer.Config{Policy: pol, Lanes: lanes})
				o.ZBuffer = quiet(balancer.Config{Policy: pol, Lanes: lanes})
				rd, st := renderedWith(t, s, o, test, m, cam)
				ranVisibility(t, rd, st)
				name := fmt.Sprintf("%s lanes %d %s", pol, lanes, st.Visibility)
				if rd.Visibility64() == vis32 {
					t.Fatalf("%s: Visibility64() = %v with Visibility32 %v", name, rd.Visibility64(), vis32)
				}
				if st.Setup != cst {
					t.Fatalf("%s: setup stats %+v, CPU %+v", name, st.Setup, cst)
				}
				got := rd.Prims()
				for i := range got {
					if got[i] != ref.Prim[i] {
						t.Fatalf("%s: pixel (%d,%d) has primitive %d, the CPU reference %d", name, i%w, i/w, got[i], ref.Prim[i])
					}
				}
				img := rd.Pixels()
				if firstImage == nil {
					firstImage = img
				} else {
					for i := range img {
						if img[i] != firstImage[i] {
							t.Fatalf("%s: pixel %d differs from the first policy's image", name, i)
						}
					}
				}
				if st.ScanConversion.Iterations == 0 || st.ZBuffer.Iterations == 0 || st.Total <= 0 {
					t.Fatalf("%s: stats %+v", name, st)
				}
				rd.Delete()
			}
		}
	})
}

// TestRenderDepthInDoubles: a batch whose set-up triangles all have an
// area2 below 2^28 takes the z-buffer's depths in doubles, one with a
// larger triangle in 64-bit integers, and both draw the CPU reference's
// depths and ids, bit for bit, on every visibility path.
func TestRenderDepthInDoubles(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	const w, h = 96, 80
	small := sphereSoup(16, 32)
	// A quad nearly filling the view, crossing the sphere: area2 far
	// above 2^28 (2048 pixels).
	large := append(append([][3]float32{}, small...), [3]float32{-1.5, -1.2, 0.3}, [3]float32{1.5, -1.2, -0.4}, [3]float32{1.5, 1.2, 0.2}, [3]float32{-1.5, -1.2, 0.3}, [3]float32{1.5, 1.2, 0.2}, [3]float32{-1.5, 1.2, -0.3})
	cam := testViewCamera(w, h)
	mvp := cam.MVP()
	forVisibilityPaths(t, c, func(vis32 bool, test testOptions) {
		for _, k := range []struct {
			name  string
			soup  [][3]float32
			exact bool
		}{{"small triangles", small, true}, {"a large triangle", large, false}} {
			tris, _ := raster.SetupMesh(&mvp, k.soup, w, h)
			ref := raster.Rasterize(tris, w, h)
			m := uploadSoup(t, c, k.soup)
			o := DefaultOptions()
			o.Width, o.Height, o.Visibility32 = w, h, vis32
			rd, st := renderedWith(t, s, o, test, m, cam)
			name := fmt.Sprintf("%s, %s", k.name, st.Visibility)
			if rd.lastExactDepth != k.exact {
				t.Errorf("%s: depths in doubles %v, want %v", name, rd.lastExactDepth, k.exact)
			}
			drawn := 0
			for p, v := range rd.Visibility() {
				want := uint64(ref.Depth[p])<<32 | uint64(ref.Prim[p])
				if v != want {
					t.Fatalf("%s: pixel (%d,%d) has visibility %#x, the CPU reference %#x", name, p%w, p/w, v, want)
				}
				if ref.Prim[p] != raster.NoPrimitive {
					drawn++
				}
			}
			if drawn < w*h/4 {
				t.Fatalf("%s: only %d pixels drawn", name, drawn)
			}
			rd.Delete()
		}
	})
}

func TestRenderHostileInput(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	soup := [][3]float32{
		{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, // a point
		{-1, -1, 0}, {1, 1, 0}, {0.5, 0.5, 0}, // collinear
		{nan, 0, 0}, {1, 0, 0}, {0, 1, 0},
		{0, inf, 0}, {1, 0, 0}, {0, 1, 0},
		{-1e6, -1e6, 0}, {1e6, -1e6, 0}, {0, 1e6, 0}, // far larger than the view
		{0, 0, 100}, {1, 0, 100}, {0, 1, 100}, // behind the eye
		{-3, -3, -1}, {3, -3, -1}, {0, 3, 6}, // across the near plane
	}
	m := uploadSoup(t, c, soup)
	for _, size := range [][2]int{{1, 1}, {3, 200}, {64, 64}} {
		o := DefaultOptions()
		o.Width, o.Height = size[0], size[1]
		o.ScanConversion, o.ZBuffer = quiet(o.ScanConversion), quiet(o.ZBuffer)
		rd, err := New(s, o)
		if err != nil {
			t.Fatal(err)
		}
		cam := testViewCamera(size[0], size[1])
		st, err := rd.Render(m, cam)
		if err != nil {
			t.Fatal(err)
		}
		if st.Setup.NonFinite != 2 || st.Setup.Outside != 1 || st.Setup.Input != 7 {
			t.Fatalf("%v: setup stats %+v", size, st.Setup)
		}
		mvp := cam.MVP()
		tris, _ := raster.SetupMesh(&mvp, soup, size[0], size[1])
		ref := raster.Rasterize(tris, size[0], size[1])
		got := rd.Prims()
		for i := range got {
			if got[i] != ref.Prim[i] {
				t.Fatalf("%v: pixel %d: %d, reference %d", size, i, got[i], ref.Prim[i])
			}
		}
		// The empty mesh draws the background; a nil mesh is an error,
		// not a blank picture.
		if _, err := rd.Render(nil, cam); err == nil || !strings.Contains(err.Error(), "rasterizer: Render: the mesh is nil") {
			t.Fatalf("Render(nil): %v", err)
		}
		empty := &mesh.GPU{Positions: m.Positions, Normals: m.Normals, N: 0}
		for _, mm := range []*mesh.GPU{empty} {
			if _, err := rd.Render(mm, cam); err != nil {
				t.Fatal(err)
			}
			for _, p := range rd.Prims() {
				if p != raster.NoPrimitive {
					t.Fatalf("%v: an empty mesh drew primitive %d", size, p)
				}
			}
			bg := DefaultMaterial.Background
			want := uint32(bg.R) | uint32(bg.G)<<8 | uint32(bg.B)<<16 | uint32(bg.A)<<24
			for _, px := range rd.Pixels() {
				if px != want {
					t.Fatalf("%v: empty frame pixel %08x, want the background %08x", size, px, want)
				}
			}
		}
		rd.Delete()
	}
	o := DefaultOptions()
	o.Width = 0
	if _, err := New(s, o); err == nil || !strings.Contains(err.Error(), "image size") {
		t.Fatalf("a 0-wide image: %v", err)
	}
}
