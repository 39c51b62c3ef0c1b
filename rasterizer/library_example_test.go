package rasterizer_test

import (
	"fmt"
	"image/png"
	"log"
	"math"
	"os"
	"path/filepath"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
	"github.com/dpgl/dpgl/scan"
)

// Render a volume of one's own: samples on a grid (here two overlapping
// blobs; volume.LoadNIfTI reads a scan from a file), its isosurface by
// marching cubes, and a PNG of the load-balanced renderer's image.
func Example_userVolume() {
	// The user's samples, x fastest.
	v := volume.New([3]int{40, 40, 40}, [3]float32{1, 1, 1}, [3]float32{0, 0, 0})
	for z := 0; z < 40; z++ {
		for y := 0; y < 40; y++ {
			for x := 0; x < 40; x++ {
				d1 := math.Hypot(math.Hypot(float64(x)-15, float64(y)-20), float64(z)-20)
				d2 := math.Hypot(math.Hypot(float64(x)-26, float64(y)-20), float64(z)-20)
				v.Data[v.Index(x, y, z)] = float32(math.Exp(-d1*d1/50) + math.Exp(-d2*d2/30))
			}
		}
	}
	surface := isosurface.MarchingCubes(v, 0.5)

	c, err := gpu.NewHeadless()
	if err != nil {
		log.Fatal(err)
	}
	defer c.Delete()
	s, err := scan.New(c)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Delete()
	m, err := mesh.Upload(c, surface)
	if err != nil {
		log.Fatal(err)
	}
	defer m.Delete()
	lo, hi, _ := surface.Bounds()
	cam := view.Paper()[1].Fit(lo, hi, 128, 128) // azimuth and elevation 45

	o := rasterizer.DefaultOptions()
	o.Width, o.Height = 128, 128
	// The paper's cost overestimates; rasterizer.Calibrate measures them
	// on the machine at hand.
	o.ScanConversion = balancer.Config{Policy: balancer.Bounded, CostIterations: 20}
	o.ZBuffer = balancer.Config{Policy: balancer.Bounded, CostIterations: 32}
	r, err := rasterizer.New(s, o)
	if err != nil {
		log.Fatal(err)
	}
	defer r.Delete()
	st, err := r.Render(m, cam)
	if err != nil {
		log.Fatal(err)
	}
	covered := 0
	for _, p := range r.Prims() {
		if p != raster.NoPrimitive {
			covered++
		}
	}
	out, err := os.Create(filepath.Join(os.TempDir(), "blobs.png"))
	if err != nil {
		log.Fatal(err)
	}
	defer out.Close()
	if err := png.Encode(out, r.Image()); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d triangles, %d drawn, %d pixels covered\n", st.Setup.Input, st.Setup.Input-st.Setup.Outside, covered)
	// Output:
	// 2088 triangles, 2088 drawn, 4142 pixels covered
}
