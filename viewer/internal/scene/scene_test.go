package scene

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/dataset"
	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
	"github.com/dpgl/dpgl/scan"
)

func quiet(string, ...any) {}

// smallPair is a torus at 20^3: a few thousand triangles, a hole to see
// through, and a surface that changes shape with the isovalue.
func smallPair() *dataset.Pair { return dataset.FromField(volume.Torus(), 20, 5) }

func testOptions(w, h int) Options {
	return Options{Width: w, Height: h, Path: Path{Policy: balancer.CostEffective}, ScanCost: 8, ZBufferCost: 8, Logf: quiet}
}

// reference renders m with a renderer of its own: what the scene's image
// must equal.
func reference(t *testing.T, c *gpu.Context, m *mesh.Mesh, cam view.Camera, w, h int) []uint32 {
	t.Helper()
	return shadedReference(t, c, m, cam, w, h, false)
}

// shadedReference is reference with vertex normals or, flat, face normals.
func shadedReference(t *testing.T, c *gpu.Context, m *mesh.Mesh, cam view.Camera, w, h int, flat bool) []uint32 {
	t.Helper()
	s, err := scan.New(c)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Delete()
	o := rasterizer.DefaultOptions()
	o.Width, o.Height = w, h
	o.ScanConversion.Logf, o.ZBuffer.Logf = quiet, quiet
	o.ScanConversion.CostIterations, o.ZBuffer.CostIterations = 8, 8
	if flat {
		o.Material.Shading = rasterizer.Flat
	}
	r, err := rasterizer.New(s, o)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Delete()
	g, err := mesh.Upload(c, m)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Delete()
	if _, err := r.Render(g, cam); err != nil {
		t.Fatal(err)
	}
	return r.Pixels()
}

func sameImage(t *testing.T, what string, got, want []uint32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d pixels, want %d", what, len(got), len(want))
	}
	differ := 0
	for i := range got {
		if got[i] != want[i] {
			differ++
		}
	}
	if differ > 0 {
		t.Fatalf("%s: %d of %d pixels differ from the reference renderer's", what, differ, len(got))
	}
	covered := 0
	for _, v := range want {
		if v != want[0] {
			covered++
		}
	}
	if covered < len(want)/20 {
		t.Fatalf("%s: the surface covers %d pixels: the comparison checks little", what, covered)
	}
}

// TestScene renders both sets at two sizes, under two policies and lanes:
// the display texture holds exactly the image of a renderer of the test's
// own, and the scene frees what it made.
func TestScene(t *testing.T) {
	c := gputest.Context(t)
	pair := smallPair()
	before := c.Live()
	s, err := New(c, pair, testOptions(72, 56))
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{72, 56}, {50, 64}} {
		w, h := size[0], size[1]
		if err := s.Resize(w, h); err != nil {
			t.Fatal(err)
		}
		if gw, gh := s.Size(); gw != w || gh != h || s.Texture().W != w || s.Framebuffer().H != h {
			t.Fatalf("after Resize(%d, %d): size %dx%d, texture %dx%d", w, h, gw, gh, s.Texture().W, s.Framebuffer().H)
		}
		cam := pair.Camera(view.Paper()[1], w, h)
		for _, path := range []Path{{Policy: balancer.Never}, {Policy: balancer.Always, Lanes: 32}, {Tiled: true},
			{Strategy: balancer.WorkPool, Policy: balancer.Bounded}, {Strategy: balancer.Search, Lanes: 64}} {
			if err := s.SetPath(path); err != nil {
				t.Fatal(err)
			}
			for _, unb := range []bool{false, true} {
				f, err := s.Render(unb, false, cam)
				if err != nil {
					t.Fatal(err)
				}
				if f.Reused || f.Path != path {
					t.Fatalf("%v: frame reused %v, path %v", path, f.Reused, f.Path)
				}
				m := pair.Balanced
				if unb {
					m = pair.Unbalanced
				}
				if f.Unbalanced != unb || f.Triangles != m.Len() || f.Note != "" || f.Hardware {
					t.Fatalf("frame %+v: want unbalanced %v, %d triangles, no note", f, unb, m.Len())
				}
				wantPolicy, wantStrategy := path.Policy, path.Strategy
				if path.Strategy != balancer.Paper {
					wantPolicy = balancer.Never
				}
				switch sc := f.Stats.ScanConversion; {
				case path.Tiled && (sc.Iterations != 0 || f.Stats.ZBuffer.Iterations != 0):
					t.Fatalf("%v: the loops ran (%d, %d iterations)", path, sc.Iterations, f.Stats.ZBuffer.Iterations)
				case !path.Tiled && (sc.Policy != wantPolicy || sc.Strategy != wantStrategy || f.Stats.ZBuffer.Policy != wantPolicy || f.Stats.ZBuffer.Strategy != wantStrategy):
					t.Fatalf("%v: loops ran %v/%v and %v/%v", path, sc.Policy, sc.Strategy, f.Stats.ZBuffer.Policy, f.Stats.ZBuffer.Strategy)
				}
				want := reference(t, c, m, cam, w, h)
				sameImage(t, "scene", s.Texture().ReadUint32(), want)
				// Nothing changed: the same frame, not rendered again.
				again, err := s.Render(unb, false, cam)
				if err != nil {
					t.Fatal(err)
				}
				if !again.Reused || again.Stats.Wall != f.Stats.Wall {
					t.Fatalf("%v: an unchanged frame was rendered again (reused %v)", path, again.Reused)
				}
				sameImage(t, "scene, reused", s.Texture().ReadUint32(), want)
				s.Forget()
				if again, err = s.Render(unb, false, cam); err != nil || again.Reused {
					t.Fatalf("%v: a frame after Forget was reused (%v)", path, err)
				}
				sameImage(t, "scene, after Forget", s.Texture().ReadUint32(), want)
			}
		}
	}
	s.Delete()
	after := c.Live()
	for _, k := range []int{gpu.KindProgram, gpu.KindVertexArray} { // cached with the context
		before[k], after[k] = 0, 0
	}
	if after != before {
		t.Fatalf("leaked: before %v after %v", before, after)
	}
}

// TestIsovalue re-extracts on the GPU: the balanced set at once (the same
// triangles as CPU marching cubes), the unbalanced one in the background on
// demand, meanwhile drawing the balanced set with a note; a decimation
// overtaken by a newer isovalue is dropped for the newer one.
func TestIsovalue(t *testing.T) {
	c := gputest.Context(t)
	pair := smallPair()
	var wakes atomic.Int32
	o := testOptions(64, 64)
	o.Wake = func() { wakes.Add(1) }
	s, err := New(c, pair, o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Delete()
	cam := pair.Camera(view.Paper()[0], 64, 64)
	const iso1, iso2 = 0.1, -0.2

	if err := s.SetIso(iso1); err != nil {
		t.Fatal(err)
	}
	cpu1 := isosurface.MarchingCubes(pair.Volume, iso1)
	f, err := s.Render(false, false, cam)
	if err != nil {
		t.Fatal(err)
	}
	if f.Triangles != cpu1.Len() || f.Iso != iso1 || s.Iso() != iso1 {
		t.Fatalf("balanced at %v: %d triangles, want marching cubes' %d", iso1, f.Triangles, cpu1.Len())
	}
	sameImage(t, "re-extracted balanced set", s.Texture().ReadUint32(), reference(t, c, cpu1, cam, 64, 64))

	// Ask for the unbalanced set: decimation starts; the frame is the
	// balanced set, and says so.
	f, err = s.Render(true, false, cam)
	if err != nil {
		t.Fatal(err)
	}
	if f.Unbalanced || f.Note == "" || f.Triangles != cpu1.Len() {
		t.Fatalf("unbalanced asked while decimating: %+v", f)
	}
	// A newer isovalue overtakes the running decimation.
	if err := s.SetIso(iso2); err != nil {
		t.Fatal(err)
	}
	cpu2 := isosurface.MarchingCubes(pair.Volume, iso2)
	changed, err := s.WaitDecimation()
	if err != nil {
		t.Fatal(err)
	}
	if changed {
		t.Fatal("a decimation of the overtaken surface was taken")
	}
	if !s.Decimating() {
		// Poll restarted it for iso2, since the unbalanced set is wanted.
		t.Fatal("no decimation of the current surface after the stale one was dropped")
	}
	if changed, err = s.WaitDecimation(); err != nil || !changed {
		t.Fatalf("decimation of the current surface: changed %v, %v", changed, err)
	}
	if wakes.Load() != 2 {
		t.Fatalf("Wake called %d times, want 2", wakes.Load())
	}
	f, err = s.Render(true, false, cam)
	if err != nil {
		t.Fatal(err)
	}
	target := cpu2.Len() / dataset.DefaultReduction
	if !f.Unbalanced || f.Note != "" || f.Triangles > target || f.Triangles < target-2 || f.Iso != iso2 {
		t.Fatalf("unbalanced at %v: %+v; want about %d triangles (1/%d of %d)", iso2, f, target, dataset.DefaultReduction, cpu2.Len())
	}
	// The unbalanced set is the decimation of the GPU's balanced set, with
	// the field's normals, as package dataset makes it from the CPU's.
	want := isosurface.Decimate(cpu2, isosurface.DecimateOptions{TargetFaces: target})
	isosurface.SetFieldNormals(want, pair.Volume)
	if got := s.sets[1].Download(); got.Len() != want.Len() {
		t.Fatalf("unbalanced set of %d triangles, decimating the CPU surface gives %d", got.Len(), want.Len())
	}

	// An isovalue with no surface: nothing drawn, no failure.
	if err := s.SetIso(100); err != nil {
		t.Fatal(err)
	}
	if f, err = s.Render(false, false, cam); err != nil || f.Triangles != 0 {
		t.Fatalf("iso 100: %+v, %v", f, err)
	}
	if f, err = s.Render(true, true, cam); err != nil {
		t.Fatal(err)
	}
	if _, err := s.WaitDecimation(); err != nil {
		t.Fatal(err)
	}
	if f, err = s.Render(true, true, cam); err != nil || !f.Unbalanced || f.Triangles != 0 {
		t.Fatalf("iso 100, unbalanced: %+v, %v", f, err)
	}
	bg := IDColor(raster.NoPrimitive, rasterizer.DefaultMaterial.Background)
	for i, p := range s.Texture().Read() {
		if p != bg[i%4] {
			t.Fatalf("empty surface: byte %d of the image is %d, not the background", i, p)
		}
	}
}

// TestHardwareReference: with the hardware reference on, the display shows
// the hardware pipeline's primitive ids as IDColor colours, and they agree
// with the compute renderer's.
func TestHardwareReference(t *testing.T) {
	c := gputest.Context(t)
	pair := smallPair()
	const w, h = 60, 44
	s, err := New(c, pair, testOptions(w, h))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Delete()
	cam := pair.Camera(view.Paper()[3], w, h)
	f, err := s.Render(false, true, cam)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Hardware || f.Agree < 0.99 {
		t.Fatalf("hardware frame %+v: want agreement of 99%% at least", f)
	}
	hw, err := rasterizer.NewHardwareRenderer(c, w, h)
	if err != nil {
		t.Fatal(err)
	}
	defer hw.Delete()
	g, _ := mesh.Upload(c, pair.Balanced)
	defer g.Delete()
	mvp := cam.MVP()
	hw.Render(g.Positions, g.N, &mvp)
	ids := hw.Prims()
	got := s.Texture().Read()
	covered := 0
	for i, id := range ids {
		want := IDColor(id, rasterizer.DefaultMaterial.Background)
		if string(got[4*i:4*i+4]) != string(want[:]) {
			t.Fatalf("pixel %d: %v, want id %d's colour %v", i, got[4*i:4*i+4], id, want)
		}
		if id != raster.NoPrimitive {
			covered++
		}
	}
	if covered < len(ids)/10 {
		t.Fatalf("%d pixels covered", covered)
	}
	// A resize remakes the hardware renderer at the new size.
	if err := s.Resize(30, 20); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Render(false, true, pair.Camera(view.Paper()[3], 30, 20)); err != nil {
		t.Fatal(err)
	}
	if n := len(s.Texture().Read()); n != 30*20*4 {
		t.Fatalf("after resize: %d bytes", n)
	}
}

func TestIDColor(t *testing.T) {
	bg := rasterizer.DefaultMaterial.Background
	if c := IDColor(raster.NoPrimitive, bg); c != [4]byte{bg.R, bg.G, bg.B, bg.A} {
		t.Fatalf("no primitive: %v", c)
	}
	seen := map[[4]byte]bool{}
	for id := uint32(0); id < 1000; id++ {
		c := IDColor(id, bg)
		if c[3] != 255 || c[0] < 0x40 || c[1] < 0x40 || c[2] < 0x40 {
			t.Fatalf("id %d: %v: not opaque and bright", id, c)
		}
		if id > 0 && c == IDColor(id-1, bg) {
			t.Fatalf("ids %d and %d look alike", id-1, id)
		}
		seen[c] = true
	}
	if len(seen) < 990 {
		t.Fatalf("1000 ids give %d colours", len(seen))
	}
}

// TestPairWithoutUnbalancedSet: a pair with only its balanced set gets its
// unbalanced one by a background decimation of the pair's own mesh, which
// is exactly package dataset's unbalanced set.
func TestPairWithoutUnbalancedSet(t *testing.T) {
	c := gputest.Context(t)
	full := smallPair()
	half := *full
	half.Unbalanced = nil
	const w, h = 64, 52
	cam := full.Camera(view.Paper()[1], w, h)
	for _, prepare := range []bool{false, true} {
		s, err := New(c, &half, testOptions(w, h))
		if err != nil {
			t.Fatal(err)
		}
		if prepare {
			if err := s.PrepareUnbalanced(); err != nil {
				t.Fatal(err)
			}
		} else {
			f, err := s.Render(true, false, cam)
			if err != nil {
				t.Fatal(err)
			}
			if f.Unbalanced || f.Note == "" {
				t.Fatalf("before the decimation: %+v", f)
			}
			if changed, err := s.WaitDecimation(); !changed || err != nil {
				t.Fatalf("decimation: changed %v, %v", changed, err)
			}
		}
		f, err := s.Render(true, false, cam)
		if err != nil {
			t.Fatal(err)
		}
		if !f.Unbalanced || f.Triangles != full.Unbalanced.Len() || f.Note != "" {
			t.Fatalf("prepare %v: %+v, want the dataset's %d triangles", prepare, f, full.Unbalanced.Len())
		}
		sameImage(t, "decimated in the scene", s.Texture().ReadUint32(), reference(t, c, full.Unbalanced, cam, w, h))
		s.Delete()
	}
}

// TestNewFailureReturnsTheError: a scene that fails half-built frees what
// it made and returns the failure itself (it once deferred a Delete on the
// nil it was about to return, and the viewer died of that instead).
func TestNewFailureReturnsTheError(t *testing.T) {
	c := gputest.Context(t)
	s, err := New(c, smallPair(), testOptions(raster.MaxImageSize+1, 8))
	if err == nil || s != nil || !strings.Contains(err.Error(), "image size") {
		t.Fatalf("New at %dx8: %v, %v; want the renderer's image-size error", raster.MaxImageSize+1, s, err)
	}
}

// TestMeshPair: a pair made of a mesh (no volume) renders both sets, the
// unbalanced one decimated in the background without a field's normals,
// and refuses a new isovalue with an error.
func TestMeshPair(t *testing.T) {
	c := gputest.Context(t)
	p, err := dataset.FromMesh("torus mesh", smallPair().Balanced, 5)
	if err != nil {
		t.Fatal(err)
	}
	half := *p
	half.Unbalanced = nil
	const w, h = 64, 52
	cam := p.Camera(view.Paper()[1], w, h)
	s, err := New(c, &half, testOptions(w, h))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Delete()
	if err := s.PrepareUnbalanced(); err != nil {
		t.Fatal(err)
	}
	f, err := s.Render(true, false, cam)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Unbalanced || f.Triangles != p.Unbalanced.Len() {
		t.Fatalf("%+v, want the decimated %d triangles", f, p.Unbalanced.Len())
	}
	sameImage(t, "mesh decimated in the scene", s.Texture().ReadUint32(), reference(t, c, p.Unbalanced, cam, w, h))
	if err := s.SetIso(0.5); err == nil || !strings.Contains(err.Error(), "mesh") {
		t.Fatalf("SetIso on a mesh: %v", err)
	}
}

// TestFlat: under Flat every set, the pair's, a re-extracted one and its
// decimation, is drawn flat-shaded by the renderer, and looks unlike the
// smooth one.
func TestFlat(t *testing.T) {
	c := gputest.Context(t)
	p := smallPair()
	const w, h = 64, 52
	cam := p.Camera(view.Paper()[1], w, h)
	o := testOptions(w, h)
	o.Flat = true
	s, err := New(c, p, o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Delete()
	for _, unbalanced := range []bool{false, true} {
		if _, err := s.Render(unbalanced, false, cam); err != nil {
			t.Fatal(err)
		}
		m := p.Balanced
		if unbalanced {
			m = p.Unbalanced
		}
		got := s.Texture().ReadUint32()
		sameImage(t, "flat", got, shadedReference(t, c, m, cam, w, h, true))
		if smooth := reference(t, c, m, cam, w, h); countDiffer(got, smooth) < w*h/50 {
			t.Fatalf("unbalanced %v: the flat image differs from the smooth one in %d pixels only", unbalanced, countDiffer(got, smooth))
		}
	}
	// A new isovalue: extracted on the GPU, decimated on the CPU.
	want := dataset.FromVolume("", p.Volume, 0.1, 5)
	if err := s.SetIso(0.1); err != nil {
		t.Fatal(err)
	}
	if err := s.PrepareUnbalanced(); err != nil {
		t.Fatal(err)
	}
	for _, unbalanced := range []bool{false, true} {
		f, err := s.Render(unbalanced, false, cam)
		if err != nil {
			t.Fatal(err)
		}
		m := want.Balanced
		if unbalanced {
			m = want.Unbalanced
		}
		if f.Triangles != m.Len() {
			t.Fatalf("unbalanced %v at 0.1: %d triangles, want %d", unbalanced, f.Triangles, m.Len())
		}
		sameImage(t, "flat at 0.1", s.Texture().ReadUint32(), shadedReference(t, c, m, cam, w, h, true))
	}
}

func countDiffer(a, b []uint32) int {
	n := 0
	for i := range a {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}
