package scan

import (
	"fmt"
	"strconv"

	"github.com/dpgl/dpgl/gpu"
)

// lbsItems is lbs.comp's ITEMS: 4*lbsItems consecutive items per
// invocation, the first found by binary search and the rest by walking
// forward.
const lbsItems = 8

// LoadBalancingSearch is moderngpu's load-balancing search: offsets holds
// the exclusive add-scan of the sizes of offsets.Len() segments (see
// ExclusiveScan), and each of the segment.Len() items g learns the
// segment it belongs to, segment[g] = the last p with offsets[p] <= g, and
// its rank there, rank[g] = g - offsets[p]. Sizes 2 0 3 (offsets 0 2 2)
// give segments 0 0 2 2 2 and ranks 0 1 0 1 2. Items below offsets[0]
// belong to no segment: 0xFFFFFFFF in both. segment.Len() is usually the
// sum of the sizes; offsets must be non-decreasing (else the results are
// unspecified, but in bounds). rank may be nil; otherwise it has
// segment.Len() elements. The outputs may not overlap each other or
// offsets. It is the search package balancer's Search strategy runs in
// (shaders/include/lbs.glsl).
func LoadBalancingSearch(s *Scanner, segment, rank, offsets gpu.Array[uint32]) {
	const fn = "LoadBalancingSearch"
	s.live(fn)
	n := array(s, fn, "segment", segment)
	segs := array(s, fn, "offsets", offsets)
	disjoint(fn, "segment", segment, "offsets", offsets)
	if rank != nil {
		sameLen(fn, "segment", n, "rank", array(s, fn, "rank", rank))
		disjoint(fn, "rank", rank, "offsets", offsets)
		disjoint(fn, "rank", rank, "segment", segment)
	}
	s.lbs(fn, 0, 1, n, segs, offsets, func() {
		s.c.BindStorage(1, segment)
		s.c.BindStorage(2, segment)
		if rank != nil {
			s.c.BindStorage(3, rank)
			s.c.BindStorage(4, rank)
		}
	}, rank != nil)
}

// IntervalExpand is moderngpu's interval expand: it copies values[p] to
// every item of segment p, dst[g] = values[p] for the last p with
// offsets[p] <= g, where offsets is the exclusive add-scan of the
// segments' sizes (as for LoadBalancingSearch). Sizes 2 0 3 with values a
// b c give a a c c c. Items below offsets[0] keep their value. values and
// offsets have the same length; dst may not overlap either. T is any
// plain-data type whose size is a multiple of 4 bytes.
func IntervalExpand[T any](s *Scanner, dst, values gpu.Array[T], offsets gpu.Array[uint32]) {
	const fn = "IntervalExpand"
	s.live(fn)
	w := recordWords[T](fn)
	n := array(s, fn, "dst", dst)
	segs := array(s, fn, "offsets", offsets)
	sameLen(fn, "offsets", segs, "values", array(s, fn, "values", values))
	disjoint(fn, "dst", dst, "values", values)
	disjoint(fn, "dst", dst, "offsets", offsets)
	s.lbs(fn, 1, w, n, segs, offsets, func() {
		s.c.BindStorage(5, values)
		if w == 1 { // stored as vectors where whole, as for the search
			s.c.BindStorage(1, dst)
			s.c.BindStorage(2, dst)
		} else {
			s.c.BindStorage(6, dst)
		}
	}, false)
}

func (s *Scanner) lbs(fn string, out, words, n, segs int, offsets gpu.Storage, bind func(), rank bool) {
	if n == 0 {
		return
	}
	c := s.c
	c.Do(func() {
		p := s.primProgram("scan/lbs.comp", map[string]string{
			"OUT": strconv.Itoa(out), "RANK": fmt.Sprint(b2u(rank)), "RECORD_WORDS": strconv.Itoa(words),
			"ITEMS": strconv.Itoa(lbsItems),
		})
		c.BindStorage(0, offsets)
		bind()
		p.SetUint("n", uint32(n))
		p.SetUint("segments", uint32(segs))
		p.DispatchItems(n, 4*lbsItems) // lbsItems vectors of 4 an invocation
		c.Barrier(gpu.BarrierStorage)
		s.setPlan(Plan{Levels: 1, Dispatches: 1})
	})
}
