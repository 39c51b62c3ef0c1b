package scan

import (
	"fmt"
	"strconv"

	"github.com/dpgl/dpgl/gpu"
)

// mergeItems is merge.comp's ITEMS: the outputs an invocation merges
// serially after one binary search along its diagonal.
const mergeItems = 8

// Merge writes the stable merge of a and b to dst: both ascending in the
// order of package radix (see LowerBound), dst = their keys in that
// order, a's before b's among equal keys (thrust::merge). a 1 3 5 and b 2
// 3 give 1 2 3 3 5, the first 3 a's. dst.Len() = a.Len() + b.Len(); dst
// may not overlap a or b. Unsorted inputs give a dst that holds every
// key once, in an unspecified order. One pass: moderngpu's merge path,
// an invocation per 8 outputs (one binary search, then a serial merge).
// No scratch.
func Merge[K Elem](s *Scanner, dst, a, b gpu.Array[K]) {
	const fn = "Merge"
	s.live(fn)
	na, nb := mergeArgs(s, fn, "dst", dst, "a", a, "b", b)
	s.merge(fn, typeOf[K](), 0, na, nb, func() {
		c := s.c
		c.BindStorage(0, a)
		c.BindStorage(1, b)
		c.BindStorage(2, dst)
	})
}

// MergePairs is Merge moving values with their keys: dstKeys is the
// merge of aKeys and bKeys, and dstVals[i] the value that came with
// dstKeys[i], from aVals or bVals. V is any plain-data type whose size is
// a multiple of 4 bytes. Each value array has its keys' length; no output
// may overlap another array.
func MergePairs[K Elem, V any](s *Scanner, dstKeys gpu.Array[K], dstVals gpu.Array[V], aKeys gpu.Array[K], aVals gpu.Array[V], bKeys gpu.Array[K], bVals gpu.Array[V]) {
	const fn = "MergePairs"
	s.live(fn)
	w := recordWords[V](fn)
	na, nb := mergeArgs(s, fn, "dstKeys", dstKeys, "aKeys", aKeys, "bKeys", bKeys)
	nv, _ := mergeArgs(s, fn, "dstVals", dstVals, "aVals", aVals, "bVals", bVals)
	sameLen(fn, "aKeys", na, "aVals", nv)
	for _, o := range []struct {
		name string
		a    gpu.Storage
	}{{"aKeys", aKeys}, {"bKeys", bKeys}, {"dstKeys", dstKeys}} {
		disjoint(fn, "dstVals", dstVals, o.name, o.a)
	}
	disjoint(fn, "dstKeys", dstKeys, "aVals", aVals)
	disjoint(fn, "dstKeys", dstKeys, "bVals", bVals)
	s.merge(fn, typeOf[K](), w, na, nb, func() {
		c := s.c
		c.BindStorage(0, aKeys)
		c.BindStorage(1, bKeys)
		c.BindStorage(2, dstKeys)
		c.BindStorage(3, aVals)
		c.BindStorage(4, bVals)
		c.BindStorage(5, dstVals)
	})
}

// mergeArgs checks one output and its two inputs, and returns the inputs'
// lengths.
func mergeArgs[T any](s *Scanner, fn, dstName string, dst gpu.Array[T], aName string, a gpu.Array[T], bName string, b gpu.Array[T]) (na, nb int) {
	m := array(s, fn, dstName, dst)
	na = array(s, fn, aName, a)
	nb = array(s, fn, bName, b)
	if na+nb > maxLen {
		panic(fmt.Sprintf("scan: %s: %s and %s have %d elements together, more than the %d the kernels index", fn, aName, bName, na+nb, maxLen))
	}
	sameLen(fn, dstName, m, aName+" and "+bName+" together", na+nb)
	disjoint(fn, dstName, dst, aName, a)
	disjoint(fn, dstName, dst, bName, b)
	return na, nb
}

func (s *Scanner) merge(fn string, typ, valueWords, na, nb int, bind func()) {
	c := s.c
	c.Do(func() {
		p := s.primProgram("scan/merge.comp", map[string]string{
			"TYPE": strconv.Itoa(typ), "VALUE_WORDS": strconv.Itoa(valueWords), "ITEMS": strconv.Itoa(mergeItems),
		})
		if na+nb == 0 {
			return
		}
		bind()
		p.SetUint("na", uint32(na))
		p.SetUint("nb", uint32(nb))
		p.DispatchItems(na+nb, mergeItems)
		c.Barrier(gpu.BarrierStorage)
		s.setPlan(Plan{Levels: 1, Dispatches: 1})
	})
}
