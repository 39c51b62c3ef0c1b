package scan

import (
	"strconv"

	"github.com/dpgl/dpgl/gpu"
)

// LowerBound sets dst[i] to the first index p of sorted whose key is not
// below queries[i] (sorted.Len() where there is none): where queries[i]
// would go into sorted before any equal keys, as sort.Search and
// thrust::lower_bound. sorted 1 3 3 5 and queries 0 3 4 9 give 0 1 3 4.
// sorted must be ascending in the order of package radix (floats: -Inf,
// negatives, -0, +0, positives, +Inf, then every NaN, all NaNs equal), as
// radix.SortKeys leaves it; an unsorted one gives unspecified indices in
// [0, sorted.Len()]. dst and queries have the same length; dst may not
// overlap the others. One pass, a binary search per query. No scratch.
func LowerBound[T Elem](s *Scanner, dst gpu.Array[uint32], sorted, queries gpu.Array[T]) {
	bound(s, "LowerBound", dst, sorted, queries, false)
}

// UpperBound is LowerBound with the first index whose key is above
// queries[i]: where queries[i] would go after any equal keys. sorted 1 3 3
// 5 and queries 0 3 4 9 give 0 3 3 4.
func UpperBound[T Elem](s *Scanner, dst gpu.Array[uint32], sorted, queries gpu.Array[T]) {
	bound(s, "UpperBound", dst, sorted, queries, true)
}

func bound[T Elem](s *Scanner, fn string, dst gpu.Array[uint32], sorted, queries gpu.Array[T], upper bool) {
	s.live(fn)
	n := array(s, fn, "dst", dst)
	sameLen(fn, "dst", n, "queries", array(s, fn, "queries", queries))
	m := array(s, fn, "sorted", sorted)
	disjoint(fn, "dst", dst, "sorted", sorted)
	disjoint(fn, "dst", dst, "queries", queries)
	c := s.c
	c.Do(func() {
		p := s.primProgram("scan/bound.comp", map[string]string{
			"TYPE": strconv.Itoa(typeOf[T]()), "UPPER": strconv.Itoa(int(b2u(upper))),
		})
		if n == 0 {
			return
		}
		c.BindStorage(0, sorted)
		c.BindStorage(1, queries)
		c.BindStorage(2, dst)
		p.SetUint("n", uint32(n))
		p.SetUint("m", uint32(m))
		p.DispatchInvocations(n)
		c.Barrier(gpu.BarrierStorage)
		s.setPlan(Plan{Levels: 1, Dispatches: 1})
	})
}
