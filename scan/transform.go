package scan

import (
	"strconv"

	"github.com/dpgl/dpgl/gpu"
)

// Transform sets dst[i] to the GLSL expression expr evaluated for x =
// src[i] (a uint, int or float as T) and i (its index, a uint), converted
// to U's GLSL type: Transform[float32, float32](s, dst, src, "x * x"),
// Transform[uint32, float32](s, dst, src, "float(x) / 255.0"). expr is
// spliced into the kernel as a #define, one line; one the driver cannot
// compile is returned as an error that quotes it with the driver's log.
// dst and src have the same length; dst may be src (in place), but may
// not overlap it otherwise.
func Transform[T, U Elem](s *Scanner, dst gpu.Array[U], src gpu.Array[T], expr string) error {
	const fn = "Transform"
	s.live(fn)
	n := array(s, fn, "dst", dst)
	sameLen(fn, "dst", n, "src", array(s, fn, "src", src))
	inPlace(fn, dst, src)
	if err := checkExpr(fn, "expression", expr); err != nil {
		return err
	}
	c := s.c
	var err error
	c.Do(func() {
		var p *gpu.Program
		p, err = s.userProgram(fn, "expression", expr, "scan/transform.comp", map[string]string{
			"TYPE": strconv.Itoa(typeOf[T]()), "OUT_TYPE": strconv.Itoa(typeOf[U]()), "EXPR": expr,
			"ITEMS": strconv.Itoa(mapItems),
		})
		if err != nil || n == 0 {
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
	return err
}
