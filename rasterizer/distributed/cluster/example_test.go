//go:build mpi

package cluster_test

import (
	"fmt"
	"log"
	"time"

	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/distributed"
	"github.com/dpgl/dpgl/rasterizer/distributed/cluster"
	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
	"github.com/dpgl/dpgl/scan"
)

// Every rank of an MPI job (make test runs this under mpirun -np 2) makes
// its GL context, renders its share of a surface's triangles under the
// Left-Right Handoff, and the shares are composited; with ResolveAtRanks
// every rank holds the composited words, and each checks them, and its
// own resolve of them, against one renderer's frame of the whole mesh.
// Every rank prints the same lines, whatever the number of ranks.
func Example() {
	cl, err := cluster.Join(cluster.Options{Timeout: time.Minute})
	if err != nil {
		log.Fatal(err)
	}
	defer cl.Leave()
	c, err := cl.OpenDevice("rank")
	if err := cl.Agree("making a GL context", err); err != nil {
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
	r, err := rasterizer.New(sc, o)
	if err != nil {
		log.Fatal(err)
	}
	defer r.Delete()

	f := volume.PerforatorJet()
	m := isosurface.MarchingCubes(f.SampleCube(16), f.Iso) // every rank holds the mesh
	lo, hi, _ := m.Bounds()
	cam := view.Paper()[1].Fit(lo, hi, 64, 64)
	scene, err := distributed.NewScene(cl, r, distributed.Triangles(c, m),
		distributed.SceneOptions{Policy: distributed.LeftRightHandoff, ResolveAtRanks: true})
	if err != nil {
		log.Fatal(err)
	}
	defer scene.Delete()
	for frame := 0; frame < 3; frame++ {
		if _, err := scene.Frame(cam, "(45,45)"); err != nil {
			log.Fatal(err)
		}
	}

	whole, err := mesh.Upload(c, m)
	if err != nil {
		log.Fatal(err)
	}
	defer whole.Delete()
	n, err := distributed.Compare(r, whole, cam, scene.Visibility(), nil)
	if err := cl.Agree("checking the image", err); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d triangles; pixels that differ from one renderer's: %d\n", m.Len(), n)
	// Output: 908 triangles; pixels that differ from one renderer's: 0
}
