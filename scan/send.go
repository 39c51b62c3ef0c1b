package scan

import "github.com/dpgl/dpgl/gpu"

// Send (the general send, or scatter) sets dst[index[i]] = src[i] for every
// i with index[i] < dst.Len(); larger indices (e.g. 0xFFFFFFFF) mean "do
// not send". Where several i send to one element, the highest i wins, on
// every run. Elements of dst that receive nothing keep their value. src and
// index have the same length; dst may not overlap either. T is any
// plain-data type whose size is a multiple of 4 bytes.
func Send[T any](s *Scanner, dst, src gpu.Array[T], index gpu.Array[uint32]) {
	const fn = "Send"
	w, m, n := sendArgs(s, fn, dst, src, index)
	if n == 0 || m == 0 {
		return
	}
	c := s.c
	c.Do(func() {
		win := s.grow(fn, &s.winner, m)
		mark, _ := s.program(progKey{file: "scan/send.comp", pass: 0, words: w})
		c.BindStorage(0, src)
		c.BindStorage(1, index)
		c.BindStorage(2, win)
		c.BindStorage(3, dst)
		mark.SetUint("n", uint32(n))
		mark.SetUint("dstLen", uint32(m))
		mark.DispatchInvocations(n)
		c.Barrier(gpu.BarrierStorage) // apply reads the winners
		apply, _ := s.program(progKey{file: "scan/send.comp", pass: 1, words: w})
		apply.SetUint("n", uint32(m))
		apply.SetUint("dstLen", uint32(m))
		apply.DispatchInvocations(m)
		c.Barrier(gpu.BarrierStorage)
		s.setPlan(Plan{Levels: 1, Dispatches: 2})
	})
}

// sendArgs checks the arguments of Send and SendDistinct and returns the
// record's words and the lengths of dst and src.
func sendArgs[T any](s *Scanner, fn string, dst, src gpu.Array[T], index gpu.Array[uint32]) (w, m, n int) {
	s.live(fn)
	w = recordWords[T](fn)
	m = array(s, fn, "dst", dst)
	n = array(s, fn, "src", src)
	sameLen(fn, "src", n, "index", array(s, fn, "index", index))
	disjoint(fn, "dst", dst, "src", src)
	disjoint(fn, "dst", dst, "index", index)
	return w, m, n
}

// SendDistinct is Send for callers that know the indices below dst.Len()
// are distinct (a permutation, or a compaction's positions): one pass that
// stores directly, without Send's winner scratch. With colliding indices
// an unspecified one of the colliding elements lands.
func SendDistinct[T any](s *Scanner, dst, src gpu.Array[T], index gpu.Array[uint32]) {
	const fn = "SendDistinct"
	w, m, n := sendArgs(s, fn, dst, src, index)
	if n == 0 || m == 0 {
		return
	}
	c := s.c
	c.Do(func() {
		p, _ := s.program(progKey{file: "scan/send.comp", pass: 2, words: w})
		c.BindStorage(0, src)
		c.BindStorage(1, index)
		c.BindStorage(3, dst)
		p.SetUint("n", uint32(n))
		p.SetUint("dstLen", uint32(m))
		p.DispatchInvocations(n)
		c.Barrier(gpu.BarrierStorage)
		s.setPlan(Plan{Levels: 1, Dispatches: 1})
	})
}

// Gather sets dst[i] = src[index[i]] for every i with index[i] < src.Len();
// dst[i] keeps its value where index[i] is larger. dst and index have the
// same length; dst may not overlap src or index. T is any plain-data type
// whose size is a multiple of 4 bytes.
func Gather[T any](s *Scanner, dst, src gpu.Array[T], index gpu.Array[uint32]) {
	const fn = "Gather"
	s.live(fn)
	w := recordWords[T](fn)
	n := array(s, fn, "dst", dst)
	m := array(s, fn, "src", src)
	sameLen(fn, "dst", n, "index", array(s, fn, "index", index))
	disjoint(fn, "dst", dst, "src", src)
	disjoint(fn, "dst", dst, "index", index)
	if n == 0 {
		return
	}
	c := s.c
	c.Do(func() {
		p, _ := s.program(progKey{file: "scan/gather.comp", words: w})
		c.BindStorage(0, src)
		c.BindStorage(1, index)
		c.BindStorage(3, dst)
		p.SetUint("n", uint32(n))
		p.SetUint("srcLen", uint32(m))
		p.DispatchInvocations(n)
		c.Barrier(gpu.BarrierStorage)
		s.setPlan(Plan{Levels: 1, Dispatches: 1})
	})
}
