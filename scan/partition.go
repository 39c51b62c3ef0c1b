package scan

import (
	"fmt"

	"github.com/dpgl/dpgl/gpu"
)

// Partition copies src to dst in two parts, both in src's order: first the
// src[i] with flags[i] != 0, then the others, and returns the size of the
// first part. (CUB's DevicePartition puts the rejected part in reverse
// order; this one is stable on both sides, like a stable sort by the flag.)
// dst, src and flags have the same length; dst may not overlap src or
// flags. T is any plain-data type whose size is a multiple of 4 bytes.
// Two passes: a reduction counts the selected (where the rejected part
// starts), then one scan of the flags moves every record (OUT_PARTITION).
// Scratch: one word. It waits for the GPU.
func Partition[T any](s *Scanner, dst, src gpu.Array[T], flags gpu.Array[uint32]) int {
	const fn = "Partition"
	w, n := partitionArgs(s, fn, dst, src)
	sameLen(fn, "src", n, "flags", array(s, fn, "flags", flags))
	disjoint(fn, "dst", dst, "flags", flags)
	j := &scanJob{fn: fn, typ: 0, op: Add, out: outPartition, words: w, n: n, src: src, flags: flags, dst: dst, dstLen: n}
	count, _ := s.partition(j) // no user code: no error
	return count
}

// PartitionTo is Partition leaving the size of the first part in
// count[at] instead of returning it, without a round trip to the host.
// count may not overlap the other arrays.
func PartitionTo[T any](s *Scanner, dst, src gpu.Array[T], flags gpu.Array[uint32], count gpu.Array[uint32], at int) {
	const fn = "PartitionTo"
	w, n := partitionArgs(s, fn, dst, src)
	sameLen(fn, "src", n, "flags", array(s, fn, "flags", flags))
	disjoint(fn, "dst", dst, "flags", flags)
	countArg(s, fn, count, at, arg{"dst", dst}, arg{"src", src}, arg{"flags", flags})
	j := &scanJob{fn: fn, typ: 0, op: Add, out: outPartition, words: w, n: n, src: src, flags: flags, dst: dst, dstLen: n}
	s.c.Do(func() { s.partitionTo(j, count, at) }) // no user code: no error
}

// PartitionIfTo is PartitionIf leaving the size of the first part in
// count[at], as PartitionTo does. It returns only the error of a
// predicate that does not compile, before anything runs.
func PartitionIfTo[T Elem](s *Scanner, dst, src gpu.Array[T], pred string, count gpu.Array[uint32], at int) error {
	const fn = "PartitionIfTo"
	w, n := partitionArgs(s, fn, dst, src)
	countArg(s, fn, count, at, arg{"dst", dst}, arg{"src", src})
	if err := checkExpr(fn, "predicate", pred); err != nil {
		return err
	}
	j := &scanJob{fn: fn, typ: 0, op: Add, out: outPartition, words: w, n: n, src: src, dst: dst, dstLen: n, predType: typeOf[T](), pred: pred}
	var err error
	s.c.Do(func() { err = s.partitionTo(j, count, at) })
	if err != nil {
		return fmt.Errorf("scan: %s: the predicate %q does not compile: %w", fn, pred, err)
	}
	return nil
}

// PartitionIfKernelTo is PartitionIfKernel leaving the size of the first
// part in count[at], as PartitionTo does.
func PartitionIfKernelTo[T Elem](s *Scanner, dst, src gpu.Array[T], pred *Predicate, count gpu.Array[uint32], at int) error {
	const fn = "PartitionIfKernelTo"
	w, n := partitionArgs(s, fn, dst, src)
	countArg(s, fn, count, at, arg{"dst", dst}, arg{"src", src})
	checkPredicate(fn, pred)
	j := &scanJob{fn: fn, typ: 0, op: Add, out: outPartition, words: w, n: n, src: src, dst: dst, dstLen: n, predType: typeOf[T](), user: pred}
	var err error
	s.c.Do(func() { err = s.partitionTo(j, count, at) })
	if err != nil {
		return fmt.Errorf("scan: %s: %w", fn, err)
	}
	return nil
}

// PartitionIf is Partition with the flags computed from the GLSL
// expression pred over x and i, as SelectIf's: the elements for which it
// holds first, the others after, both in order. A pred that does not
// compile is returned as an error. pred is evaluated twice per element
// (counting, then moving). Scratch: one word. It waits for the GPU.
func PartitionIf[T Elem](s *Scanner, dst, src gpu.Array[T], pred string) (int, error) {
	const fn = "PartitionIf"
	w, n := partitionArgs(s, fn, dst, src)
	if err := checkExpr(fn, "predicate", pred); err != nil {
		return 0, err
	}
	j := &scanJob{fn: fn, typ: 0, op: Add, out: outPartition, words: w, n: n, src: src, dst: dst, dstLen: n, predType: typeOf[T](), pred: pred}
	count, err := s.partition(j)
	if err != nil {
		return 0, fmt.Errorf("scan: %s: the predicate %q does not compile: %w", fn, pred, err)
	}
	return count, nil
}

// PartitionIfKernel is PartitionIf with the predicate a function of the
// user's GLSL file (see Predicate). A file that does not compile is
// returned as an error naming the file and line. Scratch: one word. It
// waits for the GPU.
func PartitionIfKernel[T Elem](s *Scanner, dst, src gpu.Array[T], pred *Predicate) (int, error) {
	const fn = "PartitionIfKernel"
	w, n := partitionArgs(s, fn, dst, src)
	checkPredicate(fn, pred)
	j := &scanJob{fn: fn, typ: 0, op: Add, out: outPartition, words: w, n: n, src: src, dst: dst, dstLen: n, predType: typeOf[T](), user: pred}
	count, err := s.partition(j)
	if err != nil {
		return 0, fmt.Errorf("scan: %s: %w", fn, err)
	}
	return count, nil
}

func partitionArgs[T any](s *Scanner, fn string, dst, src gpu.Array[T]) (w, n int) {
	s.live(fn)
	w = recordWords[T](fn)
	n = array(s, fn, "dst", dst)
	sameLen(fn, "dst", n, "src", array(s, fn, "src", src))
	disjoint(fn, "dst", dst, "src", src)
	return w, n
}

// partition runs j (partitionTo) with the count in scratch and returns
// it, or the error of building a kernel around the user's predicate.
func (s *Scanner) partition(j *scanJob) (int, error) {
	var count uint32
	var err error
	s.c.Do(func() {
		// The kernels first: a predicate that does not compile
		// allocates no scratch.
		if err = s.partitionPrepare(j); err != nil || j.n == 0 {
			return
		}
		cnt := s.scratch(j.fn, scratchCount, 1)
		if err = s.partitionTo(j, cnt, 0); err != nil {
			return
		}
		var v [1]uint32
		cnt.Read(0, v[:])
		count = v[0]
	})
	return int(count), err
}

// partitionPrepare builds the kernels partitionTo will use: prepare's, and
// the predicate's count.
func (s *Scanner) partitionPrepare(j *scanJob) error {
	if err := s.prepare(j); err != nil {
		return err
	}
	if j.loadMap() == mapPredicate {
		if _, _, err := s.programErr(j.reduceKey()); err != nil {
			return err
		}
	}
	return nil
}

// partitionTo counts the selected elements of j (flags or predicate) into
// cnt[at], then runs j (OUT_PARTITION), which starts the rejected part at
// that count. It returns the error of building a kernel around the user's
// predicate, before anything runs. It runs on the GL thread.
func (s *Scanner) partitionTo(j *scanJob, cnt gpu.Storage, at int) error {
	if err := s.partitionPrepare(j); err != nil {
		return err
	}
	pred := j.loadMap() == mapPredicate
	if j.n == 0 {
		s.reduceTo(j.fn, 0, Add, mapValues, nil, 0, cnt, at) // the count, 0
		return nil
	}
	counted := 0
	if s.pathFor(j) == PathReduceThenScan && j.n > s.tile {
		// Reduce-then-scan's top level counts them on the way.
		j.levelTotal, j.levelTotalAt = cnt, at
	} else {
		if pred {
			s.countPredicate(j, cnt, at)
		} else {
			s.reduceTo(j.fn, 0, Add, mapCount, j.flags, j.n, cnt, at)
		}
		counted = s.LastPlan().Dispatches
	}
	j.count, j.countAt = cnt, at
	s.run(j)
	plan := s.LastPlan()
	plan.Dispatches += counted
	s.setPlan(plan)
	return nil
}
