package scan

import (
	"strconv"

	"github.com/dpgl/dpgl/gpu"
)

// AdjacentDifference sets dst[0] = src[0] and dst[i] = src[i] - src[i-1]
// (Thrust's adjacent_difference; the inverse of InclusiveScan with Add):
// 1 4 9 16 gives 1 3 5 7. Integers wrap around; floats subtract in
// float32, rounding once (as the driver rounds: a CPU driver may flush
// subnormal results to zero); element 0 is copied bit for bit. dst and src have the same length and may not overlap. One
// pass that reads each element about once (a vector's first reads the
// element before it too). No scratch.
func AdjacentDifference[T Elem](s *Scanner, dst, src gpu.Array[T]) {
	const fn = "AdjacentDifference"
	s.live(fn)
	n := array(s, fn, "dst", dst)
	sameLen(fn, "dst", n, "src", array(s, fn, "src", src))
	disjoint(fn, "dst", dst, "src", src)
	c := s.c
	c.Do(func() {
		p := s.primProgram("scan/adjdiff.comp", map[string]string{
			"TYPE": strconv.Itoa(typeOf[T]()), "ITEMS": strconv.Itoa(mapItems),
		})
		if n == 0 {
			return
		}
		c.BindStorage(0, src)
		c.BindStorage(1, src)
		c.BindStorage(2, dst)
		c.BindStorage(3, dst)
		p.SetUint("n", uint32(n))
		p.DispatchItems(n, 4*mapItems)
		c.Barrier(gpu.BarrierStorage)
		s.setPlan(Plan{Levels: 1, Dispatches: 1})
	})
}
