package scan

import "github.com/dpgl/dpgl/gpu"

// ExclusiveScan sets dst[0] = init and dst[i] = init op src[0] op ... op
// src[i-1]: with Add and init 0, dst[i] is the sum of the elements before
// i. dst and src have the same length; dst may be src (in place), but may
// not overlap it otherwise.
func ExclusiveScan[T Elem](s *Scanner, dst, src gpu.Array[T], op Op, init T) {
	scanValues(s, "ExclusiveScan", dst, src, op, bitsOf(init), false)
}

// InclusiveScan sets dst[i] = src[0] op ... op src[i]. dst and src have the
// same length; dst may be src (in place), but may not overlap it otherwise.
func InclusiveScan[T Elem](s *Scanner, dst, src gpu.Array[T], op Op) {
	scanValues(s, "InclusiveScan", dst, src, op, identity[T](op), true)
}

func scanValues[T Elem](s *Scanner, fn string, dst, src gpu.Array[T], op Op, init uint32, inclusive bool) {
	s.live(fn)
	checkOp(fn, op, typeOf[T]())
	n := array(s, fn, "dst", dst)
	sameLen(fn, "dst", n, "src", array(s, fn, "src", src))
	inPlace(fn, dst, src)
	typ := typeOf[T]()
	s.run(&scanJob{fn: fn, typ: typ, op: op, n: n, src: src, dst: dst, init: init, inclusive: inclusive,
		floatAdd: typ == 2 && op == Add})
}
