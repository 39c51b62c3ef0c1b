package scan_test

import (
	"fmt"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan"
)

// withScanner runs f with a Scanner on a headless context, or prints why
// there is none.
func withScanner(f func(c *gpu.Context, s *scan.Scanner)) {
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
	f(c, s)
}

// Eight samples in four bins over [0, 1). NaN and the samples outside
// the bins count nowhere.
func ExampleHistogramEven() {
	withScanner(func(c *gpu.Context, s *scan.Scanner) {
		nan := float32(0)
		nan /= nan
		samples, _ := gpu.NewBufferFrom(c, []float32{0.1, 0.2, 0.3, 0.6, 0.99, 1, -0.5, nan})
		defer samples.Delete()
		counts, _ := gpu.NewBuffer[uint32](c, 4)
		defer counts.Delete()
		scan.HistogramEven(s, gpu.Array[uint32](counts), gpu.Array[float32](samples), 0, 1)
		fmt.Println(counts.Download())
	})
	// Output:
	// [2 1 1 1]
}

// The same samples in three bins of chosen boundaries, [0, 0.25),
// [0.25, 0.5) and [0.5, 2).
func ExampleHistogramRange() {
	withScanner(func(c *gpu.Context, s *scan.Scanner) {
		nan := float32(0)
		nan /= nan
		samples, _ := gpu.NewBufferFrom(c, []float32{0.1, 0.2, 0.3, 0.6, 0.99, 1, -0.5, nan})
		defer samples.Delete()
		bounds, _ := gpu.NewBufferFrom(c, []float32{0, 0.25, 0.5, 2})
		defer bounds.Delete()
		counts, _ := gpu.NewBuffer[uint32](c, 3)
		defer counts.Delete()
		scan.HistogramRange(s, gpu.Array[uint32](counts), gpu.Array[float32](samples), gpu.Array[float32](bounds))
		fmt.Println(counts.Download())
	})
	// Output:
	// [2 1 3]
}

// Select the even numbers by a GLSL predicate, in order. A predicate that
// does not compile is an error.
func ExampleSelectIf() {
	withScanner(func(c *gpu.Context, s *scan.Scanner) {
		src, _ := gpu.NewBufferFrom(c, []uint32{5, 2, 8, 3, 4, 7})
		defer src.Delete()
		dst, _ := gpu.NewBuffer[uint32](c, 6)
		defer dst.Delete()
		k, err := scan.SelectIf(s, gpu.Array[uint32](dst), src, "(x & 1u) == 0u")
		fmt.Println(k, dst.Download()[:k], err)
		_, err = scan.SelectIf(s, gpu.Array[uint32](dst), src, "x > ")
		fmt.Println(err != nil)
	})
	// Output:
	// 3 [2 8 4] <nil>
	// true
}

// Partition by a GLSL predicate: the even numbers first, then the rest,
// both parts in order.
func ExamplePartitionIf() {
	withScanner(func(c *gpu.Context, s *scan.Scanner) {
		src, _ := gpu.NewBufferFrom(c, []uint32{5, 2, 8, 3, 4, 7})
		defer src.Delete()
		dst, _ := gpu.NewBuffer[uint32](c, 6)
		defer dst.Delete()
		k, err := scan.PartitionIf(s, gpu.Array[uint32](dst), src, "(x & 1u) == 0u")
		fmt.Println(k, dst.Download(), err)
	})
	// Output:
	// 3 [2 8 4 5 3 7] <nil>
}

// Partition records (here two words each) by flags: the flagged first,
// then the rest, both parts in order.
func ExamplePartition() {
	withScanner(func(c *gpu.Context, s *scan.Scanner) {
		type item struct{ ID, Weight uint32 }
		src, _ := gpu.NewBufferFrom(c, []item{{1, 10}, {2, 0}, {3, 30}, {4, 0}})
		defer src.Delete()
		flags, _ := gpu.NewBufferFrom(c, []uint32{0, 1, 0, 1})
		defer flags.Delete()
		dst, _ := gpu.NewBuffer[item](c, 4)
		defer dst.Delete()
		k := scan.Partition(s, gpu.Array[item](dst), gpu.Array[item](src), gpu.Array[uint32](flags))
		fmt.Println(k, dst.Download())
	})
	// Output:
	// 2 [{2 0} {4 0} {1 10} {3 30}]
}

// Square each element by a GLSL expression, in place.
func ExampleTransform() {
	withScanner(func(c *gpu.Context, s *scan.Scanner) {
		buf, _ := gpu.NewBufferFrom(c, []uint32{2, 8, 4, 5, 3, 7})
		defer buf.Delete()
		err := scan.Transform(s, gpu.Array[uint32](buf), gpu.Array[uint32](buf), "x * x")
		fmt.Println(buf.Download(), err)
	})
	// Output:
	// [4 64 16 25 9 49] <nil>
}

// Runs of equal keys: the sums and the maxima of their values.
func ExampleReduceByKey() {
	withScanner(func(c *gpu.Context, s *scan.Scanner) {
		keys, _ := gpu.NewBufferFrom(c, []uint32{1, 1, 2, 2, 2, 1, 3, 3})
		defer keys.Delete()
		vals, _ := gpu.NewBufferFrom(c, []int32{1, 2, 3, 4, 5, 6, -7, 7})
		defer vals.Delete()
		unique, _ := gpu.NewBuffer[uint32](c, 8)
		defer unique.Delete()
		sums, _ := gpu.NewBuffer[int32](c, 8)
		defer sums.Delete()

		k := scan.ReduceByKey(s, gpu.Array[uint32](unique), gpu.Array[int32](sums), keys, vals, scan.Add)
		fmt.Println(unique.Download()[:k], sums.Download()[:k])
		k = scan.ReduceByKey(s, gpu.Array[uint32](unique), gpu.Array[int32](sums), keys, vals, scan.Max)
		fmt.Println(sums.Download()[:k])
	})
	// Output:
	// [1 2 1 3] [3 12 6 0]
	// [2 5 6 7]
}

// The first key of each run of equal keys (a key may come back in a later
// run).
func ExampleUnique() {
	withScanner(func(c *gpu.Context, s *scan.Scanner) {
		keys, _ := gpu.NewBufferFrom(c, []uint32{1, 1, 2, 2, 2, 1, 3, 3})
		defer keys.Delete()
		unique, _ := gpu.NewBuffer[uint32](c, 8)
		defer unique.Delete()
		k := scan.Unique(s, gpu.Array[uint32](unique), keys)
		fmt.Println(unique.Download()[:k])
	})
	// Output:
	// [1 2 1 3]
}

// Runs of equal keys: each run's key and length.
func ExampleRunLengthEncode() {
	withScanner(func(c *gpu.Context, s *scan.Scanner) {
		keys, _ := gpu.NewBufferFrom(c, []uint32{1, 1, 2, 2, 2, 1, 3, 3})
		defer keys.Delete()
		unique, _ := gpu.NewBuffer[uint32](c, 8)
		defer unique.Delete()
		lengths, _ := gpu.NewBuffer[uint32](c, 8)
		defer lengths.Delete()
		k := scan.RunLengthEncode(s, gpu.Array[uint32](unique), gpu.Array[uint32](lengths), keys)
		fmt.Println(unique.Download()[:k], lengths.Download()[:k])
	})
	// Output:
	// [1 2 1 3] [2 3 1 2]
}

// Segments [0, 2), [2, 2) (empty) and [2, 5) of five values, reduced with
// Add from an initial 100.
func ExampleSegmentedReduce() {
	withScanner(func(c *gpu.Context, s *scan.Scanner) {
		src, _ := gpu.NewBufferFrom(c, []uint32{1, 2, 3, 4, 5})
		defer src.Delete()
		offsets, _ := gpu.NewBufferFrom(c, []uint32{0, 2, 2, 5})
		defer offsets.Delete()
		dst, _ := gpu.NewBuffer[uint32](c, 3)
		defer dst.Delete()
		scan.SegmentedReduce(s, gpu.Array[uint32](dst), src, offsets, scan.Add, 100)
		fmt.Println(dst.Download())
	})
	// Output:
	// [103 100 112]
}

// Segments of sizes 2, 0 and 3: the exclusive scan of the sizes is where
// each starts; the load-balancing search tells each of the 5 items its
// segment and its rank there.
func ExampleLoadBalancingSearch() {
	withScanner(func(c *gpu.Context, s *scan.Scanner) {
		sizes, _ := gpu.NewBufferFrom(c, []uint32{2, 0, 3})
		defer sizes.Delete()
		offsets, _ := gpu.NewBuffer[uint32](c, 3)
		defer offsets.Delete()
		scan.ExclusiveScan(s, gpu.Array[uint32](offsets), sizes, scan.Add, 0)
		items := int(scan.Reduce(s, gpu.Array[uint32](sizes), scan.Add))

		segment, _ := gpu.NewBuffer[uint32](c, items)
		defer segment.Delete()
		rank, _ := gpu.NewBuffer[uint32](c, items)
		defer rank.Delete()
		scan.LoadBalancingSearch(s, gpu.Array[uint32](segment), gpu.Array[uint32](rank), offsets)
		fmt.Println(segment.Download(), rank.Download())
	})
	// Output:
	// [0 0 2 2 2] [0 1 0 1 2]
}

// Segments starting at 0, 2 and 2 (sizes 2, 0 and 3) of 5 items: interval
// expand copies each segment's value to its items.
func ExampleIntervalExpand() {
	withScanner(func(c *gpu.Context, s *scan.Scanner) {
		offsets, _ := gpu.NewBufferFrom(c, []uint32{0, 2, 2})
		defer offsets.Delete()
		values, _ := gpu.NewBufferFrom(c, []float32{0.5, 1.5, 2.5})
		defer values.Delete()
		expanded, _ := gpu.NewBuffer[float32](c, 5)
		defer expanded.Delete()
		scan.IntervalExpand(s, gpu.Array[float32](expanded), values, offsets)
		fmt.Println(expanded.Download())
	})
	// Output:
	// [0.5 0.5 2.5 2.5 2.5]
}

// Select by a predicate of one's own GLSL file, testdata/predicates/band.comp:
//
//	#version 450
//	#include "scan/select.glsl"
//	uniform float lo;
//	uniform float hi;
//	layout(std430, binding = SCAN_FIRST_FREE_BINDING) readonly buffer Allowed { uint allowed[]; };
//	bool scanPredicate(float x, uint i) {
//	    return x >= lo && x < hi && allowed[i % uint(allowed.length())] != 0u;
//	}
//
// Bind sets its uniforms and binds its buffer before each dispatch, so
// each call sees the bounds of the moment.
func ExampleSelectIfKernel() {
	withScanner(func(c *gpu.Context, s *scan.Scanner) {
		src, _ := gpu.NewBufferFrom(c, []float32{0.5, 0.1, 0.9, 0.3, 0.7, 0.2})
		defer src.Delete()
		allowed, _ := gpu.NewBufferFrom(c, []uint32{1, 1, 1, 1, 0, 1}) // all but index 4
		defer allowed.Delete()
		dst, _ := gpu.NewBuffer[float32](c, 6)
		defer dst.Delete()
		lo, hi := float32(0.25), float32(1)
		band := &scan.Predicate{
			Name: "testdata/predicates/band.comp",
			Bind: func(p *gpu.Program) {
				p.SetFloat("lo", lo)
				p.SetFloat("hi", hi)
				c.BindStorage(scan.FirstFreeBinding, allowed)
			},
		}
		k, err := scan.SelectIfKernel(s, gpu.Array[float32](dst), src, band)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(dst.Download()[:k])
		lo, hi = 0, 0.4
		k, _ = scan.PartitionIfKernel(s, gpu.Array[float32](dst), src, band)
		fmt.Println(k, dst.Download())
	})
	// Output:
	// [0.5 0.9 0.3]
	// 3 [0.1 0.3 0.2 0.5 0.9 0.7]
}
