package scan

import (
	"strconv"

	"github.com/dpgl/dpgl/gpu"
)

// NonTrivialRuns finds the runs of equal consecutive keys longer than one
// key: it writes each one's first index to offsets and its length to
// lengths, in order, and returns how many there are (CUB's
// DeviceRunLengthEncode::NonTrivialRuns). Keys 1 1 2 3 3 3 4 give offsets
// 0 3 and lengths 2 3. Keys are compared by their bits as in Unique; K is
// any plain-data type whose size is a multiple of 4 bytes. Runs past
// offsets.Len() (or lengths.Len()) are dropped from it; the count still
// includes them. Outputs may not overlap each other or keys. Three passes
// around one scan (ntruns.comp). Scratch: two words per key. It waits for
// the GPU.
func NonTrivialRuns[K any](s *Scanner, offsets, lengths gpu.Array[uint32], keys gpu.Array[K]) int {
	const fn = "NonTrivialRuns"
	s.live(fn)
	var count uint32
	s.c.Do(func() {
		total := s.grow(fn, &s.result, 4)
		nonTrivialRuns(s, fn, offsets, lengths, keys, total.Slice(0, 1), 0)
		count = total.Get(0)
	})
	return int(count)
}

// NonTrivialRunsTo is NonTrivialRuns leaving the count in count[at]
// instead of returning it, without a round trip to the host. count may
// not overlap the other arrays.
func NonTrivialRunsTo[K any](s *Scanner, offsets, lengths gpu.Array[uint32], keys gpu.Array[K], count gpu.Array[uint32], at int) {
	const fn = "NonTrivialRunsTo"
	s.live(fn)
	checkAt(fn, array(s, fn, "count", count), at)
	disjoint(fn, "count", count, "offsets", offsets)
	disjoint(fn, "count", count, "lengths", lengths)
	disjoint(fn, "count", count, "keys", keys)
	nonTrivialRuns(s, fn, offsets, lengths, keys, count, at)
}

func nonTrivialRuns[K any](s *Scanner, fn string, offsets, lengths gpu.Array[uint32], keys gpu.Array[K], count gpu.Storage, at int) {
	w := recordWords[K](fn)
	mo := array(s, fn, "offsets", offsets)
	ml := array(s, fn, "lengths", lengths)
	n := array(s, fn, "keys", keys)
	disjoint(fn, "offsets", offsets, "keys", keys)
	disjoint(fn, "lengths", lengths, "keys", keys)
	disjoint(fn, "offsets", offsets, "lengths", lengths)
	c := s.c
	c.Do(func() {
		// At most one run in two keys starts.
		runs := ceilDiv(n, 2)
		flags := s.scratch(fn, scratchFlags, n)
		starts := s.scratch(fn, scratchPos, runs)
		ends := s.scratch(fn, scratchEnds, runs)
		d := map[string]string{"KEY_WORDS": strconv.Itoa(w)}
		pass := func(k, invocations int) {
			d["PASS"] = strconv.Itoa(k)
			p := s.primProgram("scan/ntruns.comp", d)
			c.BindStorage(0, keys)
			c.BindStorage(1, flags)
			c.BindStorage(2, starts)
			c.BindStorage(3, ends)
			c.BindStorage(4, count)
			c.BindStorage(5, offsets)
			c.BindStorage(6, lengths)
			p.SetUint("n", uint32(n))
			p.SetUint("countAt", uint32(at))
			p.SetUint("mOffsets", uint32(mo))
			p.SetUint("mLengths", uint32(ml))
			p.DispatchInvocations(invocations)
			c.Barrier(gpu.BarrierStorage) // the next scan or pass reads what this one wrote
		}
		if n > 0 {
			pass(0, n)
		}
		// The exclusive scan leaves the count in count[at] (0 for no keys).
		s.run(&scanJob{fn: fn, typ: 0, op: Add, n: n, src: flags, dst: flags, total: count, totalAt: at})
		plan := s.LastPlan()
		if n > 0 {
			pass(1, n)
			pass(2, runs)
			plan.Dispatches += 3
		}
		s.setPlan(plan)
	})
}
