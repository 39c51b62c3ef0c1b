package scan

import "github.com/dpgl/dpgl/gpu"

// Compact copies the src[i] with flags[i] != 0, in order, to the front of
// dst and returns how many there are. Elements that would land at or past
// dst.Len() are dropped (the count still includes them), so dst may be
// shorter than src when the caller knows a bound. T is any plain-data type
// whose size is a multiple of 4 bytes. dst may not overlap src or flags.
// It waits for the GPU.
func Compact[T any](s *Scanner, dst, src gpu.Array[T], flags gpu.Array[uint32]) int {
	var count uint32
	s.live("Compact")
	j := compactJob(s, "Compact", dst, src, flags)
	s.c.Do(func() {
		j.total, j.totalAt = s.grow("Compact", &s.result, 4), 0
		s.run(j)
		count = s.result.Get(0)
	})
	return int(count)
}

// CompactTo is Compact leaving the count in count[at] instead of returning
// it, without a round trip to the host. count may not overlap the other
// arrays.
func CompactTo[T any](s *Scanner, dst, src gpu.Array[T], flags gpu.Array[uint32], count gpu.Array[uint32], at int) {
	s.live("CompactTo")
	j := compactJob(s, "CompactTo", dst, src, flags)
	checkAt("CompactTo", array(s, "CompactTo", "count", count), at)
	disjoint("CompactTo", "dst", dst, "count", count)
	disjoint("CompactTo", "src", src, "count", count)
	disjoint("CompactTo", "flags", flags, "count", count)
	j.total, j.totalAt = count, at
	s.run(j)
}

func compactJob[T any](s *Scanner, fn string, dst, src gpu.Array[T], flags gpu.Array[uint32]) *scanJob {
	w := recordWords[T](fn)
	m := array(s, fn, "dst", dst)
	n := array(s, fn, "src", src)
	sameLen(fn, "src", n, "flags", array(s, fn, "flags", flags))
	disjoint(fn, "dst", dst, "src", src)
	disjoint(fn, "dst", dst, "flags", flags)
	// An exclusive add-scan of (flags[i] != 0) is each kept element's
	// position; the kernel moves the record there.
	return &scanJob{fn: fn, typ: 0, op: Add, out: outCompact, words: w, n: n, src: src, flags: flags, dst: dst, dstLen: m}
}
