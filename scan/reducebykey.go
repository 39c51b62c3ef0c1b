package scan

import (
	"fmt"
	"strconv"

	"github.com/dpgl/dpgl/gpu"
)

// ReduceByKey reduces the values of every run of equal consecutive keys
// with op: it writes the run's first key to uniqueKeys and the op of its
// values to sums, in order, and returns the number of runs. Keys 1 1 2 2 2
// 1 and values 1 2 3 4 5 6 give 1 2 1 and, with Add, 3 12 6. Keys are
// compared by their bits as in Unique; K is any plain-data type whose size
// is a multiple of 4 bytes. keys and values have the same length; runs
// past uniqueKeys.Len() (or sums.Len()) are dropped from it. Outputs may
// not overlap each other or the inputs. Integer sums and Max and Min are
// exact; float Add folds a run's values left to right within chunks of 64
// consecutive elements, and the chunks' sums as the segmented scans do
// (see Determinism): the same bits on every run.
//
// Three passes over chunks of 64 keys, an invocation each, as
// SegmentedReduce's: one finds each chunk's heads (where the key
// changes), keeping their bits and count; an exclusive scan of the counts
// gives each chunk's first run index, and the total the number of runs;
// the second walks the values and the heads' bits, writing each run's key
// (loaded at its head) and the op of each run that starts and ends in the
// chunk; a segmented scan of the chunks' open ops and a third pass over
// the chunks finish the runs that cross chunks. Scratch: seven words per
// 64 keys. It waits for the GPU.
func ReduceByKey[K any, V Elem](s *Scanner, uniqueKeys gpu.Array[K], sums gpu.Array[V], keys gpu.Array[K], values gpu.Array[V], op Op) int {
	const fn = "ReduceByKey"
	w, n, mk, m := reduceByKeyArgs(s, fn, uniqueKeys, sums, keys, values, op)
	return s.runsToHost(fn, n, func(total gpu.Storage) {
		runsByKey[V](s, fn, keys, w, n, values, op, uniqueKeys, mk, sums, m, total, 0)
	})
}

// runsToHost runs run, which leaves a count of runs in total[0] (the
// scratch result word), on the GL thread and returns the count: 0, with no
// dispatch, for no keys.
func (s *Scanner) runsToHost(fn string, n int, run func(total gpu.Storage)) int {
	if n == 0 {
		s.setPlan(Plan{})
		return 0
	}
	var count int
	s.c.Do(func() {
		total := s.grow(fn, &s.result, 4)
		run(total)
		count = int(total.Get(0))
	})
	return count
}

// ReduceByKeyTo is ReduceByKey leaving the number of runs in count[at]
// instead of returning it, without a round trip to the host. count may not
// overlap the other arrays.
func ReduceByKeyTo[K any, V Elem](s *Scanner, uniqueKeys gpu.Array[K], sums gpu.Array[V], keys gpu.Array[K], values gpu.Array[V], op Op, count gpu.Array[uint32], at int) {
	const fn = "ReduceByKeyTo"
	w, n, mk, m := reduceByKeyArgs(s, fn, uniqueKeys, sums, keys, values, op)
	countArg(s, fn, count, at, arg{"uniqueKeys", uniqueKeys}, arg{"sums", sums}, arg{"keys", keys}, arg{"values", values})
	s.c.Do(func() {
		runsByKey[V](s, fn, keys, w, n, values, op, uniqueKeys, mk, sums, m, count, at)
	})
}

func reduceByKeyArgs[K any, V Elem](s *Scanner, fn string, uniqueKeys gpu.Array[K], sums gpu.Array[V], keys gpu.Array[K], values gpu.Array[V], op Op) (w, n, mk, m int) {
	s.live(fn)
	checkOp(fn, op, typeOf[V]())
	w = recordWords[K](fn)
	mk = array(s, fn, "uniqueKeys", uniqueKeys)
	m = array(s, fn, "sums", sums)
	n = array(s, fn, "keys", keys)
	sameLen(fn, "keys", n, "values", array(s, fn, "values", values))
	for _, o := range []struct {
		name string
		a    gpu.Storage
	}{{"keys", keys}, {"values", values}, {"sums", sums}} {
		disjoint(fn, "uniqueKeys", uniqueKeys, o.name, o.a)
	}
	disjoint(fn, "sums", sums, "keys", keys)
	disjoint(fn, "sums", sums, "values", values)
	return w, n, mk, m
}

// runsChunk is runs.comp's CHUNK: an invocation walks that many
// consecutive keys.
const runsChunk = 64

// runsByKey runs runs.comp's three passes and two scans over chunks of
// keys (w words each, n of them): each run's key goes to outKeys (mKeys
// records) and the op of its values to sums (mSums), values nil meaning
// every value is 1 (run lengths, V uint32 and op Add). It writes the
// number of runs to total[totalAt]. It runs on the GL thread.
func runsByKey[V Elem](s *Scanner, fn string, keys gpu.Storage, w, n int, values gpu.Storage, op Op, outKeys gpu.Storage, mKeys int, sums gpu.Storage, mSums int, total gpu.Storage, totalAt int) {
	if n == 0 {
		s.reduceTo(fn, 0, Add, mapValues, nil, 0, total, totalAt) // the count, 0
		s.setPlan(Plan{Path: PathReduceThenScan, Dispatches: 1})
		return
	}
	c := s.c
	typ := typeOf[V]()
	chunks := ceilDiv(n, runsChunk)
	at := ceilDiv(chunks, 4) * 4 // flags' binding offset: a multiple of 16 bytes
	both := s.grow(fn, &s.prim.words[scratchFlags], at+chunks)
	counts, flags := both.Slice(0, chunks), both.Slice(at, chunks)
	carry := s.scratch(fn, scratchPos, chunks)
	heads := s.scratch(fn, scratchEnds, 4*chunks)
	d := map[string]string{"TYPE": fmt.Sprint(typ), "OP": fmt.Sprint(int(op)),
		"KEY_WORDS": strconv.Itoa(w), "VALUES": fmt.Sprint(b2u(values != nil))}
	if values == nil {
		values = keys // bound, never read
	}
	pass := func(k int) {
		d["PASS"] = strconv.Itoa(k)
		p := s.primProgram("scan/runs.comp", d)
		c.BindStorage(0, keys)
		c.BindStorage(1, keys)
		c.BindStorage(2, values)
		c.BindStorage(3, values)
		c.BindStorage(4, outKeys)
		c.BindStorage(5, sums)
		c.BindStorage(6, counts)
		c.BindStorage(7, carry)
		c.BindStorage(8, flags)
		c.BindStorage(9, heads)
		p.SetUint("n", uint32(n))
		p.SetUint("chunks", uint32(chunks))
		p.SetUint("mKeys", uint32(mKeys))
		p.SetUint("mSums", uint32(mSums))
		p.DispatchInvocations(chunks)
		c.Barrier(gpu.BarrierStorage) // the next scan or pass reads what this one wrote
	}
	pass(0)
	s.run(&scanJob{fn: fn, typ: 0, op: Add, n: chunks, src: counts, dst: counts, total: total, totalAt: totalAt})
	plan := s.LastPlan()
	pass(1)
	if chunks > 1 {
		s.run(&scanJob{fn: fn, typ: typ, op: op, seg: true, n: chunks, src: carry, flags: flags, dst: carry,
			init: identity[V](op), inclusive: true, floatAdd: typ == 2 && op == Add})
		plan.Dispatches += s.LastPlan().Dispatches
		pass(2)
	}
	plan.Dispatches += 2
	if chunks > 1 {
		plan.Dispatches++
	}
	s.setPlan(plan)
}
