package scan

import (
	"fmt"
	"strconv"

	"github.com/dpgl/dpgl/gpu"
)

// Unique copies the first key of every run of equal consecutive keys, in
// order, to the front of dst and returns how many runs there are: 1 1 2 2 2
// 1 3 3 gives 1 2 1 3. Keys are equal when their bits are (so floats -0
// and +0 differ, and a NaN equals a NaN of the same bits); K is any
// plain-data type whose size is a multiple of 4 bytes. Runs past dst.Len()
// are dropped (the count still includes them). dst may not overlap keys.
// Scratch: one word per key. It waits for the GPU.
func Unique[K any](s *Scanner, dst, keys gpu.Array[K]) int {
	const fn = "Unique"
	s.live(fn)
	w := recordWords[K](fn)
	array(s, fn, "dst", dst)
	n := array(s, fn, "keys", keys)
	disjoint(fn, "dst", dst, "keys", keys)
	var count int
	s.c.Do(func() {
		heads, _, _ := s.runs(fn, w, keys, n, false, false)
		count = Compact(s, dst, keys, gpu.Array[uint32](heads))
	})
	return count
}

// RunLengthEncode writes the first key of every run of equal consecutive
// keys to unique and the run's length to lengths, in order, and returns
// the number of runs: 1 1 2 2 2 1 3 3 gives 1 2 1 3 and 2 3 1 2. Keys are
// compared by their bits as in Unique. Runs past unique.Len() (or
// lengths.Len()) are dropped from it. unique and lengths may not overlap
// each other or keys. Scratch: four words per key. It waits for the GPU.
func RunLengthEncode[K any](s *Scanner, unique gpu.Array[K], lengths gpu.Array[uint32], keys gpu.Array[K]) int {
	const fn = "RunLengthEncode"
	s.live(fn)
	w := recordWords[K](fn)
	array(s, fn, "unique", unique)
	m := array(s, fn, "lengths", lengths)
	n := array(s, fn, "keys", keys)
	disjoint(fn, "unique", unique, "keys", keys)
	disjoint(fn, "lengths", lengths, "keys", keys)
	disjoint(fn, "unique", unique, "lengths", lengths)
	var count int
	c := s.c
	c.Do(func() {
		heads, tails, ends := s.runs(fn, w, keys, n, true, true)
		if n > 0 {
			// The tails' ends (i+1), compacted, are the runs' ends; their
			// differences the lengths.
			runEnds := s.scratch(fn, scratchPos, n)
			cnt := s.scratch(fn, scratchCount, 1)
			CompactTo(s, gpu.Array[uint32](runEnds), gpu.Array[uint32](ends), gpu.Array[uint32](tails), gpu.Array[uint32](cnt), 0)
			p := s.primProgram("scan/runs.comp", map[string]string{"PASS": "1"})
			c.BindStorage(3, runEnds)
			c.BindStorage(4, cnt)
			c.BindStorage(5, lengths)
			p.SetUint("n", uint32(m))
			p.SetUint("countAt", 0)
			p.DispatchInvocations(min(n, m))
			c.Barrier(gpu.BarrierStorage)
		}
		count = Compact(s, unique, keys, gpu.Array[uint32](heads))
	})
	return count
}

// runs writes the 0/1 head flags of the runs of equal keys to scratch,
// with withTails also the tail flags, with ends also ends[i] = i+1, and
// returns them (n words each). It runs on the GL thread.
func (s *Scanner) runs(fn string, w int, keys gpu.Storage, n int, withTails, ends bool) (heads, tails, endsOut gpu.Range[uint32]) {
	c := s.c
	heads = s.scratch(fn, scratchFlags, n)
	if withTails {
		tails = s.scratch(fn, scratchTails, n)
	}
	if ends {
		endsOut = s.scratch(fn, scratchEnds, n)
	}
	if n == 0 {
		return
	}
	d := map[string]string{"PASS": "0", "RECORD_WORDS": strconv.Itoa(w), "ENDS": "0", "TAILS": fmt.Sprint(b2u(withTails))}
	if ends {
		d["ENDS"] = "1"
		c.BindStorage(3, endsOut)
	}
	p := s.primProgram("scan/runs.comp", d)
	c.BindStorage(0, keys)
	c.BindStorage(1, heads)
	c.BindStorage(2, tails)
	p.SetUint("n", uint32(n))
	p.DispatchInvocations(n)
	c.Barrier(gpu.BarrierStorage) // the scans read the flags
	return
}
