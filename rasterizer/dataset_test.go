package rasterizer

import (
	"testing"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer/dataset"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// TestDefaultViewsAgainstHardwareAndCPU renders both polygon sets of the
// default field (at a resolution that keeps llvmpipe quick) at the paper's
// four views, 512x512: the compute renderer's primitive ids equal the CPU
// reference's, at least 99.5% of covered pixels carry the same id as the
// GPU's own pipeline, and a second run of the frame gives the same pixels.
func TestDefaultViewsAgainstHardwareAndCPU(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	res := 64
	if testing.Short() {
		res = 40
	}
	pair := dataset.FromField(volume.Default(), res, dataset.DefaultReduction)
	const w, h = 512, 512
	o := DefaultOptions()
	o.ScanConversion = quiet(balancer.Config{Policy: balancer.CostEffective})
	o.ZBuffer = quiet(balancer.Config{Policy: balancer.CostEffective})
	rd, err := New(s, o)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Delete()
	hw, err := NewHardwareRenderer(c, w, h)
	if err != nil {
		t.Fatal(err)
	}
	defer hw.Delete()
	for _, set := range []struct {
		name string
		m    *mesh.Mesh
	}{{"balanced", pair.Balanced}, {"unbalanced", pair.Unbalanced}} {
		g, err := mesh.Upload(c, set.m)
		if err != nil {
			t.Fatal(err)
		}
		soup, _ := set.m.Soup()
		for _, v := range view.Paper() {
			cam := pair.Camera(v, w, h)
			st, err := rd.Render(g, cam)
			if err != nil {
				t.Fatal(err)
			}
			ranVisibility(t, rd, st)
			got := rd.Prims()
			img := rd.Pixels()
			mvp := cam.MVP()
			tris, _ := raster.SetupMesh(&mvp, soup, w, h)
			ref := raster.Rasterize(tris, w, h)
			for i := range got {
				if got[i] != ref.Prim[i] {
					t.Fatalf("%s %s: pixel %d: primitive %d, CPU reference %d", set.name, v.Name, i, got[i], ref.Prim[i])
				}
			}
			hw.Render(g.Positions, g.N, &mvp)
			agree := AgreeFraction(got, hw.Prims())
			t.Logf("%s %s: %d triangles, %.3f%% of covered pixels agree with the hardware pipeline", set.name, v.Name, g.N, 100*agree)
			if agree < 0.995 {
				t.Errorf("%s %s: only %.3f%% of covered pixels agree with the hardware pipeline", set.name, v.Name, 100*agree)
			}
			if _, err := rd.Render(g, cam); err != nil {
				t.Fatal(err)
			}
			again := rd.Pixels()
			for i := range img {
				if img[i] != again[i] {
					t.Fatalf("%s %s: a second render differs at pixel %d", set.name, v.Name, i)
				}
			}
		}
		g.Delete()
	}
}
