package distributed_test

import (
	"fmt"
	"sync"

	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/distributed"
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
