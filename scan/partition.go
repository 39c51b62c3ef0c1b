package scan

import (
	"strconv"

	"github.com/dpgl/dpgl/gpu"
)

// Partition copies src to dst in two parts, both in src's order: first the
// src[i] with flags[i] != 0, then the others, and returns the size of the
// first part. (CUB's DevicePartition puts the rejected part in reverse
// order; this one is stable on both sides, like a stable sort by the flag.)
// dst, src and flags have the same length; dst may not overlap src or
// flags. T is any plain-data type whose size is a multiple of 4 bytes.
// Scratch: two words per element. It waits for the GPU.
func Partition[T any](s *Scanner, dst, src gpu.Array[T], flags gpu.Array[uint32]) int {
	const fn = "Partition"
	w, n := partitionArgs(s, fn, dst, src)
	sameLen(fn, "src", n, "flags", array(s, fn, "flags", flags))
	disjoint(fn, "dst", dst, "flags", flags)
	var count int
	s.c.Do(func() {
		f := s.scratch(fn, scratchFlags, n)
		_ = s.predicate(fn, 0, "", flags, f, n) // FROM_FLAGS: no user expression, no error
		count = s.partition(fn, w, dst, src, f, n)
	})
	return count
}

// PartitionIf is Partition with the flags computed from the GLSL
// expression pred over x and i, as SelectIf's: the elements for which it
// holds first, the others after, both in order. A pred that does not
// compile is returned as an error. Scratch: two words per element. It
// waits for the GPU.
func PartitionIf[T Elem](s *Scanner, dst, src gpu.Array[T], pred string) (int, error) {
	const fn = "PartitionIf"
	w, n := partitionArgs(s, fn, dst, src)
	if err := checkExpr(fn, "predicate", pred); err != nil {
		return 0, err
	}
	var count int
	var err error
	s.c.Do(func() {
		f := s.scratch(fn, scratchFlags, n)
		if err = s.predicate(fn, typeOf[T](), pred, src, f, n); err != nil {
			return
		}
		count = s.partition(fn, w, dst, src, f, n)
	})
	return count, err
}

func partitionArgs[T any](s *Scanner, fn string, dst, src gpu.Array[T]) (w, n int) {
	s.live(fn)
	w = recordWords[T](fn)
	n = array(s, fn, "dst", dst)
	sameLen(fn, "dst", n, "src", array(s, fn, "src", src))
	disjoint(fn, "dst", dst, "src", src)
	return w, n
}

// partition moves src's records by the 0/1 flags f: an exclusive add-scan
// of f gives each selected record its place and, subtracted from its
// index, each rejected one the number of rejected before it. It runs on
// the GL thread and returns the selected count.
func (s *Scanner) partition(fn string, w int, dst, src gpu.Storage, f gpu.Range[uint32], n int) int {
	if n == 0 {
		return 0
	}
	c := s.c
	pos := s.scratch(fn, scratchPos, n)
	count := s.scratch(fn, scratchCount, 1)
	s.run(&scanJob{fn: fn, typ: 0, op: Add, n: n, src: f, dst: pos, dstLen: n, total: count, totalAt: 0})
	p := s.primProgram("scan/partition.comp", map[string]string{"RECORD_WORDS": strconv.Itoa(w)})
	c.BindStorage(0, src)
	c.BindStorage(1, f)
	c.BindStorage(2, pos)
	c.BindStorage(3, count)
	c.BindStorage(4, dst)
	p.SetUint("n", uint32(n))
	p.SetUint("countAt", 0)
	p.DispatchInvocations(n)
	c.Barrier(gpu.BarrierStorage)
	plan := s.LastPlan()
	plan.Dispatches += 2
	s.setPlan(plan)
	var v [1]uint32
	count.Read(0, v[:])
	return int(v[0])
}
