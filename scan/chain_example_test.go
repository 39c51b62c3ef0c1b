package scan_test

import (
	"fmt"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan"
	"github.com/dpgl/dpgl/scan/radix"
)

// Primitives chain on the GPU without a round trip to the host: SelectIfTo
// keeps the readings above 30 and leaves their count in a GPU word
// (results[0]); a radix sort orders them, largest first (the slots past
// the count still hold the zeros the buffer was made with, which sort
// last and add nothing); ReduceTo sums them into results[1]. The host
// reads once, at the end; Context.ReadBacks counts the copies to the host.
func Example_chain() {
	c, err := gpu.NewHeadless()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Delete()
	s, err := scan.New(c)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Delete()
	sorter, err := radix.New(c)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer sorter.Delete()

	readings, _ := gpu.NewBufferFrom(c, []uint32{12, 40, 7, 93, 55, 3, 61, 28})
	defer readings.Delete()
	kept, _ := gpu.NewBuffer[uint32](c, readings.Len()) // zero-filled
	defer kept.Delete()
	tmp, _ := gpu.NewBuffer[uint32](c, readings.Len())
	defer tmp.Delete()
	results, _ := gpu.NewBuffer[uint32](c, 2)
	defer results.Delete()

	before := c.ReadBacks()
	if err := scan.SelectIfTo(s, gpu.Array[uint32](kept), readings, "x > 30u", results, 0); err != nil {
		fmt.Println(err)
		return
	}
	if err := radix.SortKeys(sorter, gpu.Array[uint32](kept), tmp, radix.Order{Descending: true}); err != nil {
		fmt.Println(err)
		return
	}
	scan.ReduceTo(s, gpu.Array[uint32](results), 1, kept, scan.Add)
	fmt.Println("read-backs between the steps:", c.ReadBacks()-before)

	r := results.Download()
	fmt.Printf("%d readings above 30, sum %d, largest first: %v\n", r[0], r[1], kept.Download()[:r[0]])
	// Output:
	// read-backs between the steps: 0
	// 4 readings above 30, sum 249, largest first: [93 61 55 40]
}
