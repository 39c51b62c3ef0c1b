package rasterizer_test

import (
	"fmt"
	"slices"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
	"github.com/dpgl/dpgl/scan"
)

// Render the isosurface of a built-in field with the original loops
// (Figure 1) and with the improved cost-effective policy: the images are
// the same, only the work differs.
func Example() {
	c, err := gpu.NewHeadless()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Delete()
	s, _ := scan.New(c)
	defer s.Delete()

	f := volume.Sphere()
	surface := isosurface.MarchingCubes(f.SampleCube(24), f.Iso)
	m, _ := mesh.Upload(c, surface)
	defer m.Delete()
	lo, hi, _ := surface.Bounds()
	cam := view.Paper()[0].Fit(lo, hi, 64, 64)

	var images [][]uint32
	for _, policy := range []balancer.Policy{balancer.Never, balancer.Bounded} {
		o := rasterizer.DefaultOptions()
		o.Width, o.Height = 64, 64
		o.ScanConversion = balancer.Config{Policy: policy, CostIterations: 20}
		o.ZBuffer = balancer.Config{Policy: policy, CostIterations: 32}
		r, err := rasterizer.New(s, o)
		if err != nil {
			fmt.Println(err)
			return
		}
		st, err := r.Render(m, cam)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%v: %d triangles, %d outside the view, %d balancing operations\n", policy, st.Setup.Input, st.Setup.Outside, st.ScanConversion.Balances+st.ZBuffer.Balances)
		images = append(images, r.Pixels())
		r.Delete()
	}
	fmt.Println("same image:", slices.Equal(images[0], images[1]))
	// Output:
	// Never: 2492 triangles, 0 outside the view, 0 balancing operations
	// Bounded: 2492 triangles, 0 outside the view, 0 balancing operations
	// same image: true
}
