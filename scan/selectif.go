package scan

import (
	"strconv"

	"github.com/dpgl/dpgl/gpu"
)

// SelectIf copies the src[i] for which the GLSL expression pred holds, in
// order, to the front of dst, and returns how many there are: Compact
// with the flags computed from pred. pred sees x, the element (a uint,
// int or float as T), and i, its index (a uint), and is converted to
// bool: "x > 0.5", "(x & 1u) == 0u", "i % 3u == 0u && !isnan(x)". It is
// spliced into the kernel as a #define, one line; an expression the
// driver cannot compile is returned as an error that quotes it with the
// driver's log. Elements past dst.Len() are dropped as by Compact. dst
// may not overlap src. Scratch: one word per element. It waits for the
// GPU.
func SelectIf[T Elem](s *Scanner, dst, src gpu.Array[T], pred string) (int, error) {
	const fn = "SelectIf"
	s.live(fn)
	array(s, fn, "dst", dst)
	n := array(s, fn, "src", src)
	disjoint(fn, "dst", dst, "src", src)
	if err := checkExpr(fn, "predicate", pred); err != nil {
		return 0, err
	}
	var count int
	var err error
	s.c.Do(func() {
		flags := s.scratch(fn, scratchFlags, n)
		if err = s.predicate(fn, typeOf[T](), pred, src, flags, n); err != nil {
			return
		}
		count = Compact(s, dst, src, gpu.Array[uint32](flags))
	})
	return count, err
}

// predicate writes flags[i] = pred(src[i]) (0 or 1) for i < n; an empty
// pred normalizes src's nonzero flags to 1 instead (callers check user
// predicates with checkExpr first). It runs on the GL thread.
func (s *Scanner) predicate(fn string, typ int, pred string, src gpu.Storage, flags gpu.Range[uint32], n int) error {
	c := s.c
	d := map[string]string{"TYPE": strconv.Itoa(typ), "ITEMS": strconv.Itoa(mapItems)}
	var p *gpu.Program
	if pred == "" {
		d["FROM_FLAGS"] = "1"
		p = s.primProgram("scan/predicate.comp", d)
	} else {
		d["PRED_EXPR"] = pred
		var err error
		if p, err = s.userProgram(fn, "predicate", pred, "scan/predicate.comp", d); err != nil {
			return err
		}
	}
	if n == 0 {
		return nil
	}
	c.BindStorage(0, src)
	c.BindStorage(1, src)
	c.BindStorage(2, flags)
	c.BindStorage(3, flags)
	p.SetUint("n", uint32(n))
	p.DispatchItems(n, 4*mapItems)
	c.Barrier(gpu.BarrierStorage) // the scan reads the flags
	return nil
}
