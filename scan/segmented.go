package scan

import (
	"fmt"
	"strconv"

	"github.com/dpgl/dpgl/gpu"
)

// SegmentedExclusiveScan is ExclusiveScan restarted at every segment head:
// dst[i] = op of the elements of i's segment before i, the identity at a
// head. flags[i] != 0 marks a head; element 0 always is one. dst may be src
// (in place); flags may not overlap dst.
func SegmentedExclusiveScan[T Elem](s *Scanner, dst, src gpu.Array[T], flags gpu.Array[uint32], op Op) {
	segmented(s, "SegmentedExclusiveScan", dst, src, flags, op, false)
}

// SegmentedInclusiveScan is InclusiveScan restarted at every segment head:
// dst[i] = op of the elements of i's segment up to and including i.
// flags[i] != 0 marks a head; element 0 always is one. dst may be src (in
// place); flags may not overlap dst.
func SegmentedInclusiveScan[T Elem](s *Scanner, dst, src gpu.Array[T], flags gpu.Array[uint32], op Op) {
	segmented(s, "SegmentedInclusiveScan", dst, src, flags, op, true)
}

func segmented[T Elem](s *Scanner, fn string, dst, src gpu.Array[T], flags gpu.Array[uint32], op Op, inclusive bool) {
	s.live(fn)
	checkOp(fn, op, typeOf[T]())
	n := array(s, fn, "dst", dst)
	sameLen(fn, "dst", n, "src", array(s, fn, "src", src))
	sameLen(fn, "dst", n, "flags", array(s, fn, "flags", flags))
	inPlace(fn, dst, src)
	disjoint(fn, "dst", dst, "flags", flags)
	typ := typeOf[T]()
	s.run(&scanJob{fn: fn, typ: typ, op: op, seg: true, n: n, src: src, flags: flags, dst: dst,
		init: identity[T](op), inclusive: inclusive, reset: !inclusive, floatAdd: typ == 2 && op == Add})
}

// SegmentedCopy broadcasts the first element of each segment to the whole
// segment: dst[i] = src[h], h the last head at or before i (flags[h] != 0,
// or h = 0). T is any plain-data type whose size is a multiple of 4 bytes
// (records: the balancer's problem data). dst may be src (in place: heads
// keep their values); flags may not overlap dst.
func SegmentedCopy[T any](s *Scanner, dst, src gpu.Array[T], flags gpu.Array[uint32]) {
	const fn = "SegmentedCopy"
	s.live(fn)
	w := recordWords[T](fn)
	n := array(s, fn, "dst", dst)
	sameLen(fn, "dst", n, "src", array(s, fn, "src", src))
	sameLen(fn, "dst", n, "flags", array(s, fn, "flags", flags))
	inPlace(fn, dst, src)
	disjoint(fn, "dst", dst, "flags", flags)
	// A max-scan of (flags[i] != 0 ? i : 0) finds each element's head; the
	// kernel copies the head's record instead of storing the index.
	s.run(&scanJob{fn: fn, typ: 0, op: Max, out: outSegmentedCopy, words: w, n: n, src: src, flags: flags, dst: dst, inclusive: true})
}

// segReduceItems is segreduce.comp's ITEMS: an invocation walks a chunk of
// 4*segReduceItems consecutive elements.
const segReduceItems = 16

// SegmentedReduce sets dst[j] = init op src[b] op ... op src[e-1] for the
// segment [b, e) = [offsets[j], offsets[j+1]) of src, and dst[j] = init
// for an empty segment (CUB's DeviceSegmentedReduce with begin offsets
// offsets[:len-1] and end offsets offsets[1:]). offsets has dst.Len()+1
// elements, non-decreasing, at most src.Len(): larger offsets are clamped
// to src.Len(), and decreasing ones give unspecified (but in-bounds)
// results. Elements before offsets[0] belong to no segment. dst may not
// overlap src or offsets. Float Add folds a segment's elements left to
// right within chunks of 64 consecutive elements, and the chunks' sums as
// the segmented scans do (see Determinism): the same bits on every run.
// Scratch: four words per 64 elements of src.
//
// One pass walks src in chunks of 64 elements, an invocation each, and
// reduces the segments that start and end inside a chunk in registers;
// a segmented scan of the chunks' open sums and a pass over the chunks
// and segments finish the segments that cross chunks, and the empty ones.
func SegmentedReduce[T Elem](s *Scanner, dst, src gpu.Array[T], offsets gpu.Array[uint32], op Op, init T) {
	const fn = "SegmentedReduce"
	s.live(fn)
	checkOp(fn, op, typeOf[T]())
	segs := array(s, fn, "dst", dst)
	n := array(s, fn, "src", src)
	if m := array(s, fn, "offsets", offsets); m != segs+1 {
		panic(fmt.Sprintf("scan: %s: offsets has %d elements, want dst's %d + 1", fn, m, segs))
	}
	disjoint(fn, "dst", dst, "src", src)
	disjoint(fn, "dst", dst, "offsets", offsets)
	if segs == 0 {
		return
	}
	typ := typeOf[T]()
	c := s.c
	c.Do(func() {
		chunk := 4 * segReduceItems
		chunks := ceilDiv(n, chunk)
		carry := s.scratch(fn, scratchPos, chunks)
		flags := s.scratch(fn, scratchFlags, chunks)
		heads := s.scratch(fn, scratchEnds, 2*max(chunks-1, 0))
		d := map[string]string{"TYPE": fmt.Sprint(typ), "OP": fmt.Sprint(int(op)), "ITEMS": strconv.Itoa(segReduceItems)}
		bind := func(p *gpu.Program) {
			c.BindStorage(0, offsets)
			c.BindStorage(1, src)
			c.BindStorage(2, src)
			c.BindStorage(3, dst)
			c.BindStorage(4, carry)
			c.BindStorage(5, flags)
			c.BindStorage(6, heads)
			p.SetUint("segments", uint32(segs))
			p.SetUint("n", uint32(n))
			p.SetUint("chunks", uint32(chunks))
			p.SetUint("initBits", bitsOf(init))
		}
		plan := Plan{Levels: 1, Dispatches: 1}
		if n > 0 {
			d["PASS"] = "0"
			p := s.primProgram("scan/segreduce.comp", d)
			bind(p)
			p.DispatchInvocations(chunks)
			c.Barrier(gpu.BarrierStorage) // the scan reads the carries
			if chunks > 1 {
				s.run(&scanJob{fn: fn, typ: typ, op: op, seg: true, n: chunks, src: carry, flags: flags, dst: carry,
					init: identity[T](op), inclusive: true, floatAdd: typ == 2 && op == Add})
				plan = s.LastPlan()
			}
			plan.Dispatches += 2
		}
		d["PASS"] = "1"
		p := s.primProgram("scan/segreduce.comp", d)
		bind(p)
		p.DispatchInvocations(max(chunks, segs))
		c.Barrier(gpu.BarrierStorage)
		s.setPlan(plan)
	})
}
