package scan_test

import (
	"fmt"
	"log"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan"
)

// The whole of a program that uses dpgl: a context, a buffer, a scan, and
// the result read back (README, "Use dpgl as a library").
func Example_quickStart() {
	c, err := gpu.NewHeadless() // EGL: no display needed
	if err != nil {
		log.Fatal(err)
	}
	defer c.Delete()
	s, err := scan.New(c) // the scan kernels and their scratch memory
	if err != nil {
		log.Fatal(err)
	}
	defer s.Delete()

	src, err := gpu.NewBufferFrom(c, []uint32{3, 1, 4, 1, 5, 9, 2, 6})
	if err != nil {
		log.Fatal(err)
	}
	defer src.Delete()
	dst, err := gpu.NewBuffer[uint32](c, src.Len())
	if err != nil {
		log.Fatal(err)
	}
	defer dst.Delete()

	scan.InclusiveScan(s, gpu.Array[uint32](dst), src, scan.Add)
	fmt.Println(dst.Download())
	fmt.Println(scan.Reduce(s, gpu.Array[uint32](src), scan.Max))
	// Output:
	// [3 4 8 9 14 23 25 31]
	// 9
}
