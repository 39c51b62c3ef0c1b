package rasterizer

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer/dataset"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
	"github.com/dpgl/dpgl/scan"
)

// tiledScenes are the soups the tiled path is checked on: random triangles
// from sub-pixel to far larger than the view (clipped, zero-area, NaN), a
// sphere, ties in depth (identical copies, the lower id must win) stacked
// over the whole image, and triangles wholly off-screen beside ones crossing
// the image's edges.
func tiledScenes(t *testing.T) map[string][][3]float32 {
	r := gputest.Rand(t)
	ties := [][3]float32{}
	for i := 0; i < 40; i++ {
		z := float32(r.Float64()*2 - 1)
		tri := [][3]float32{{-4 + r.Float32(), -4, z}, {4, -4 + r.Float32(), z}, {0, 4, z + r.Float32() - 0.5}}
		ties = append(ties, tri...)
		ties = append(ties, tri...)
		ties = append(ties, tri...)
	}
	var tiny [][3]float32
	for i := 0; i < 400; i++ {
		c := [3]float32{(r.Float32() - 0.5) * 2, (r.Float32() - 0.5) * 2, (r.Float32() - 0.5) * 2}
		s := float32(0.003)
		tiny = append(tiny, c, [3]float32{c[0] + s, c[1], c[2]}, [3]float32{c[0], c[1] + s, c[2] + s})
	}
	offscreen := [][3]float32{
		{20, 20, 0}, {21, 20, 0}, {20, 21, 0}, // right of the view
		{-30, 0, 0}, {-29, 1, 0}, {-29, -1, 0}, // left of it
		{-1.3, -1.3, 0.1}, {1.3, -1.2, 0}, {0, 0.2, 0.3}, // across the bottom edge
		{1.1, 0.5, 0}, {2.5, 0.4, 0}, {2.5, 0.9, 0.2}, // across the right edge
		{-1e5, -1e5, 0}, {1e5, -1e5, 0}, {0, 1e5, -0.5}, // the whole view, clipped
	}
	return map[string][][3]float32{
		"random and sphere": append(randomSoup(r, 500), sphereSoup(12, 24)...),
		"ties in depth":     ties,
		"tiny":              tiny,
		"off-screen":        offscreen,
		"empty":             nil,
	}
}

// tiledCameras are views of the test soups: the tests' own, and the
// paper's four (fitted to the unit box), which turn the surfaces.
func tiledCameras(w, h int) []view.Camera {
	cams := []view.Camera{testViewCamera(w, h)}
	for _, v := range view.Paper() {
		cams = append(cams, v.Camera(mgl32.Vec3{}, 1.5, float32(w)/float32(h)))
	}
	return cams
}

// TestTiledMatchesPaperRenderer draws each scene at several sizes (1x1,
// sizes that are and are not multiples of the tile, a tall one) and views
// with the tiled path and with the paper's loops: the primitive ids equal
// the CPU reference's, and the visibility words and the shaded pixels
// equal the loops', bit for bit, on both visibility schemes (the 64-bit
// one emulated where the driver lacks 64-bit atomics), unbatched and in
// small batches, run after run: the first run with the bins at their first
// capacity (busy tiles overflow them: the counting sort), the second with
// the bins grown to hold every tile's list, the third with the counting
// sort alone.
func TestTiledMatchesPaperRenderer(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	scenes := tiledScenes(t)
	sizes := [][2]int{{1, 1}, {7, 9}, {64, 64}, {96, 80}, {33, 130}}
	forVisibilityPaths(t, c, func(vis32 bool, test testOptions) {
		for _, size := range sizes {
			w, h := size[0], size[1]
			o := neverOptions(w, h)
			o.Visibility32 = vis32
			paper, err := newRenderer(s, o, test)
			if err != nil {
				t.Fatal(err)
			}
			o.Tiled = true
			tiled, err := newRenderer(s, o, test)
			if err != nil {
				t.Fatal(err)
			}
			for name, soup := range scenes {
				var m *mesh.GPU
				if len(soup) == 0 {
					if m, err = mesh.NewGPU(c, 0); err != nil {
						t.Fatal(err)
					}
					t.Cleanup(m.Delete)
				} else {
					m = uploadSoup(t, c, soup)
				}
				for ci, cam := range tiledCameras(w, h) {
					label := fmt.Sprintf("%s, %dx%d, camera %d, Visibility32 %v", name, w, h, ci, vis32)
					mvp := cam.MVP()
					tris, cst := raster.SetupMesh(&mvp, soup, w, h)
					ref := raster.Rasterize(tris, w, h)
					if _, err := paper.Render(m, cam); err != nil {
						t.Fatalf("%s: paper: %v", label, err)
					}
					wantVis, wantPix := paper.Visibility(), paper.Pixels()
					for _, batch := range []int{0, 37} {
						tiled.batchTriangles = batch
						for run := 0; run < 3; run++ {
							ts := tiled.tiled // nil until a frame has triangles
							if len(soup) == 0 {
								ts = nil
							}
							maxBins := 0
							if ts != nil && run == 2 {
								maxBins, ts.maxBins = ts.maxBins, 0
							}
							st, err := tiled.Render(m, cam)
							if err != nil {
								t.Fatalf("%s: tiled: %v", label, err)
							}
							if ts != nil && run > 0 {
								if ts.binned != (run == 1) {
									t.Fatalf("%s, batch %d, run %d: the lists binned %v", label, batch, run, ts.binned)
								}
								if run == 2 {
									ts.maxBins = maxBins
								}
							}
							if st.Visibility != visibilityTiled {
								t.Fatalf("%s: the frame ran %q, not the tiled path", label, st.Visibility)
							}
							if st.Setup != cst {
								t.Fatalf("%s: setup stats %+v, CPU %+v", label, st.Setup, cst)
							}
							if len(soup) > 0 && batch > 0 && st.Batches != (len(soup)/3+batch-1)/batch {
								t.Fatalf("%s: %d batches of %d triangles for %d triangles", label, st.Batches, batch, len(soup)/3)
							}
							for i, p := range tiled.Prims() {
								if p != ref.Prim[i] {
									t.Fatalf("%s, batch %d: pixel (%d,%d) has primitive %d, the CPU reference %d", label, batch, i%w, i/w, p, ref.Prim[i])
								}
							}
							for i, v := range tiled.Visibility() {
								if v != wantVis[i] {
									t.Fatalf("%s, batch %d: pixel (%d,%d) has visibility %#x, the loops %#x", label, batch, i%w, i/w, v, wantVis[i])
								}
							}
							for i, p := range tiled.Pixels() {
								if p != wantPix[i] {
									t.Fatalf("%s, batch %d: pixel (%d,%d) is %08x, the loops drew %08x", label, batch, i%w, i/w, p, wantPix[i])
								}
							}
						}
					}
				}
			}
			paper.Delete()
			tiled.Delete()
		}
	})
}

// TestTiledBlocks draws a mesh of several blocks on the tiled path, whole
// and in batches: the first block's frame shades as it draws, the later
// blocks merge into it and the resolve pass shades them all. The ids equal
// the CPU reference's and the image the one-block mesh's, bit for bit.
func TestTiledBlocks(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	const w, h = 96, 80
	soup := append(randomSoup(gputest.Rand(t), 600), sphereSoup(12, 24)...)
	whole := uploadSoup(t, c, soup)
	blocks := uploadSoupBlocks(t, c, soup, 250)
	cam, ref := tiledReference(soup, w, h)
	rd := newTiledRenderer(t, s, w, h)
	if _, err := rd.Render(whole, cam); err != nil {
		t.Fatal(err)
	}
	want := rd.Pixels()
	for _, batch := range []int{0, 111} {
		rd.batchTriangles = batch
		st, err := rd.Render(blocks, cam)
		if err != nil {
			t.Fatal(err)
		}
		if st.Batches < len(blocks.Blocks()) {
			t.Fatalf("batch %d: %d batches for %d blocks", batch, st.Batches, len(blocks.Blocks()))
		}
		for i, p := range rd.Prims() {
			if p != ref.Prim[i] {
				t.Fatalf("batch %d: pixel (%d,%d) has primitive %d, the CPU reference %d", batch, i%w, i/w, p, ref.Prim[i])
			}
		}
		samePixels(t, rd.Pixels(), want, w, fmt.Sprintf("batch %d", batch), "the one-block mesh's")
	}
}

// TestTiledShadesFlat: where the tiled path shades as it draws (tile.comp
// SHADE 1), flat shading paints the pixels resolve.comp paints after the
// loops, bit for bit, at every camera.
func TestTiledShadesFlat(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	const w, h = 64, 48
	o := neverOptions(w, h)
	o.Material.Shading = Flat
	paper, err := New(s, o)
	if err != nil {
		t.Fatal(err)
	}
	defer paper.Delete()
	o.Tiled = true
	tiled, err := New(s, o)
	if err != nil {
		t.Fatal(err)
	}
	defer tiled.Delete()
	// An isosurface: its vertex normals differ from its face normals.
	pair := dataset.FromField(volume.Default(), 24, dataset.DefaultReduction)
	m, err := mesh.Upload(c, pair.Balanced)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Delete()
	for ci, v := range view.Paper() {
		cam := pair.Camera(v, w, h)
		if _, err := paper.Render(m, cam); err != nil {
			t.Fatal(err)
		}
		if _, err := tiled.Render(m, cam); err != nil {
			t.Fatal(err)
		}
		samePixels(t, tiled.Pixels(), paper.Pixels(), w, fmt.Sprintf("camera %d", ci), "the loops drew")
	}
}

// TestTiledReachRow checks how the setup finds a record's tiles:
// tileprep.glsl's eachNearTile, the straight-line tests of a box within
// 2x2 tiles, and for the other boxes (listed for the box pass) reachRow,
// which narrows the tiles the binning loops test on each row of a box. The
// tile counts of small and of large triangles equal those of loops over
// the whole box for every record, for every scene and view; the scenes
// give records of both ways, and some tiles triangles of both classes
// (which tile.comp draws apart).
func TestTiledReachRow(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	const w, h = 96, 80
	rd := newTiledRenderer(t, s, w, h)
	// The reference: every record's tiles found by the loops over its
	// whole box's rows, in the one pass (no near records' straight-line
	// tests, none listed for the box pass).
	box, err := c.Program("rasterizer/tilesetup.comp", map[string]string{"TILE": fmt.Sprint(TileSize), "REACH_BOX": "1", "NEAR": "0", "SHADE_RECORDS": "1"})
	if err != nil {
		t.Fatal(err)
	}
	tx, ty := tiles(w, h)
	scenes := tiledScenes(t)
	scenes["long thin"] = longThinSoup(gputest.Rand(t), 300)
	mixed, listed := 0, 0
	for name, soup := range scenes {
		if len(soup) == 0 {
			continue
		}
		m := uploadSoup(t, c, soup)
		for ci, cam := range tiledCameras(w, h) {
			var counts [2][]uint32
			for k := range counts {
				if _, err := rd.Render(m, cam); err != nil {
					t.Fatal(err)
				}
				counts[k] = rd.tiled.tileCount.Download()[:2*tx*ty] // small triangles, then large ones
				if k == 0 {
					listed += int(rd.tiled.counter.Get(counterWords + tx*ty)) // the box pass's records
				}
				rd.tiled.setup[1], box = box, rd.tiled.setup[1] // the renderer's frames store shading records
			}
			for i := range counts[0] {
				if counts[0][i] != counts[1][i] {
					class := "small"
					if i >= tx*ty {
						class = "large"
					}
					j := i % (tx * ty)
					t.Fatalf("%s, camera %d: tile (%d,%d) has %d %s triangles by reachRow, %d by the whole box", name, ci, j%tx, j/tx, counts[0][i], class, counts[1][i])
				}
			}
			anyLarge := false
			for i := 0; i < tx*ty; i++ {
				if counts[0][i] > 0 && counts[0][tx*ty+i] > 0 {
					mixed++
				}
				anyLarge = anyLarge || counts[0][tx*ty+i] > 0
			}
			// The last frame ran the tile kernel with the large triangles'
			// pass exactly when a tile held one.
			if rd.tiled.large != anyLarge {
				t.Fatalf("%s, camera %d: the tile kernel's LARGE variant %v, a tile with a large triangle %v", name, ci, rd.tiled.large, anyLarge)
			}
		}
	}
	// The tile kernel draws the two classes apart: the scenes that the
	// tiled tests draw must give it tiles with both.
	if mixed == 0 {
		t.Fatal("no tile of any scene holds both small and large triangles")
	}
	if listed == 0 {
		t.Fatal("no record of any scene reaches past 2x2 tiles: the box pass went untested")
	}
}

// longThinSoup is n slivers across the view at random angles: their boxes
// hold far more tiles than they reach.
func longThinSoup(r *rand.Rand, n int) [][3]float32 {
	var soup [][3]float32
	for i := 0; i < n; i++ {
		a := r.Float64() * 2 * math.Pi
		dx, dy := float32(math.Cos(a)), float32(math.Sin(a))
		cx, cy, z := float32(r.Float64()-0.5), float32(r.Float64()-0.5), float32(r.Float64()-0.5)
		wd := float32(r.Float64() * 0.02)
		soup = append(soup, [3]float32{cx - 1.5*dx, cy - 1.5*dy, z}, [3]float32{cx + 1.5*dx, cy + 1.5*dy, z}, [3]float32{cx + 1.5*dx - wd*dy, cy + 1.5*dy + wd*dx, z + 0.1})
	}
	return soup
}

// TestTiledListLimit makes the tile lists' storage block small, so that a
// frame must be cut into batches by its list entries, not its triangles:
// the image stays the unbatched one.
func TestTiledListLimit(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	const w, h = 64, 48
	soup := tiledScenes(t)["random and sphere"]
	m := uploadSoup(t, c, soup)
	cam, ref := tiledReference(soup, w, h)
	rd := newTiledRenderer(t, s, w, h)
	if _, err := rd.Render(m, cam); err != nil {
		t.Fatal(err)
	}
	rd.tiled.maxList = 300
	rd.tiled.maxBins = 0 // the counting sort's lists, not the bins
	st, err := rd.Render(m, cam)
	if err != nil {
		t.Fatal(err)
	}
	if st.Batches < 3 {
		t.Fatalf("%d batches with a list limit of 300 entries", st.Batches)
	}
	for i, p := range rd.Prims() {
		if p != ref.Prim[i] {
			t.Fatalf("pixel (%d,%d) has primitive %d, the CPU reference %d", i%w, i/w, p, ref.Prim[i])
		}
	}
}

// TestTiledRecordsOutgrowRoom draws triangles far larger than the view,
// each clipped by the guard band into several set-up triangles, so that
// the records outgrow the room the tiled setup first makes for them (a
// little over one a triangle): it runs again with more, and the image is
// the CPU reference's.
func TestTiledRecordsOutgrowRoom(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	const w, h = 40, 30
	r := gputest.Rand(t)
	var soup [][3]float32
	const n = 200
	for i := 0; i < n; i++ {
		z := float32(r.Float64() - 0.5)
		a := float32(r.Float64() * 6.28)
		for k := 0; k < 3; k++ {
			ang := a + float32(k)*2.09
			soup = append(soup, [3]float32{1e5 * float32(math.Cos(float64(ang))), 1e5 * float32(math.Sin(float64(ang))), z + 0.1*float32(k)})
		}
	}
	m := uploadSoup(t, c, soup)
	cam := testViewCamera(w, h)
	mvp := cam.MVP()
	tris, cst := raster.SetupMesh(&mvp, soup, w, h)
	ref := raster.Rasterize(tris, w, h)
	if room := n + n/8 + 64; cst.Output <= room {
		t.Fatalf("%d set-up triangles: not more than the first room of %d", cst.Output, room)
	}
	rd := newTiledRenderer(t, s, w, h)
	st, err := rd.Render(m, cam)
	if err != nil {
		t.Fatal(err)
	}
	if st.Setup != cst {
		t.Fatalf("setup stats %+v, CPU %+v", st.Setup, cst)
	}
	for i, p := range rd.Prims() {
		if p != ref.Prim[i] {
			t.Fatalf("pixel (%d,%d) has primitive %d, the CPU reference %d", i%w, i/w, p, ref.Prim[i])
		}
	}
	// The frame ran the tiled stages and none of the loops'.
	for s, d := range st.Stages {
		loops := Stage(s) <= StageIDPass && Stage(s) != StageZPrepare
		// (The lists' stage may take no time: the setup pass binned them.)
		tiled := Stage(s) == StageTileSetup || Stage(s) == StageTiles
		if loops && d != 0 || tiled && d <= 0 || d < 0 {
			t.Errorf("stage %v took %v", Stage(s), d)
		}
	}
	if st.SetupTime != st.Stages[StageTileSetup] || st.ScanTime != st.Stages[StageTileLists] || st.Total != st.Stages.Sum() {
		t.Errorf("summary times %v, %v, %v from stages %v", st.SetupTime, st.ScanTime, st.Total, st.Stages)
	}
}

// BenchmarkTiledFrame renders the default field's balanced set at the
// paper's (0,0) view and its unbalanced set at M(45,45), 512x512, on the
// tiled path, and reports each stage's GPU time per frame (ns/op is the
// host's time for Render).
func BenchmarkTiledFrame(b *testing.B) {
	c := gputest.Context(b)
	s := newScanner(b, c)
	pair := dataset.FromField(volume.Default(), 128, dataset.DefaultReduction)
	const w, h = 512, 512
	for _, set := range []struct {
		name string
		m    *mesh.Mesh
		v    view.View
	}{{"balanced-0-0", pair.Balanced, view.Paper()[0]}, {"unbalanced-M45-45", pair.Unbalanced, view.Paper()[3]}} {
		g, err := mesh.Upload(c, set.m)
		if err != nil {
			b.Fatal(err)
		}
		o := DefaultOptions()
		o.Width, o.Height, o.Tiled = w, h, true
		rd, err := New(s, o)
		if err != nil {
			g.Delete()
			b.Fatal(err)
		}
		cam := pair.Camera(set.v, w, h)
		b.Run(set.name, func(b *testing.B) { benchStages(b, rd, g, cam) })
		rd.Delete()
		g.Delete()
	}
}

// samePixels fails t at the first pixel of got (an image w wide) that
// differs from want, naming the case and what want is.
func samePixels(t *testing.T, got, want []uint32, w int, what, wantIs string) {
	t.Helper()
	for i, p := range got {
		if p != want[i] {
			t.Fatalf("%s: pixel (%d,%d) is %08x, %s %08x", what, i%w, i/w, p, wantIs, want[i])
		}
	}
}

// sameFrame fails t unless renderers got and want (named gotIs and
// wantIs) hold the same last frame, w pixels wide: its pixels, primitive
// ids and visibility words, bit for bit.
func sameFrame(t *testing.T, got, want *Renderer, w int, label, gotIs, wantIs string) {
	t.Helper()
	samePixels(t, got.Pixels(), want.Pixels(), w, label+", "+gotIs, wantIs)
	samePixels(t, got.Prims(), want.Prims(), w, label+", "+gotIs+": ids", wantIs)
	wantVis := want.Visibility()
	for i, v := range got.Visibility() {
		if v != wantVis[i] {
			t.Fatalf("%s: pixel (%d,%d) has visibility %#x %s, %#x %s", label, i%w, i/w, v, gotIs, wantVis[i], wantIs)
		}
	}
}

// tiledReference is the test camera of a w x h image and the CPU
// reference's rasterization of soup under it.
func tiledReference(soup [][3]float32, w, h int) (view.Camera, *raster.Visibility) {
	cam := testViewCamera(w, h)
	mvp := cam.MVP()
	tris, _ := raster.SetupMesh(&mvp, soup, w, h)
	return cam, raster.Rasterize(tris, w, h)
}

// newTiledRenderer is a tiled renderer of w x h images, deleted when t
// ends.
func newTiledRenderer(t *testing.T, s *scan.Scanner, w, h int) *Renderer {
	t.Helper()
	o := DefaultOptions()
	o.Width, o.Height, o.Tiled = w, h, true
	rd, err := New(s, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rd.Delete)
	return rd
}

// TestTiledDepthAtVertices draws triangles whose vertices lie on pixel
// centres (an identity camera over a 128x128 image, where such a vertex
// snaps exactly), so that at a vertex's pixel the depth's quotient is an
// exact integer, the case in which the reciprocal's estimate falls one
// short and its correction decides the depth: small triangles, whose depth
// tile.comp takes in doubles, and ones of more than 2^28 / 2 square
// subpixels, which take the 64-bit integers. Each pixel's depth and id
// equal the CPU reference's, on both visibility schemes.
func TestTiledDepthAtVertices(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	r := gputest.Rand(t)
	const w, h = 128, 128
	// The NDC coordinate of pixel centre p: (p + 0.5) / 64 - 1, exact in
	// float32, as are the window coordinates ToWindow makes of it.
	centre := func(p int) float32 { return float32(p)/64 + 1.0/128 - 1 }
	var soup [][3]float32
	bigArea := 0
	for i := 0; i < 600; i++ {
		span := 6 // pixels: small triangles
		if i%4 == 0 {
			span = w - 1 // some larger than 2^28 / 2 square subpixels
		}
		x0, y0 := r.IntN(w-span), r.IntN(h-span)
		var tri [3][3]float32
		var px, py [3]int
		for k := range tri {
			px[k], py[k] = x0+r.IntN(span+1), y0+r.IntN(span+1)
			tri[k] = [3]float32{centre(px[k]), centre(py[k]), float32(r.Float64()*1.8 - 0.9)}
		}
		if a := (px[1]-px[0])*(py[2]-py[0]) - (px[2]-px[0])*(py[1]-py[0]); a*a*65536*65536 >= 1<<56 {
			bigArea++
		}
		soup = append(soup, tri[0], tri[1], tri[2])
	}
	if bigArea == 0 {
		t.Fatal("no triangle of area2 2^28 or more: the 64-bit integer depth goes untested")
	}
	cam := view.Camera{View: mgl32.Ident4(), Projection: mgl32.Ident4()}
	mvp := cam.MVP()
	tris, _ := raster.SetupMesh(&mvp, soup, w, h)
	ref := raster.Rasterize(tris, w, h)
	// The pixels where the quotient is exact: vertices on pixel centres.
	onVertex := 0
	for _, tr := range tris {
		for _, v := range tr.V {
			if v.X%raster.One == raster.One/2 && v.Y%raster.One == raster.One/2 {
				onVertex++
			}
		}
	}
	if onVertex < len(tris) {
		t.Fatalf("%d of %d set-up triangles' vertices on pixel centres", onVertex, 3*len(tris))
	}
	tiledMatchesReference(t, c, s, uploadSoup(t, c, soup), cam, ref, w, h, "")
}

// tiledMatchesReference renders m through cam on the tiled path, on each
// visibility scheme the driver has, and fails unless every pixel's depth
// and id equal the CPU reference's (label, if any, leads the message).
func tiledMatchesReference(t *testing.T, c *gpu.Context, s *scan.Scanner, m *mesh.GPU, cam view.Camera, ref *raster.Visibility, w, h int, label string) {
	t.Helper()
	forVisibilityPaths(t, c, func(vis32 bool, test testOptions) {
		o := DefaultOptions()
		o.Width, o.Height, o.Visibility32, o.Tiled = w, h, vis32, true
		rd, err := newRenderer(s, o, test)
		if err != nil {
			t.Fatal(err)
		}
		defer rd.Delete()
		if _, err := rd.Render(m, cam); err != nil {
			t.Fatal(err)
		}
		for p, v := range rd.Visibility() {
			if uint32(v) != ref.Prim[p] || (ref.Prim[p] != raster.NoPrimitive && uint32(v>>32) != ref.Depth[p]) {
				t.Fatalf("%s%s visibility: pixel (%d,%d) has word %#x; CPU reference depth %#x id %#x", label, visibilityPathName(c, vis32), p%w, p/w, v, ref.Depth[p], ref.Prim[p])
			}
		}
	})
}

// TestTiledSkipsOnlyFartherTriangles draws, over a 64x64 image, 40 flat
// copies of a triangle covering it all at one depth (every pixel a tie
// that the lowest id must win), then a slanted one whose nearest vertex
// lies in front of them: the tile kernel then takes each tile's list from
// its end, so that the later copies fill the tiles at that depth first and
// the earlier ones, whose nearest vertex equals the tiles' farthest depth,
// must still be drawn (and win) rather than skipped as lying behind. Each
// pixel's depth and id equal the CPU reference's, on both visibility
// schemes, and with the copies in the other order.
func TestTiledSkipsOnlyFartherTriangles(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	const w, h = 64, 64
	flat := [][3]float32{{-1.5, -1.5, 0.2}, {4, -1.5, 0.2}, {-1.5, 4, 0.2}}
	slanted := [][3]float32{{-1.5, -1.5, -0.9}, {4, -1.5, 0.9}, {-1.5, 4, 0.9}}
	var soup [][3]float32
	for i := 0; i < 40; i++ {
		soup = append(soup, flat...)
	}
	cam := view.Camera{View: mgl32.Ident4(), Projection: mgl32.Ident4()}
	mvp := cam.MVP()
	for _, order := range []string{"slanted last", "slanted first"} {
		if order == "slanted first" {
			soup = append(append([][3]float32{}, slanted...), soup[:len(soup)-3]...)
		} else {
			soup = append(soup, slanted...)
		}
		tris, _ := raster.SetupMesh(&mvp, soup, w, h)
		ref := raster.Rasterize(tris, w, h)
		// Every pixel is covered, so every depth is compared.
		tiledMatchesReference(t, c, s, uploadSoup(t, c, soup), cam, ref, w, h, order+", ")
	}
}

// TestTiledStorageBlocks draws the test scenes on the tiled path reading
// its inputs as buffer textures (where the driver allows: llvmpipe does)
// and as storage blocks (as where the driver's texel limit is below its
// storage blocks' size): the images and id buffers are the same, bit for
// bit, whole and in batches.
func TestTiledStorageBlocks(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	const w, h = 96, 80
	tex := newTiledRenderer(t, s, w, h)
	blocks := newTiledRenderer(t, s, w, h)
	blocks.test.tiledStorageBlocks = true // read when its first frame makes its tiled stage
	first := true
	forScenesInBatches(t, c, w, h, func(label string, m *mesh.GPU, cam view.Camera, batch int) {
		renderPair(t, tex, blocks, m, cam, batch)
		if blocks.tiled.texels || blocks.tiled.prepTexels != nil {
			t.Fatalf("%s: the storage blocks' stage reads buffer textures", label)
		}
		if !tex.tiled.texels && first {
			t.Logf("the driver's texel limit is below its storage blocks' size: both read storage blocks")
		}
		first = false
		samePixels(t, blocks.Pixels(), tex.Pixels(), w, label+", storage blocks", "buffer textures")
		samePixels(t, blocks.Prims(), tex.Prims(), w, label+", storage blocks' ids", "buffer textures'")
	})
}

// renderPair draws m under cam, in batches of batch triangles (0: one),
// with renderer a as it is and with renderer b under the test options
// the caller set on it, which b's tiled stage reads when b's first frame
// makes it.
func renderPair(t *testing.T, a, b *Renderer, m *mesh.GPU, cam view.Camera, batch int) {
	t.Helper()
	a.batchTriangles, b.batchTriangles = batch, batch
	if _, err := a.Render(m, cam); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Render(m, cam); err != nil {
		t.Fatal(err)
	}
}

// forScenesInBatches calls f for each non-empty test scene (on the GPU as
// m) under each test camera, drawn in one batch (0) and in batches of 37
// triangles; label names the three.
func forScenesInBatches(t *testing.T, c *gpu.Context, w, h int, f func(label string, m *mesh.GPU, cam view.Camera, batch int)) {
	t.Helper()
	for name, soup := range tiledScenes(t) {
		if len(soup) == 0 {
			continue
		}
		m := uploadSoup(t, c, soup)
		for ci, cam := range tiledCameras(w, h) {
			for _, batch := range []int{0, 37} {
				f(fmt.Sprintf("%s, camera %d, batch %d", name, ci, batch), m, cam, batch)
			}
		}
		m.Delete()
	}
}

// TestTiledLockstep checks the tile kernel without barriers (tile.comp
// LOCKSTEP), which the tiled stage builds where the driver runs a tile's
// work group as one SIMD vector in lockstep (llvmpipe): every test scene,
// whole and in batches, at a width whose rows the kernel stores four
// words to a vector and at one it does not, draws the same pixels, ids
// and visibility words as the kernel with its barriers. Elsewhere the
// stage must keep them.
func TestTiledLockstep(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	lanes := c.Caps().LockstepLanes
	for _, w := range []int{96, 90} {
		const h = 80
		lock := newTiledRenderer(t, s, w, h)
		bars := newTiledRenderer(t, s, w, h)
		bars.test.tiledBarriers = true
		forScenesInBatches(t, c, w, h, func(label string, m *mesh.GPU, cam view.Camera, batch int) {
			label = fmt.Sprintf("%dx%d, %s", w, h, label)
			renderPair(t, lock, bars, m, cam, batch)
			if want := lanes >= TileSize; lock.tiled.lockstep != want {
				t.Fatalf("%s: lockstep kernel %v on a driver of %d lockstep lanes", label, lock.tiled.lockstep, lanes)
			}
			if bars.tiled.lockstep {
				t.Fatalf("%s: the kernel asked to keep its barriers runs without them", label)
			}
			sameFrame(t, lock, bars, w, label, "without barriers", "with them")
		})
	}
	if lanes < TileSize {
		t.Logf("%d lockstep lanes (%s): the tile kernel keeps its barriers, and both renderers drew with them", lanes, c.Caps().Renderer)
	}
}
