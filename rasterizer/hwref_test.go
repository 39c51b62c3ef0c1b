package rasterizer

import (
	"math"
	"slices"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer/raster"
)

// sphereSoup tessellates a unit sphere (closed, like an isosurface).
func sphereSoup(stacks, slices int) [][3]float32 {
	pt := func(i, j int) [3]float32 {
		th := math.Pi * float64(i) / float64(stacks)
		ph := 2 * math.Pi * float64(j) / float64(slices)
		return [3]float32{float32(math.Sin(th) * math.Cos(ph)), float32(math.Cos(th)), float32(math.Sin(th) * math.Sin(ph))}
	}
	var s [][3]float32
	for i := 0; i < stacks; i++ {
		for j := 0; j < slices; j++ {
			a, b, c, d := pt(i, j), pt(i+1, j), pt(i+1, j+1), pt(i, j+1)
			s = append(s, a, b, c, a, c, d)
		}
	}
	return s
}

func TestHardwareReferenceAgreesWithCPU(t *testing.T) {
	c := gputest.Context(t)
	const w, h = 128, 96
	soup := sphereSoup(24, 48)
	mvp := testCamera(w, h)
	pos, _ := gpu.NewBufferFrom(c, toVec4(soup))
	defer pos.Delete()
	hw, err := NewHardwareRenderer(c, w, h)
	if err != nil {
		t.Fatal(err)
	}
	defer hw.Delete()
	hw.Render(pos, len(soup)/3, &mvp)
	got := hw.Prims()
	tris, _ := raster.SetupMesh(&mvp, soup, w, h)
	ref := raster.Rasterize(tris, w, h)
	f := AgreeFraction(got, ref.Prim)
	covered := 0
	for _, p := range ref.Prim {
		if p != raster.NoPrimitive {
			covered++
		}
	}
	t.Logf("%d covered pixels, %.3f%% agree", covered, 100*f)
	if covered < w*h/10 {
		t.Fatalf("the sphere covers only %d pixels", covered)
	}
	if f < 0.99 {
		t.Fatalf("hardware and CPU reference agree on %.2f%% of covered pixels", 100*f)
	}
	// A mesh of several blocks: one draw each, the ids counting on.
	hw.RenderMesh(uploadSoupBlocks(t, c, soup, 500), &mvp)
	if chained := hw.Prims(); !slices.Equal(chained, got) {
		t.Fatalf("RenderMesh of blocks of 500 triangles differs from Render of the whole soup")
	}
	if _, ok := hw.Timer().TryElapsed(); !ok {
		c.Finish()
		if d := hw.Timer().Elapsed(); d <= 0 {
			t.Fatalf("hardware render took %v", d)
		}
	}
}
