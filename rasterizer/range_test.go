package rasterizer

import (
	"math"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer/dataset"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// renderFitted draws m with the paper's view (45,45) fitted to its bounds
// and returns the primitive ids and pixels.
func renderFitted(t *testing.T, rd *Renderer, m *mesh.Mesh) ([]uint32, []uint32) {
	t.Helper()
	g, err := mesh.Upload(rd.c, m)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Delete()
	lo, hi, _ := m.Bounds()
	o := rd.Options()
	cam := view.Paper()[1].Fit(lo, hi, o.Width, o.Height)
	if _, err := rd.Render(g, cam); err != nil {
		t.Fatal(err)
	}
	return rd.Prims(), rd.Pixels()
}

// TestRenderCoordinateRange: the same sphere with coordinates scaled to
// 1e20 (past where float32 squares overflow) and to 1e-20, far from the
// origin, renders as the unit sphere does: the same triangles at nearly
// every pixel and nearly the same shades; not a blank picture.
func TestRenderCoordinateRange(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	o := DefaultOptions()
	o.Width, o.Height = 96, 96
	o.ScanConversion, o.ZBuffer = quiet(o.ScanConversion), quiet(o.ZBuffer)
	rd, err := New(s, o)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Delete()
	unit := mesh.FromSoup(sphereSoup(16, 32), nil)
	refPrims, refPx := renderFitted(t, rd, unit)
	covered := 0
	for _, p := range refPrims {
		if p != raster.NoPrimitive {
			covered++
		}
	}
	if covered < 96*96/5 {
		t.Fatalf("the unit sphere covers %d pixels", covered)
	}
	for _, scale := range []float64{1e20, 1e-20, 1e35} {
		m := mesh.FromSoup(sphereSoup(16, 32), nil)
		for i, p := range m.Positions {
			for a := 0; a < 3; a++ {
				m.Positions[i][a] = float32(float64(p[a])*scale + []float64{3, -1, 2}[a]*scale)
			}
		}
		prims, px := renderFitted(t, rd, m)
		if f := AgreeFraction(prims, refPrims); f < 0.98 {
			t.Fatalf("scale %g: %.1f%% of covered pixels show the unit sphere's triangle", scale, 100*f)
		}
		worst := 0
		for i := range px {
			if prims[i] == refPrims[i] && prims[i] != raster.NoPrimitive {
				for sh := 0; sh < 24; sh += 8 {
					worst = max(worst, int(math.Abs(float64(px[i]>>sh&0xff)-float64(refPx[i]>>sh&0xff))))
				}
			}
		}
		if worst > 8 {
			t.Fatalf("scale %g: a pixel's colour differs from the unit sphere's by %d", scale, worst)
		}
	}
}

// TestRenderNothingFinite: a camera matrix or a mesh with nothing finite
// is an error naming the cause, not a blank frame.
func TestRenderNothingFinite(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	o := DefaultOptions()
	o.Width, o.Height = 32, 32
	o.ScanConversion, o.ZBuffer = quiet(o.ScanConversion), quiet(o.ZBuffer)
	rd, err := New(s, o)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Delete()
	nan := float32(math.NaN())
	m := uploadSoup(t, c, [][3]float32{{nan, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 0}, {float32(math.Inf(1)), 0, 0}, {0, 1, 0}})
	if _, err := rd.Render(m, testViewCamera(32, 32)); err == nil || !strings.Contains(err.Error(), "all 2 triangles have NaN or infinite") {
		t.Fatalf("a mesh of non-finite triangles: %v", err)
	}
	cam := testViewCamera(32, 32)
	cam.View[13] = nan
	if _, err := rd.Render(uploadSoup(t, c, sphereSoup(4, 8)), cam); err == nil || !strings.Contains(err.Error(), "camera's matrix") {
		t.Fatalf("a NaN camera: %v", err)
	}
}

// TestRenderHugeSpacing: a volume with a voxel spacing of 1e30 (a NIfTI
// pixdim of 1e30) gives the surface the unit-spaced volume gives, drawn.
func TestRenderHugeSpacing(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	o := DefaultOptions()
	o.Width, o.Height = 64, 64
	o.ScanConversion, o.ZBuffer = quiet(o.ScanConversion), quiet(o.ZBuffer)
	rd, err := New(s, o)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Delete()
	f := volume.Sphere()
	for _, set := range []string{"balanced", "unbalanced"} {
		var prims, px [2][]uint32
		for i, spacing := range []float32{1, 1e30} {
			v := f.SampleCube(20)
			for a := range v.Spacing {
				v.Spacing[a] *= spacing
				v.Origin[a] *= spacing
			}
			p := dataset.FromVolume("sphere", v, f.Iso, 4)
			m := p.Balanced
			if set == "unbalanced" {
				m = p.Unbalanced // decimated, normals from the field (SetFieldNormals)
			}
			prims[i], px[i] = renderFitted(t, rd, m)
		}
		if set == "balanced" {
			checkSameSurface(t, set, prims, px)
			continue
		}
		// Decimation's choices depend on rounding at any scale: the same
		// silhouette and overall shade, not the same triangles.
		var covered [2]int
		var red [2]float64
		for i := range prims {
			for k := range prims[i] {
				if prims[i][k] != raster.NoPrimitive {
					covered[i]++
					red[i] += float64(px[i][k] & 0xff)
				}
			}
			red[i] /= float64(max(covered[i], 1))
		}
		if math.Abs(float64(covered[1]-covered[0])) > 0.03*float64(covered[0]) || math.Abs(red[1]-red[0]) > 6 {
			t.Fatalf("unbalanced, spacing 1e30: %d covered pixels of mean red %.1f; spacing 1: %d of %.1f", covered[1], red[1], covered[0], red[0])
		}
	}
}

func checkSameSurface(t *testing.T, set string, prims, px [2][]uint32) {
	t.Helper()
	if f := AgreeFraction(prims[1], prims[0]); f < 0.98 {
		t.Fatalf("%s, spacing 1e30: %.1f%% of covered pixels agree with spacing 1", set, 100*f)
	}
	// The shading too: the normals come from the field's gradient, near
	// 1e-30 here.
	for i := range px[0] {
		if prims[0][i] == prims[1][i] {
			for sh := 0; sh < 24; sh += 8 {
				if d := int(px[1][i]>>sh&0xff) - int(px[0][i]>>sh&0xff); d > 8 || d < -8 {
					t.Fatalf("%s, spacing 1e30: pixel %d's colour %08x, with spacing 1 %08x", set, i, px[1][i], px[0][i])
				}
			}
		}
	}
}
