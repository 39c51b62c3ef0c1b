package rasterizer

import (
	"fmt"
	"image/color"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
)

// cubeMesh is the unit cube with its 8 corners shared by 12 triangles wound
// outward (triangles 2k and 2k+1 make face k), so that vertex normals
// average three faces at every corner.
func cubeMesh() *mesh.Mesh {
	m := &mesh.Mesh{}
	for i := 0; i < 8; i++ {
		m.Positions = append(m.Positions, [3]float32{float32(i & 1), float32(i >> 1 & 1), float32(i >> 2)})
	}
	for _, q := range [][4]uint32{{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}} {
		m.Faces = append(m.Faces, [3]uint32{q[0], q[1], q[2]}, [3]uint32{q[0], q[2], q[3]})
	}
	m.ComputeNormals()
	return m
}

// faceShades renders the cube and returns, for each face seen on at least
// 200 pixels, the mean and the largest deviation from it of the pixels'
// red channel.
func faceShades(t *testing.T, shading Shading) (mean, spread map[int]float64) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	const w, h = 128, 128
	g, err := mesh.Upload(c, cubeMesh())
	if err != nil {
		t.Fatal(err)
	}
	defer g.Delete()
	o := DefaultOptions()
	o.Width, o.Height = w, h
	o.ScanConversion, o.ZBuffer = quiet(o.ScanConversion), quiet(o.ZBuffer)
	o.Material.Shading = shading
	o.Material.Specular = 0
	rd, err := New(s, o)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Delete()
	cam := view.View{Name: "three faces", Azimuth: 35, Elevation: 25, Magnification: 1}.Fit([3]float32{}, [3]float32{1, 1, 1}, w, h)
	if _, err := rd.Render(g, cam); err != nil {
		t.Fatal(err)
	}
	prims, px := rd.Prims(), rd.Pixels()
	red := map[int][]float64{}
	for i, p := range prims {
		if p != raster.NoPrimitive {
			red[int(p)/2] = append(red[int(p)/2], float64(px[i]&0xff))
		}
	}
	mean, spread = map[int]float64{}, map[int]float64{}
	for f, v := range red {
		if len(v) < 200 {
			continue
		}
		sum := 0.0
		for _, x := range v {
			sum += x
		}
		mean[f] = sum / float64(len(v))
		for _, x := range v {
			spread[f] = max(spread[f], math.Abs(x-mean[f]))
		}
	}
	return mean, spread
}

// TestFlatShadingCube: a cube shaded flat shows three faces, each of one
// shade (the head light moves a little across a face) and the three
// clearly apart; shaded smooth, its averaged corner normals blur the faces
// into one another.
func TestFlatShadingCube(t *testing.T) {
	mean, spread := faceShades(t, Flat)
	t.Logf("flat: face means %v, spreads %v", mean, spread)
	if len(mean) != 3 {
		t.Fatalf("flat: %d faces seen, want 3", len(mean))
	}
	for f, m := range mean {
		if spread[f] > 2 {
			t.Fatalf("flat: face %d's red varies by %.0f around %.0f: not one shade", f, spread[f], m)
		}
		for g, n := range mean {
			if g != f && math.Abs(m-n) < 15 {
				t.Fatalf("flat: faces %d and %d have mean red %.0f and %.0f: not distinct", f, g, m, n)
			}
		}
	}
	smooth, sspread := faceShades(t, Smooth)
	t.Logf("smooth: face means %v, spreads %v", smooth, sspread)
	blurred := false
	for f := range smooth {
		blurred = blurred || sspread[f] > 20
	}
	if !blurred {
		t.Fatalf("smooth: every face is of one shade (%v): the test cannot tell flat from smooth", sspread)
	}
	o := DefaultOptions()
	o.Material.Shading = 7
	if _, err := New(newScanner(t, gputest.Context(t)), o); err == nil {
		t.Fatal("Material.Shading 7 accepted")
	}
}

// TestStorageBlockInputs: the setup and resolve passes and the z-buffer
// loop that read the vertices, normals, spans and set-up triangles as
// storage blocks (a driver whose texel limit is below its storage blocks'
// size) paint the same pixels as the ones that read them as buffer
// textures, in single and several batches, smooth and flat.
func TestStorageBlockInputs(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	const w, h = 96, 80
	mk := func(blocks bool, shading Shading) *Renderer {
		o := DefaultOptions()
		o.Width, o.Height = w, h
		o.Material.Shading = shading
		rd, err := newRenderer(s, o, testOptions{storageBlockInputs: blocks})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(rd.Delete)
		return rd
	}
	for _, shading := range []Shading{Smooth, Flat} {
		tex, blocks := mk(false, shading), mk(true, shading)
		if blocks.resolve.texels || blocks.resolve.posTexels != nil || blocks.setup.texels || blocks.setup.posTexels != nil || blocks.texels || blocks.triTexels != nil {
			t.Fatal("the storage blocks' setup, z-buffer loop or resolve reads buffer textures")
		}
		if !tex.resolve.texels || !tex.setup.texels {
			t.Logf("the driver's texel limit is below its storage blocks' size: both read storage blocks")
		}
		forScenesInBatches(t, c, w, h, func(label string, m *mesh.GPU, cam view.Camera, batch int) {
			label = fmt.Sprintf("shading %v, %s", shading, label)
			tex.batchTriangles, blocks.batchTriangles = batch, batch
			if _, err := tex.Render(m, cam); err != nil {
				t.Fatal(err)
			}
			if _, err := blocks.Render(m, cam); err != nil {
				t.Fatal(err)
			}
			samePixels(t, blocks.Pixels(), tex.Pixels(), w, label+", storage blocks", "buffer textures")
		})
	}
}

// TestShadeRecordsMatchComputed: the pixels shaded from the shading
// records the setup passes store equal, bit for bit, those shaded from the
// matrix shade.glsl works out per pixel from the vertices (a mesh too
// large for records, Renderer.Resolve), on the loops and the tiled path,
// smooth and flat, under perspective and orthographic cameras, in one
// batch and several, and for a mesh of several blocks.
func TestShadeRecordsMatchComputed(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	const w, h = 96, 80
	ortho := view.Camera{
		View:       mgl32.LookAtV(mgl32.Vec3{0.4, -0.3, 3}, mgl32.Vec3{}, mgl32.Vec3{0, 1, 0}),
		Projection: mgl32.Ortho(-1.2, 1.3, -1, 1.1, 0.5, 10),
	}
	for _, tiled := range []bool{false, true} {
		for _, shading := range []Shading{Smooth, Flat} {
			o := neverOptions(w, h)
			o.Tiled, o.Material.Shading = tiled, shading
			rd, err := New(s, o)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(rd.Delete)
			compare := func(label string, m *mesh.GPU, cam view.Camera) {
				label = fmt.Sprintf("tiled %v, shading %v, %s", tiled, shading, label)
				if rd.tiled != nil {
					rd.tiled.lastSetUp = 0 // the tiled path then chooses records
				}
				if _, err := rd.Render(m, cam); err != nil {
					t.Fatal(err)
				}
				if !rd.lastRecords {
					t.Fatalf("%s: the frame did not shade from records", label)
				}
				withRecords := rd.Pixels()
				rd.test.shadeRecordsOff = true
				_, err := rd.Render(m, cam)
				rd.test.shadeRecordsOff = false
				if err != nil {
					t.Fatal(err)
				}
				if rd.lastRecords {
					t.Fatalf("%s: the frame shaded from records with them turned off", label)
				}
				samePixels(t, rd.Pixels(), withRecords, w, label+", shaded from the vertices", "from the records")
			}
			forScenesInBatches(t, c, w, h, func(label string, m *mesh.GPU, cam view.Camera, batch int) {
				rd.batchTriangles = batch
				compare(label, m, cam)
				if batch == 0 {
					compare(label+", orthographic", m, ortho)
				}
			})
			rd.batchTriangles = 0
			soup := tiledScenes(t)["random and sphere"]
			compare("sphere in blocks of 50", uploadSoupBlocks(t, c, soup, 50), testViewCamera(w, h))
		}
	}
}

// TestPackRGBA: a colour packed as a pixel word, R in the low byte, comes
// back from ToImage unchanged, at the top row of the image for the bottom
// row of the words.
func TestPackRGBA(t *testing.T) {
	if got := PackRGBA(color.RGBA{R: 0x11, G: 0x22, B: 0x33, A: 0x44}); got != 0x44332211 {
		t.Fatalf("PackRGBA = %#x, want 0x44332211", got)
	}
	cs := []color.RGBA{{R: 1, G: 2, B: 3, A: 4}, {R: 255, G: 0, B: 128, A: 255}, {}, {R: 255, G: 255, B: 255, A: 255}}
	words := make([]uint32, len(cs))
	for i, c := range cs {
		words[i] = PackRGBA(c)
	}
	img := ToImage(words, 2, 2) // words 0, 1: the bottom row; 2, 3: the top
	for i, c := range cs {
		if got := img.RGBAAt(i%2, 1-i/2); got != c {
			t.Errorf("colour %d: %v back from ToImage, want %v", i, got, c)
		}
	}
}
