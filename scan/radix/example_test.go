package radix_test

import (
	"fmt"
	"math"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan/radix"
)

// Example sorts the package doc's worked example, keys 3 1 2 1 with values
// a b c d, both ways: equal keys keep their input order.
func Example() {
	c, err := gpu.NewHeadless()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Delete()
	s, err := radix.New(c)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Delete()
	for _, desc := range []bool{false, true} {
		keys, _ := gpu.NewBufferFrom(c, []uint32{3, 1, 2, 1})
		vals, _ := gpu.NewBufferFrom(c, []rune{'a', 'b', 'c', 'd'})
		tmpKeys, _ := gpu.NewBuffer[uint32](c, 4)
		tmpVals, _ := gpu.NewBuffer[rune](c, 4)
		if err := radix.SortPairs(s, keys, tmpKeys, vals, tmpVals, radix.Order{Descending: desc}); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(keys.Download(), string(vals.Download()))
		for _, b := range []interface{ Delete() }{keys, vals, tmpKeys, tmpVals} {
			b.Delete()
		}
	}

	// Floats: -0 before +0, NaN after +Inf.
	nan, inf, negZero := float32(math.NaN()), float32(math.Inf(1)), float32(math.Copysign(0, -1))
	f, _ := gpu.NewBufferFrom(c, []float32{nan, 0, -inf, 2.5, negZero, inf, -1})
	tmp, _ := gpu.NewBuffer[float32](c, 7)
	defer f.Delete()
	defer tmp.Delete()
	if err := radix.SortKeys(s, f, tmp, radix.Order{}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.Download())
	// Output:
	// [1 1 2 3] bdca
	// [3 2 1 1] acbd
	// [-Inf -1 -0 0 2.5 +Inf NaN]
}

// ExampleTopK keeps the three largest keys and where they were: of the
// equal 7s, the first two.
func ExampleTopK() {
	c, err := gpu.NewHeadless()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Delete()
	s, err := radix.New(c)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Delete()
	keys, _ := gpu.NewBufferFrom(c, []int32{4, 7, -2, 7, 9, 7})
	defer keys.Delete()
	top, _ := gpu.NewBuffer[int32](c, 3)
	defer top.Delete()
	idx, _ := gpu.NewBuffer[uint32](c, 3)
	defer idx.Delete()
	if err := radix.TopK(s, gpu.Array[int32](top), gpu.Array[uint32](idx), gpu.Array[int32](keys), true); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(top.Download(), idx.Download())
	// Output:
	// [9 7 7] [4 1 3]
}

// ExampleSegmentedSortPairs sorts three segments, [0, 3), [3, 3) (empty)
// and [3, 7), each on its own.
func ExampleSegmentedSortPairs() {
	c, err := gpu.NewHeadless()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Delete()
	s, err := radix.New(c)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Delete()
	keys, _ := gpu.NewBufferFrom(c, []uint32{3, 1, 2, 9, 0, 9, 4})
	defer keys.Delete()
	vals, _ := gpu.NewBufferFrom(c, []rune("abcdefg"))
	defer vals.Delete()
	offsets, _ := gpu.NewBufferFrom(c, []uint32{0, 3, 3, 7})
	defer offsets.Delete()
	if err := radix.SegmentedSortPairs(s, gpu.Array[uint32](keys), gpu.Array[rune](vals), gpu.Array[uint32](offsets), radix.Order{}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(keys.Download(), string(vals.Download()))
	// Output:
	// [1 2 3 0 4 9 9] bcaegdf
}
