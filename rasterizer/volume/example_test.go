package volume_test

import (
	"fmt"
	"math"

	"github.com/dpgl/dpgl/rasterizer/volume"
)

// Shrinking a volume averages what each new sample covers: a row of 0s and
// 1s alternating (a pattern too fine for the new grid) becomes grey inside
// (samples on the grid's faces keep their value across the face), and a
// NaN is left out of the averages, not spread (the middle sample averages
// 0, 1, 0, 1 with weights 1/8, 1/4, 1/4, 1/4 and drops the NaN's 1/8:
// 0.5/0.875).
func ExampleResample() {
	v := volume.New([3]int{9, 1, 1}, [3]float32{0.5, 1, 1}, [3]float32{})
	copy(v.Data, []float32{0, 1, 0, 1, 0, 1, float32(math.NaN()), 1, 0})
	r, err := volume.Resample(v, 3)
	if err != nil {
		panic(err)
	}
	lo, hi := r.Bounds()
	fmt.Println(r.Dims, r.Spacing, lo, hi)
	fmt.Printf("%.3f\n", r.Data)
	// Output:
	// [3 1 1] [2 1 1] [0 0 0] [4 0 0]
	// [0.000 0.571 0.000]
}

// A request too large for the machine is refused before anything is
// allocated, with an error that says why.
func ExampleCheckGrid() {
	volume.SetMemoryLimit(1 << 30)
	defer volume.SetMemoryLimit(0)
	fmt.Println(volume.CheckGrid([3]int{256, 256, 256}))
	fmt.Println(volume.CheckGrid([3]int{600, 600, 600}))
	fmt.Println(volume.CheckGrid([3]int{100000, 100000, 100000}))
	// Output:
	// <nil>
	// volume: a 600x600x600 volume needs 824.0 MiB as float32, more than the 512.0 MiB a volume may use (half of the memory limit, 1.0 GiB)
	// volume: a 100000x100000x100000 volume has 1000000000000000 samples, more than the 2147483647 (2^31-1) the kernels can index
}
