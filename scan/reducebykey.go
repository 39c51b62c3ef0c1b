package scan

import "github.com/dpgl/dpgl/gpu"

// ReduceByKey reduces the values of every run of equal consecutive keys
// with op: it writes the run's first key to uniqueKeys and the op of its
// values to sums, in order, and returns the number of runs. Keys 1 1 2 2 2
// 1 and values 1 2 3 4 5 6 give 1 2 1 and, with Add, 3 12 6. Keys are
// compared by their bits as in Unique; K is any plain-data type whose size
// is a multiple of 4 bytes. keys and values have the same length; runs
// past uniqueKeys.Len() (or sums.Len()) are dropped from it. Outputs may
// not overlap each other or the inputs. Integer sums and Max and Min are
// exact; float Add rounds as the segmented scans do (see Determinism).
// By reduce-then-scan (CPU drivers, and arrays of one tile) one scan of
// (heads, value) pairs, the heads found where the keys change as the tiles
// load them: each head's count of heads before it is its run's index, and
// in the last pass each head writes its key, and the scan value before it,
// the op of the run before it; the last element the last run's. No
// scratch. On the look-back path (whose published flags
// cannot count) two passes, reading the keys in each: a segmented
// inclusive scan of the values leaves each run's op at its last element;
// then Unique's pass, in which that last element also copies it to sums;
// scratch: one word per key. It waits for the GPU.
func ReduceByKey[K any, V Elem](s *Scanner, uniqueKeys gpu.Array[K], sums gpu.Array[V], keys gpu.Array[K], values gpu.Array[V], op Op) int {
	const fn = "ReduceByKey"
	s.live(fn)
	checkOp(fn, op)
	w := recordWords[K](fn)
	array(s, fn, "uniqueKeys", uniqueKeys)
	m := array(s, fn, "sums", sums)
	n := array(s, fn, "keys", keys)
	sameLen(fn, "keys", n, "values", array(s, fn, "values", values))
	for _, o := range []struct {
		name string
		a    gpu.Storage
	}{{"keys", keys}, {"values", values}, {"sums", sums}} {
		disjoint(fn, "uniqueKeys", uniqueKeys, o.name, o.a)
	}
	disjoint(fn, "sums", sums, "keys", keys)
	disjoint(fn, "sums", sums, "values", values)
	typ := typeOf[V]()
	var count int
	s.c.Do(func() {
		// The value init is never used: element 0 heads a run.
		fused := &scanJob{fn: fn, typ: typ, op: op, seg: true, counts: true, out: outRuns, words: w, keyWords: w, n: n,
			src: values, flags: keys, dst: uniqueKeys, dstLen: array(s, fn, "uniqueKeys", uniqueKeys),
			tails: tailsSums, tailDst: sums, tailLen: m, floatAdd: typ == 2 && op == Add}
		if s.pathFor(fused) == PathReduceThenScan {
			var err error
			if count, err = s.compactCount(fused); err != nil {
				panic(err) // no user code: a bug in this package
			}
			return
		}
		scanned := s.scratch(fn, scratchPos, n)
		if n > 0 {
			s.run(&scanJob{fn: fn, typ: typ, op: op, seg: true, keyWords: w, n: n, src: values, flags: keys, dst: scanned,
				init: identity[V](op), inclusive: true, floatAdd: typ == 2 && op == Add})
		}
		scanned1 := s.LastPlan().Dispatches
		count, _ = s.compactCount(&scanJob{fn: fn, typ: 0, op: Add, out: outRuns, words: w, keyWords: w, n: n,
			src: keys, flags: keys, dst: uniqueKeys, dstLen: array(s, fn, "uniqueKeys", uniqueKeys),
			tails: tailsValues, tailSrc: scanned, tailDst: sums, tailLen: m})
		if n > 0 {
			plan := s.LastPlan()
			plan.Dispatches += scanned1
			s.setPlan(plan)
		}
	})
	return count
}
