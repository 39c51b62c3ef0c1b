package scan_test

import (
	"fmt"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan"
)

// The paper's worked example: an assignment of 5 processors to the first
// problem, 1 to the second and none to the rest. The exclusive add-scan of
// the assignment is where each problem's processors start; the paper's
// variant stores the sum of the first i elements in location i+1 with an
// initial value in location 1, which is the same scan with init 1 (1-based
// pointers).
func Example() {
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

	assignment, _ := gpu.NewBufferFrom(c, []uint32{5, 1, 0, 0, 0, 0, 0})
	defer assignment.Delete()
	pointers, _ := gpu.NewBuffer[uint32](c, assignment.Len())
	defer pointers.Delete()

	scan.ExclusiveScan(s, gpu.Array[uint32](pointers), assignment, scan.Add, 0)
	fmt.Println(pointers.Download())
	scan.ExclusiveScan(s, gpu.Array[uint32](pointers), assignment, scan.Add, 1)
	fmt.Println(pointers.Download())
	fmt.Println(scan.Reduce(s, gpu.Array[uint32](assignment), scan.Add), "processors in all")
	// Output:
	// [0 5 6 6 6 6 6]
	// [1 6 7 7 7 7 7]
	// 6 processors in all
}

// SegmentedCopy hands each processor of the example the problem it works
// on: the assignment sends problem i to the first of its processors
// (Send to the exclusive scan), and the segmented copy broadcasts it over
// the rest of that problem's processors.
func ExampleSegmentedCopy() {
	c, err := gpu.NewHeadless()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Delete()
	s, _ := scan.New(c)
	defer s.Delete()

	problem, _ := gpu.NewBufferFrom(c, []uint32{100, 101})
	start, _ := gpu.NewBufferFrom(c, []uint32{0, 5}) // exclusive scan of assignment 5 1
	heads, _ := gpu.NewBufferFrom(c, []uint32{1, 0, 0, 0, 0, 1})
	work, _ := gpu.NewBuffer[uint32](c, 6)
	for _, b := range []*gpu.Buffer[uint32]{problem, start, heads, work} {
		defer b.Delete()
	}
	scan.Send(s, gpu.Array[uint32](work), problem, start)
	scan.SegmentedCopy(s, gpu.Array[uint32](work), work, heads)
	fmt.Println(work.Download())
	// Output:
	// [100 100 100 100 100 101]
}
