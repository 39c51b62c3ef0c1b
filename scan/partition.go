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

// partition counts the selected elements of j (flags or predicate) into
// scratch, then runs j (OUT_PARTITION), which starts the rejected part at
// that count. It returns the count, or the error of building a kernel
// around the user's predicate.
func (s *Scanner) partition(j *scanJob) (int, error) {
	var count uint32
	var err error
	s.c.Do(func() {
		if err = s.prepare(j); err != nil {
			return
		}
		pred := j.loadMap() == mapPredicate
		if pred {
			if _, _, err = s.programErr(j.reduceKey()); err != nil {
				return
			}
		}
		if j.n == 0 {
			return
		}
		cnt := s.scratch(j.fn, scratchCount, 1)
		counted := 0
		if s.pathFor(j) == PathReduceThenScan && j.n > s.tile {
			// Reduce-then-scan's top level counts them on the way.
			j.levelTotal, j.levelTotalAt = cnt, 0
		} else {
			if pred {
				s.countPredicate(j, cnt, 0)
			} else {
				s.reduceTo(j.fn, 0, Add, mapCount, j.flags, j.n, cnt, 0)
			}
			counted = s.LastPlan().Dispatches
		}
		j.count, j.countAt = cnt, 0
		s.run(j)
		plan := s.LastPlan()
		plan.Dispatches += counted
		s.setPlan(plan)
		var v [1]uint32
		cnt.Read(0, v[:])
		count = v[0]
	})
	return int(count), err
}
