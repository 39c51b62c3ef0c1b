package scan

import "github.com/dpgl/dpgl/gpu"

// Reduce returns src[0] op src[1] op ... to the host (the identity for an
// empty src). It waits for the GPU.
func Reduce[T Elem](s *Scanner, src gpu.Array[T], op Op) T {
	s.live("Reduce")
	checkOp("Reduce", op, typeOf[T]())
	n := array(s, "Reduce", "src", src)
	return fromBits[T](s.reduceToHost("Reduce", typeOf[T](), op, 0, src, n))
}

// ReduceTo sets dst[at] to src[0] op src[1] op ... (the identity for an
// empty src) without a round trip to the host; the other elements of dst
// are left alone. dst may overlap src.
func ReduceTo[T Elem](s *Scanner, dst gpu.Array[T], at int, src gpu.Array[T], op Op) {
	s.live("ReduceTo")
	checkOp("ReduceTo", op, typeOf[T]())
	m := array(s, "ReduceTo", "dst", dst)
	checkAt("ReduceTo", m, at)
	n := array(s, "ReduceTo", "src", src)
	s.reduceTo("ReduceTo", typeOf[T](), op, 0, src, n, dst, at)
}

// CountNonzero returns the number of nonzero elements of src to the host.
// It waits for the GPU.
func CountNonzero(s *Scanner, src gpu.Array[uint32]) uint32 {
	s.live("CountNonzero")
	n := array(s, "CountNonzero", "src", src)
	return s.reduceToHost("CountNonzero", 0, Add, 1, src, n)
}

// CountNonzeroTo sets dst[at] to the number of nonzero elements of src,
// without a round trip to the host. dst may overlap src.
func CountNonzeroTo(s *Scanner, dst gpu.Array[uint32], at int, src gpu.Array[uint32]) {
	s.live("CountNonzeroTo")
	m := array(s, "CountNonzeroTo", "dst", dst)
	checkAt("CountNonzeroTo", m, at)
	n := array(s, "CountNonzeroTo", "src", src)
	s.reduceTo("CountNonzeroTo", 0, Add, 1, src, n, dst, at)
}

// reduceToHost is reduceTo through the scratch result word and back, in one
// call on the GL thread so that concurrent calls do not share the word.
func (s *Scanner) reduceToHost(fn string, typ int, op Op, m int, src gpu.Storage, n int) uint32 {
	var v uint32
	s.c.Do(func() {
		res := s.grow(fn, &s.result, 4)
		s.reduceTo(fn, typ, op, m, src, n, res, 0)
		v = res.Get(0)
	})
	return v
}
