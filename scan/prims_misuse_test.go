package scan_test

import (
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// Misuse of the primitives panics with a message naming the function and
// the argument, before anything runs.
func TestPrimitivesMisuse(t *testing.T) {
	c := gputest.Context(t)
	s := primScanner(t, c, config{opt: scan.Options{}})
	buf := func(n int) gpu.Array[uint32] { return upload(t, c, make([]uint32, n)) }
	fbuf := func(n int) gpu.Array[float32] { return upload(t, c, make([]float32, n)) }
	a, b, six, empty := buf(5), buf(5), buf(6), buf(0)
	big := upload(t, c, make([]uint32, 64))

	gputest.MustPanic(t, "scan: HistogramEven: counts is empty", func() { scan.HistogramEven(s, empty, a, 0, 1) })
	gputest.MustPanic(t, "scan: HistogramEven: lower 5 is not below upper 5", func() { scan.HistogramEven(s, a, b, 5, 5) })
	gputest.MustPanic(t, "scan: HistogramEven: the range [-3e+38, 3e+38) is not finite", func() {
		scan.HistogramEven(s, a, fbuf(4), float32(-3e38), float32(3e38))
	})
	gputest.MustPanic(t, "scan: HistogramEven: counts and samples overlap", func() {
		scan.HistogramEven(s, gpu.Array[uint32](big.Slice(0, 16)), gpu.Array[uint32](big.Slice(8, 16)), 0, 9)
	})
	gputest.MustPanic(t, "scan: HistogramRange: boundaries has 5 elements, want counts' 5 + 1", func() { scan.HistogramRange(s, a, b, a) })
	gputest.MustPanic(t, "scan: HistogramRange: samples is nil", func() { scan.HistogramRange(s, a, nil, six) })

	gputest.MustPanic(t, "scan: SelectIf: dst and src overlap", func() { _, _ = scan.SelectIf(s, a, a, "x > 1u") })
	gputest.MustPanic(t, "scan: Partition: flags has 6 elements but src has 5", func() { scan.Partition(s, a, b, six) })
	gputest.MustPanic(t, "scan: PartitionIf: src has 6 elements but dst has 5", func() { _, _ = scan.PartitionIf(s, a, six, "true") })
	gputest.MustPanic(t, "scan: Transform: dst and src overlap without being the same range", func() {
		_ = scan.Transform(s, gpu.Array[uint32](big.Slice(0, 16)), gpu.Array[uint32](big.Slice(4, 16)), "x")
	})

	type odd struct{ A uint16 }
	gputest.MustPanic(t, "scan: Unique: element type scan_test.odd has 2 bytes, not a multiple of 4", func() {
		scan.Unique(s, gpu.Array[odd](upload(t, c, make([]odd, 2))), gpu.Array[odd](upload(t, c, make([]odd, 2))))
	})
	gputest.MustPanic(t, "scan: RunLengthEncode: unique and lengths overlap", func() { scan.RunLengthEncode(s, a, a, b) })
	gputest.MustPanic(t, "scan: ReduceByKey: values has 6 elements but keys has 5", func() { scan.ReduceByKey(s, a, b, a, six, scan.Add) })
	gputest.MustPanic(t, "scan: ReduceByKey: op 9 is not Add, Max, Min, And, Or or Xor", func() { scan.ReduceByKey(s, a, b, six, six, scan.Op(9)) })
	gputest.MustPanic(t, "scan: Reduce: op Xor is bitwise, for uint32 and int32 elements, not float32", func() { scan.Reduce(s, fbuf(4), scan.Xor) })
	gputest.MustPanic(t, "scan: SegmentedReduce: offsets has 5 elements, want dst's 5 + 1", func() { scan.SegmentedReduce(s, a, b, a, scan.Add, 0) })
	gputest.MustPanic(t, "scan: LoadBalancingSearch: rank has 6 elements but segment has 5", func() { scan.LoadBalancingSearch(s, a, six, b) })
	gputest.MustPanic(t, "scan: LoadBalancingSearch: segment and offsets overlap", func() { scan.LoadBalancingSearch(s, a, nil, a) })
	gputest.MustPanic(t, "scan: IntervalExpand: values has 6 elements but offsets has 5", func() { scan.IntervalExpand(s, a, six, b) })
}
