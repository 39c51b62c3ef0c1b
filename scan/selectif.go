package scan

import (
	"fmt"

	"github.com/dpgl/dpgl/gpu"
)

// SelectIf copies the src[i] for which the GLSL expression pred holds, in
// order, to the front of dst, and returns how many there are. pred sees x,
// the element (a uint, int or float as T), and i, its index (a uint), and
// is converted to bool: "x > 0.5", "(x & 1u) == 0u", "i % 3u == 0u &&
// !isnan(x)". It is spliced into the kernel as a #define, one line; an
// expression the driver cannot compile is returned as an error that
// quotes it with the driver's log. Elements past dst.Len() are dropped as
// by Compact. dst may not overlap src. One pass: each tile evaluates pred
// as it loads its elements, counts them, learns how many the tiles before
// it kept (the look-back) and writes its own. No scratch. It waits for the
// GPU.
func SelectIf[T Elem](s *Scanner, dst, src gpu.Array[T], pred string) (int, error) {
	const fn = "SelectIf"
	j := selectJob(s, fn, dst, src)
	if err := checkExpr(fn, "predicate", pred); err != nil {
		return 0, err
	}
	j.pred = pred
	n, err := s.compactCount(j)
	if err != nil {
		return 0, fmt.Errorf("scan: %s: the predicate %q does not compile: %w", fn, pred, err)
	}
	return n, nil
}

// SelectIfKernel is SelectIf with the predicate a function of the user's
// GLSL file (see Predicate): the src[i] for which scanPredicate(src[i], i)
// holds go to the front of dst, in order. A file that does not compile is
// returned as an error naming the file and line. It waits for the GPU.
func SelectIfKernel[T Elem](s *Scanner, dst, src gpu.Array[T], pred *Predicate) (int, error) {
	const fn = "SelectIfKernel"
	j := selectJob(s, fn, dst, src)
	checkPredicate(fn, pred)
	j.user = pred
	n, err := s.compactCount(j)
	if err != nil {
		return 0, fmt.Errorf("scan: %s: %w", fn, err)
	}
	return n, nil
}

// SelectIfTo is SelectIf leaving the count in count[at] instead of
// returning it: no round trip to the host, so that the next kernel (a sort
// of the kept elements, a reduction, an indirect dispatch) reads it where
// it is. count may not overlap dst or src. It returns only the error of a
// predicate that does not compile, before anything runs.
func SelectIfTo[T Elem](s *Scanner, dst, src gpu.Array[T], pred string, count gpu.Array[uint32], at int) error {
	const fn = "SelectIfTo"
	j := selectJob(s, fn, dst, src)
	countArg(s, fn, count, at, arg{"dst", dst}, arg{"src", src})
	if err := checkExpr(fn, "predicate", pred); err != nil {
		return err
	}
	j.pred = pred
	if err := s.compactTo(j, count, at); err != nil {
		return fmt.Errorf("scan: %s: the predicate %q does not compile: %w", fn, pred, err)
	}
	return nil
}

// SelectIfKernelTo is SelectIfKernel leaving the count in count[at], as
// SelectIfTo does.
func SelectIfKernelTo[T Elem](s *Scanner, dst, src gpu.Array[T], pred *Predicate, count gpu.Array[uint32], at int) error {
	const fn = "SelectIfKernelTo"
	j := selectJob(s, fn, dst, src)
	countArg(s, fn, count, at, arg{"dst", dst}, arg{"src", src})
	checkPredicate(fn, pred)
	j.user = pred
	if err := s.compactTo(j, count, at); err != nil {
		return fmt.Errorf("scan: %s: %w", fn, err)
	}
	return nil
}

func selectJob[T Elem](s *Scanner, fn string, dst, src gpu.Array[T]) *scanJob {
	s.live(fn)
	m := array(s, fn, "dst", dst)
	n := array(s, fn, "src", src)
	disjoint(fn, "dst", dst, "src", src)
	return &scanJob{fn: fn, typ: 0, op: Add, out: outCompact, words: 1, n: n, src: src, dst: dst, dstLen: m, predType: typeOf[T]()}
}

// compactCount runs j, a compaction (OUT_COMPACT), and returns
// its count, or the error of building a kernel around the user's
// predicate.
func (s *Scanner) compactCount(j *scanJob) (int, error) {
	var count uint32
	var err error
	s.c.Do(func() {
		if err = s.compactTo(j, s.grow(j.fn, &s.result, 4), 0); err == nil {
			count = s.result.Get(0)
		}
	})
	return int(count), err
}

// compactTo runs j, a compaction, leaving its count in count[at].
func (s *Scanner) compactTo(j *scanJob, count gpu.Storage, at int) error {
	var err error
	s.c.Do(func() {
		j.total, j.totalAt = count, at
		if err = s.prepare(j); err == nil {
			s.run(j)
		}
	})
	return err
}

// prepare builds the kernels that run(j) will use, so that a kernel around
// a user's predicate fails here, with an error, rather than in run. It
// runs on the GL thread.
func (s *Scanner) prepare(j *scanJob) error {
	var keys []progKey
	j.lanes = s.laneCarry(j)
	if s.pathFor(j) == PathLookBack {
		k := j.key(2, true)
		k.spin, k.nopub = s.spin, s.nopub
		keys = append(keys, k)
	} else {
		carry := 0
		if j.n > s.tile {
			carry = 1
			keys = append(keys, j.reduceKey())
		}
		keys = append(keys, j.key(carry, true))
	}
	for _, k := range keys {
		if _, _, err := s.programErr(k); err != nil {
			return err
		}
	}
	return nil
}
