package scan_test

import (
	"fmt"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan"
)

// Running sums that restart where the key changes.
func ExampleInclusiveScanByKey() {
	withScanner(func(c *gpu.Context, s *scan.Scanner) {
		keys, _ := gpu.NewBufferFrom(c, []uint32{1, 1, 2, 2, 2, 1})
		defer keys.Delete()
		vals, _ := gpu.NewBufferFrom(c, []int32{1, 2, 3, 4, 5, 6})
		defer vals.Delete()
		dst, _ := gpu.NewBuffer[int32](c, 6)
		defer dst.Delete()
		scan.InclusiveScanByKey(s, gpu.Array[int32](dst), gpu.Array[int32](vals), gpu.Array[uint32](keys), scan.Add)
		fmt.Println(dst.Download())
		scan.ExclusiveScanByKey(s, gpu.Array[int32](dst), gpu.Array[int32](vals), gpu.Array[uint32](keys), scan.Add)
		fmt.Println(dst.Download())
	})
	// Output:
	// [1 3 3 7 12 6]
	// [0 1 0 3 7 0]
}

// The first key of each run and the value beside it; UniqueByKeyTo
// would leave the count 3 on the GPU instead.
func ExampleUniqueByKey() {
	withScanner(func(c *gpu.Context, s *scan.Scanner) {
		keys, _ := gpu.NewBufferFrom(c, []uint32{1, 1, 2, 2, 2, 1})
		defer keys.Delete()
		vals, _ := gpu.NewBufferFrom(c, []rune("abcdef"))
		defer vals.Delete()
		uk, _ := gpu.NewBuffer[uint32](c, 6)
		defer uk.Delete()
		uv, _ := gpu.NewBuffer[rune](c, 6)
		defer uv.Delete()
		n := scan.UniqueByKey(s, gpu.Array[uint32](uk), gpu.Array[rune](uv), gpu.Array[uint32](keys), gpu.Array[rune](vals))
		fmt.Println(n, uk.Download()[:n], string(uv.Download()[:n]))
	})
	// Output:
	// 3 [1 2 1] acf
}

// The runs of more than one key: where each starts, and how long it is.
func ExampleNonTrivialRuns() {
	withScanner(func(c *gpu.Context, s *scan.Scanner) {
		keys, _ := gpu.NewBufferFrom(c, []uint32{1, 1, 2, 3, 3, 3, 4})
		defer keys.Delete()
		offsets, _ := gpu.NewBuffer[uint32](c, 3)
		defer offsets.Delete()
		lengths, _ := gpu.NewBuffer[uint32](c, 3)
		defer lengths.Delete()
		n := scan.NonTrivialRuns(s, gpu.Array[uint32](offsets), gpu.Array[uint32](lengths), gpu.Array[uint32](keys))
		fmt.Println(n, offsets.Download()[:n], lengths.Download()[:n])
	})
	// Output:
	// 2 [0 3] [2 3]
}

// Negatives, small values and the rest, each part in input order.
func ExampleThreeWayPartitionIf() {
	withScanner(func(c *gpu.Context, s *scan.Scanner) {
		src, _ := gpu.NewBufferFrom(c, []int32{5, -1, 2, 9, -7, 0, 3})
		defer src.Delete()
		var parts [3]*gpu.Buffer[int32]
		for k := range parts {
			parts[k], _ = gpu.NewBuffer[int32](c, 7)
			defer parts[k].Delete()
		}
		n1, n2, err := scan.ThreeWayPartitionIf(s, gpu.Array[int32](parts[0]), gpu.Array[int32](parts[1]), gpu.Array[int32](parts[2]),
			gpu.Array[int32](src), "x < 0", "x < 4")
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(parts[0].Download()[:n1], parts[1].Download()[:n2], parts[2].Download()[:7-n1-n2])
	})
	// Output:
	// [-1 -7] [2 0 3] [5 9]
}

// Differences of neighbours undo an inclusive sum.
func ExampleAdjacentDifference() {
	withScanner(func(c *gpu.Context, s *scan.Scanner) {
		src, _ := gpu.NewBufferFrom(c, []uint32{1, 4, 9, 16})
		defer src.Delete()
		dst, _ := gpu.NewBuffer[uint32](c, 4)
		defer dst.Delete()
		scan.AdjacentDifference(s, gpu.Array[uint32](dst), gpu.Array[uint32](src))
		fmt.Println(dst.Download())
	})
	// Output:
	// [1 3 5 7]
}

// Where each query would go into a sorted array: before equal keys, and
// after them.
func ExampleLowerBound() {
	withScanner(func(c *gpu.Context, s *scan.Scanner) {
		sorted, _ := gpu.NewBufferFrom(c, []float32{1, 3, 3, 5})
		defer sorted.Delete()
		queries, _ := gpu.NewBufferFrom(c, []float32{0, 3, 4, 9})
		defer queries.Delete()
		dst, _ := gpu.NewBuffer[uint32](c, 4)
		defer dst.Delete()
		scan.LowerBound(s, gpu.Array[uint32](dst), gpu.Array[float32](sorted), gpu.Array[float32](queries))
		fmt.Println(dst.Download())
		scan.UpperBound(s, gpu.Array[uint32](dst), gpu.Array[float32](sorted), gpu.Array[float32](queries))
		fmt.Println(dst.Download())
	})
	// Output:
	// [0 1 3 4]
	// [0 3 3 4]
}

// Two sorted arrays merged, keys and the values that came with them: of
// the equal keys 3, a's comes first.
func ExampleMergePairs() {
	withScanner(func(c *gpu.Context, s *scan.Scanner) {
		ak, _ := gpu.NewBufferFrom(c, []uint32{1, 3, 5})
		defer ak.Delete()
		av, _ := gpu.NewBufferFrom(c, []rune("ace"))
		defer av.Delete()
		bk, _ := gpu.NewBufferFrom(c, []uint32{2, 3})
		defer bk.Delete()
		bv, _ := gpu.NewBufferFrom(c, []rune("BD"))
		defer bv.Delete()
		dk, _ := gpu.NewBuffer[uint32](c, 5)
		defer dk.Delete()
		dv, _ := gpu.NewBuffer[rune](c, 5)
		defer dv.Delete()
		scan.MergePairs(s, gpu.Array[uint32](dk), gpu.Array[rune](dv), gpu.Array[uint32](ak), gpu.Array[rune](av), gpu.Array[uint32](bk), gpu.Array[rune](bv))
		fmt.Println(dk.Download(), string(dv.Download()))
	})
	// Output:
	// [1 2 3 3 5] aBcDe
}

// RGBA pixels: red in four bins, green in two, alpha skipped.
func ExampleMultiHistogramEven() {
	withScanner(func(c *gpu.Context, s *scan.Scanner) {
		px, _ := gpu.NewBufferFrom(c, []uint32{
			0, 10, 0, 255,
			64, 200, 0, 255,
			255, 128, 0, 0,
		})
		defer px.Delete()
		red, _ := gpu.NewBuffer[uint32](c, 4)
		defer red.Delete()
		green, _ := gpu.NewBuffer[uint32](c, 2)
		defer green.Delete()
		scan.MultiHistogramEven(s, []gpu.Array[uint32]{red, green}, gpu.Array[uint32](px), 4, []uint32{0, 0}, []uint32{256, 256})
		fmt.Println(red.Download(), green.Download())
	})
	// Output:
	// [1 1 0 1] [1 2]
}
