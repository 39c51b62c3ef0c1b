package distributed_test

import (
	"fmt"
	"log"
	"sync"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/distributed"
	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
	"github.com/dpgl/dpgl/scan"
)

// Two ranks render a surface's triangles, shares of them, under the
// Left-Right Handoff; the composited image is one renderer's bit for bit.
// The ranks are goroutines here (Local); over MPI each is a process and
// the Comm is package cluster's (its Example), with the same calls.
func ExampleScene() {
	c, err := gpu.NewHeadless()
	if err != nil {
		log.Fatal(err)
	}
	defer c.Delete()
	sc, err := scan.New(c)
	if err != nil {
		log.Fatal(err)
	}
	defer sc.Delete()
	o := rasterizer.DefaultOptions()
	o.Width, o.Height = 64, 64
	f := volume.PerforatorJet()
	m := isosurface.MarchingCubes(f.SampleCube(16), f.Iso)
	lo, hi, _ := m.Bounds()
	cam := view.Paper()[1].Fit(lo, hi, 64, 64)

	var composited []uint64
	var wg sync.WaitGroup
	for _, comm := range distributed.Local(2) {
		wg.Add(1)
		go func() { // each rank
			defer wg.Done()
			r, err := rasterizer.New(sc, o)
			if err != nil {
				log.Fatal(err)
			}
			defer r.Delete()
			scene, err := distributed.NewScene(comm, r, distributed.Triangles(c, m),
				distributed.SceneOptions{Policy: distributed.LeftRightHandoff})
			if err != nil {
				log.Fatal(err)
			}
			defer scene.Delete()
			for frame := 0; frame < 3; frame++ {
				if _, err := scene.Frame(cam, "(45,45)"); err != nil {
					log.Fatal(err)
				}
			}
			if comm.Rank() == 0 {
				composited = append([]uint64(nil), scene.Visibility()...)
			}
		}()
	}
	wg.Wait()

	r, err := rasterizer.New(sc, o)
	if err != nil {
		log.Fatal(err)
	}
	defer r.Delete()
	whole, err := mesh.Upload(c, m)
	if err != nil {
		log.Fatal(err)
	}
	defer whole.Delete()
	n, err := distributed.Compare(r, whole, cam, composited, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d triangles on 2 ranks; pixels that differ from one renderer's: %d\n", m.Len(), n)
	// Output: 908 triangles on 2 ranks; pixels that differ from one renderer's: 0
}
