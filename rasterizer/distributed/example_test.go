package distributed_test

import (
	"fmt"
	"slices"
	"sync"

	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/distributed"
	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// Three ranks (goroutines here, MPI processes in bench distributed) each
// drew a share of 7 triangles into a 4-pixel image; their ids count from 0
// in each share. Globalize makes them global, Composite takes the nearest
// word of each pixel at rank 0.
func ExampleComposite() {
	bounds := distributed.Partition(7, 3)
	fmt.Println("shares start at", bounds[:3])
	none := rasterizer.EmptyVisibility
	shares := [][]uint64{
		{5<<32 | 0, none, 9<<32 | 2, none}, // triangles 0-2
		{6<<32 | 1, none, 9<<32 | 0, none}, // triangles 3-4
		{4<<32 | 0, none, none, 3<<32 | 1}, // triangles 5-6
	}
	comms := distributed.Local(3)
	image := make([]uint64, 4)
	var wg sync.WaitGroup
	for r, c := range comms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			distributed.Globalize(shares[r], uint32(bounds[r]))
			var dst []uint64
			if r == 0 {
				dst = image
			}
			if _, err := distributed.Composite(c, dst, shares[r], 0); err != nil {
				panic(err)
			}
		}()
	}
	wg.Wait()
	for p, v := range image {
		if v == none {
			fmt.Printf("pixel %d: nothing\n", p)
			continue
		}
		fmt.Printf("pixel %d: depth %d, triangle %d\n", p, v>>32, uint32(v))
	}
	// Output:
	// shares start at [0 3 5]
	// pixel 0: depth 4, triangle 5
	// pixel 1: nothing
	// pixel 2: depth 9, triangle 2
	// pixel 3: depth 3, triangle 6
}

// Three ranks each own a brick of a 12^3 sphere's 11 cell layers, with
// the sample layer beyond each face, extract its surface and learn, by an
// exclusive scan of all layers' triangle counts, where its triangles go in
// the whole surface: they are the whole volume's triangles, bit for bit.
func ExampleLayerOffsets() {
	f := volume.Sphere()
	v := f.SampleCube(12)
	layers := v.Dims[2] - 1
	bounds := distributed.Partition(layers, 3)
	whole := isosurface.MarchingCubes(v, f.Iso)
	wholePos, _ := whole.Soup()
	lines := make([]string, 3)
	var wg sync.WaitGroup
	for r, c := range distributed.Local(3) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			brick := isosurface.Slab(v, bounds[r], bounds[r+1])
			m, counts, err := distributed.ExtractBrick(brick, f.Iso)
			if err != nil {
				panic(err)
			}
			first, err := distributed.LayerOffsets(c, layers, bounds[r], counts)
			if err != nil {
				panic(err)
			}
			pos, _ := m.Soup()
			same := slices.Equal(pos, wholePos[3*first[bounds[r]]:3*first[bounds[r+1]]])
			lines[r] = fmt.Sprintf("rank %d: cell layers [%d, %d) from sample layers %d-%d: triangles %d to %d, the whole's: %v",
				r, bounds[r], bounds[r+1], brick.First, brick.First+brick.Samples.Dims[2]-1, first[bounds[r]], first[bounds[r+1]]-1, same)
		}()
	}
	wg.Wait()
	for _, l := range lines {
		fmt.Println(l)
	}
	fmt.Println("whole surface:", whole.Len(), "triangles")
	// Output:
	// rank 0: cell layers [0, 4) from sample layers 0-5: triangles 0 to 197, the whole's: true
	// rank 1: cell layers [4, 8) from sample layers 3-9: triangles 198 to 501, the whole's: true
	// rank 2: cell layers [8, 11) from sample layers 7-11: triangles 502 to 619, the whole's: true
	// whole surface: 620 triangles
}
