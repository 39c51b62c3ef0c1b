package scan

import "github.com/dpgl/dpgl/gpu"

// InclusiveScanByKey is SegmentedInclusiveScan with the segments given by
// keys instead of head flags: every run of equal consecutive keys is a
// segment, dst[i] = op of the values of i's run up to and including i.
// Keys 1 1 2 2 2 1 and values 1 2 3 4 5 6 give, with Add, 1 3 3 7 12 6.
// Keys are compared by their bits as in Unique; K is any plain-data type
// whose size is a multiple of 4 bytes. dst may be values (in place); keys
// may not overlap dst. Float Add rounds as the segmented scans do (see
// Determinism): the same bits on every run. Two passes: one marks where
// the key changes, then the segmented scan. Scratch: one word per key.
func InclusiveScanByKey[K any, T Elem](s *Scanner, dst, values gpu.Array[T], keys gpu.Array[K], op Op) {
	scanByKey(s, "InclusiveScanByKey", dst, values, keys, op, true)
}

// ExclusiveScanByKey is SegmentedExclusiveScan with the segments given by
// keys, as InclusiveScanByKey: dst[i] = op of the values of i's run before
// i, the identity at the run's first element. Keys 1 1 2 2 2 1 and values
// 1 2 3 4 5 6 give, with Add, 0 1 0 3 7 0.
func ExclusiveScanByKey[K any, T Elem](s *Scanner, dst, values gpu.Array[T], keys gpu.Array[K], op Op) {
	scanByKey(s, "ExclusiveScanByKey", dst, values, keys, op, false)
}

func scanByKey[K any, T Elem](s *Scanner, fn string, dst, values gpu.Array[T], keys gpu.Array[K], op Op, inclusive bool) {
	s.live(fn)
	checkOp(fn, op, typeOf[T]())
	w := recordWords[K](fn)
	n := array(s, fn, "dst", dst)
	sameLen(fn, "dst", n, "values", array(s, fn, "values", values))
	sameLen(fn, "dst", n, "keys", array(s, fn, "keys", keys))
	inPlace(fn, dst, values)
	disjoint(fn, "dst", dst, "keys", keys)
	typ := typeOf[T]()
	s.c.Do(func() {
		heads := s.keyHeads(fn, scratchFlags, keys, w, n)
		s.run(&scanJob{fn: fn, typ: typ, op: op, seg: true, n: n, src: values, flags: heads, dst: dst,
			init: identity[T](op), inclusive: inclusive, reset: !inclusive, floatAdd: typ == 2 && op == Add})
		p := s.LastPlan()
		p.Dispatches++
		s.setPlan(p)
	})
}
