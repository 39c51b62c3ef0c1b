package scan

import "github.com/dpgl/dpgl/gpu"

// UniqueByKey copies the first key of every run of equal consecutive keys
// to dstKeys, and the value at that key to dstVals, in order, and returns
// the number of runs: keys 1 1 2 2 2 1 and values a b c d e f give 1 2 1
// and a c f. Keys are compared by their bits as in Unique; K and V are any
// plain-data types whose sizes are multiples of 4 bytes. keys and values
// have the same length; runs past dstKeys.Len() (or dstVals.Len()) are
// dropped from it, the count still includes them. Outputs may not overlap
// each other or the inputs. Three passes: one marks where the key changes,
// then a compaction of the keys and one of the values by those marks.
// Scratch: one word per key. It waits for the GPU.
func UniqueByKey[K, V any](s *Scanner, dstKeys gpu.Array[K], dstVals gpu.Array[V], keys gpu.Array[K], values gpu.Array[V]) int {
	const fn = "UniqueByKey"
	s.live(fn)
	var count uint32
	s.c.Do(func() {
		total := s.grow(fn, &s.result, 4)
		uniqueByKey(s, fn, dstKeys, dstVals, keys, values, total, 0)
		count = total.Get(0)
	})
	return int(count)
}

// UniqueByKeyTo is UniqueByKey leaving the number of runs in count[at]
// instead of returning it, without a round trip to the host. count may
// not overlap the other arrays.
func UniqueByKeyTo[K, V any](s *Scanner, dstKeys gpu.Array[K], dstVals gpu.Array[V], keys gpu.Array[K], values gpu.Array[V], count gpu.Array[uint32], at int) {
	const fn = "UniqueByKeyTo"
	s.live(fn)
	checkAt(fn, array(s, fn, "count", count), at)
	for _, o := range []struct {
		name string
		a    gpu.Storage
	}{{"dstKeys", dstKeys}, {"dstVals", dstVals}, {"keys", keys}, {"values", values}} {
		disjoint(fn, "count", count, o.name, o.a)
	}
	uniqueByKey(s, fn, dstKeys, dstVals, keys, values, count, at)
}

func uniqueByKey[K, V any](s *Scanner, fn string, dstKeys gpu.Array[K], dstVals gpu.Array[V], keys gpu.Array[K], values gpu.Array[V], count gpu.Storage, at int) {
	wk := recordWords[K](fn)
	wv := recordWords[V](fn)
	mk := array(s, fn, "dstKeys", dstKeys)
	mv := array(s, fn, "dstVals", dstVals)
	n := array(s, fn, "keys", keys)
	sameLen(fn, "keys", n, "values", array(s, fn, "values", values))
	for _, o := range []struct {
		name string
		a    gpu.Storage
	}{{"keys", keys}, {"values", values}, {"dstVals", dstVals}} {
		disjoint(fn, "dstKeys", dstKeys, o.name, o.a)
	}
	disjoint(fn, "dstVals", dstVals, "keys", keys)
	disjoint(fn, "dstVals", dstVals, "values", values)
	s.c.Do(func() {
		heads := s.keyHeads(fn, scratchFlags, keys, wk, n)
		// Both compactions count the same heads; the keys' leaves the count.
		s.run(&scanJob{fn: fn, typ: 0, op: Add, out: outCompact, words: wk, n: n, src: keys, flags: heads, dst: dstKeys, dstLen: mk, total: count, totalAt: at})
		plan := s.LastPlan()
		s.run(&scanJob{fn: fn, typ: 0, op: Add, out: outCompact, words: wv, n: n, src: values, flags: heads, dst: dstVals, dstLen: mv})
		plan.Dispatches += s.LastPlan().Dispatches + 1
		s.setPlan(plan)
	})
}
