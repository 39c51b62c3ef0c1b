package scan_test

import (
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// Misuse of the families panics with a message naming the function and
// the argument, before anything runs.
func TestFamiliesMisuse(t *testing.T) {
	c := gputest.Context(t)
	s := primScanner(t, c, config{opt: scan.Options{}})
	buf := func(n int) gpu.Array[uint32] { return upload(t, c, make([]uint32, n)) }
	fbuf := func(n int) gpu.Array[float32] { return upload(t, c, make([]float32, n)) }
	a, b, six, empty := buf(5), buf(5), buf(6), buf(0)
	f := fbuf(5)

	gputest.MustPanic(t, "scan: InclusiveScanByKey: keys has 6 elements but dst has 5", func() { scan.InclusiveScanByKey(s, a, b, six, scan.Add) })
	gputest.MustPanic(t, "scan: ExclusiveScanByKey: dst and keys overlap", func() { scan.ExclusiveScanByKey(s, a, b, a, scan.Max) })
	gputest.MustPanic(t, "scan: InclusiveScanByKey: op 7 is not Add, Max, Min, And, Or or Xor", func() { scan.InclusiveScanByKey(s, a, b, f, scan.Op(7)) })
	gputest.MustPanic(t, "scan: UniqueByKey: values has 6 elements but keys has 5", func() { scan.UniqueByKey(s, a, b, buf(5), six) })
	gputest.MustPanic(t, "scan: UniqueByKeyTo: at 5 is out of range of dst's 5 elements", func() { scan.UniqueByKeyTo(s, a, b, buf(5), buf(5), buf(5), 5) })
	gputest.MustPanic(t, "scan: NonTrivialRuns: offsets and lengths overlap", func() { scan.NonTrivialRuns(s, a, a, b) })
	gputest.MustPanic(t, "scan: NonTrivialRunsTo: count and keys overlap", func() { scan.NonTrivialRunsTo(s, a, b, six, six, 0) })
	gputest.MustPanic(t, "scan: ThreeWayPartitionIfTo: at 4: counts[at] and counts[at+1] are out of range of counts' 5 elements", func() {
		_ = scan.ThreeWayPartitionIfTo(s, a, b, six, buf(5), "true", "true", buf(5), 4)
	})
	gputest.MustPanic(t, "scan: ThreeWayPartitionIf: first and second overlap", func() { _, _, _ = scan.ThreeWayPartitionIf(s, a, a, six, b, "true", "true") })
	gputest.MustPanic(t, "scan: AdjacentDifference: dst and src overlap", func() { scan.AdjacentDifference(s, a, a) })
	gputest.MustPanic(t, "scan: LowerBound: queries has 6 elements but dst has 5", func() { scan.LowerBound(s, a, b, six) })
	gputest.MustPanic(t, "scan: Merge: a and b together has 11 elements but dst has 5", func() { scan.Merge(s, a, b, six) })
	gputest.MustPanic(t, "scan: MergePairs: dstVals and dstKeys overlap", func() {
		ten := buf(10)
		scan.MergePairs(s, ten, ten, a, b, a, b)
	})
	gputest.MustPanic(t, "scan: MultiHistogramEven: samples has 5 elements, not a whole number of pixels of 2 channels", func() {
		scan.MultiHistogramEven(s, []gpu.Array[uint32]{a}, b, 2, []uint32{0}, []uint32{1})
	})
	gputest.MustPanic(t, "scan: MultiHistogramEven: 3 counts arrays for 2 channels: want 1 to 2", func() {
		scan.MultiHistogramEven(s, []gpu.Array[uint32]{a, b, six}, six, 2, []uint32{0}, []uint32{1})
	})
	gputest.MustPanic(t, "scan: MultiHistogramEven: counts[0] is empty", func() {
		scan.MultiHistogramEven(s, []gpu.Array[uint32]{empty}, six, 2, []uint32{0}, []uint32{1})
	})
	gputest.MustPanic(t, "scan: MultiHistogramEven: channel 0: lower 1 is not below upper 1", func() {
		scan.MultiHistogramEven(s, []gpu.Array[uint32]{a}, six, 1, []uint32{1}, []uint32{1})
	})
	gputest.MustPanic(t, "scan: MultiHistogramEven: 1 lower and 2 upper ends for 1 counts arrays", func() {
		scan.MultiHistogramEven(s, []gpu.Array[uint32]{a}, six, 1, []uint32{1}, []uint32{1, 2})
	})
}
