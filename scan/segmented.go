package scan

import "github.com/dpgl/dpgl/gpu"

// SegmentedExclusiveScan is ExclusiveScan restarted at every segment head:
// dst[i] = op of the elements of i's segment before i, the identity at a
// head. flags[i] != 0 marks a head; element 0 always is one. dst may be src
// (in place); flags may not overlap dst.
func SegmentedExclusiveScan[T Elem](s *Scanner, dst, src gpu.Array[T], flags gpu.Array[uint32], op Op) {
	segmented(s, "SegmentedExclusiveScan", dst, src, flags, op, false)
}

// SegmentedInclusiveScan is InclusiveScan restarted at every segment head:
// dst[i] = op of the elements of i's segment up to and including i.
// flags[i] != 0 marks a head; element 0 always is one. dst may be src (in
// place); flags may not overlap dst.
func SegmentedInclusiveScan[T Elem](s *Scanner, dst, src gpu.Array[T], flags gpu.Array[uint32], op Op) {
	segmented(s, "SegmentedInclusiveScan", dst, src, flags, op, true)
}

func segmented[T Elem](s *Scanner, fn string, dst, src gpu.Array[T], flags gpu.Array[uint32], op Op, inclusive bool) {
	s.live(fn)
	checkOp(fn, op)
	n := array(s, fn, "dst", dst)
	sameLen(fn, "dst", n, "src", array(s, fn, "src", src))
	sameLen(fn, "dst", n, "flags", array(s, fn, "flags", flags))
	inPlace(fn, dst, src)
	disjoint(fn, "dst", dst, "flags", flags)
	typ := typeOf[T]()
	s.run(&scanJob{fn: fn, typ: typ, op: op, seg: true, n: n, src: src, flags: flags, dst: dst,
		init: identity[T](op), inclusive: inclusive, reset: !inclusive, floatAdd: typ == 2 && op == Add})
}

// SegmentedCopy broadcasts the first element of each segment to the whole
// segment: dst[i] = src[h], h the last head at or before i (flags[h] != 0,
// or h = 0). T is any plain-data type whose size is a multiple of 4 bytes
// (records: the balancer's problem data). dst may be src (in place: heads
// keep their values); flags may not overlap dst.
func SegmentedCopy[T any](s *Scanner, dst, src gpu.Array[T], flags gpu.Array[uint32]) {
	const fn = "SegmentedCopy"
	s.live(fn)
	w := recordWords[T](fn)
	n := array(s, fn, "dst", dst)
	sameLen(fn, "dst", n, "src", array(s, fn, "src", src))
	sameLen(fn, "dst", n, "flags", array(s, fn, "flags", flags))
	inPlace(fn, dst, src)
	disjoint(fn, "dst", dst, "flags", flags)
	// A max-scan of (flags[i] != 0 ? i : 0) finds each element's head; the
	// kernel copies the head's record instead of storing the index.
	s.run(&scanJob{fn: fn, typ: 0, op: Max, out: outSegmentedCopy, words: w, n: n, src: src, flags: flags, dst: dst, inclusive: true})
}
