package scan

import "github.com/dpgl/dpgl/gpu"

// Unique copies the first key of every run of equal consecutive keys, in
// order, to the front of dst and returns how many runs there are: 1 1 2 2 2
// 1 3 3 gives 1 2 1 3. Keys are equal when their bits are (so floats -0
// and +0 differ, and a NaN equals a NaN of the same bits); K is any
// plain-data type whose size is a multiple of 4 bytes. Runs past dst.Len()
// are dropped (the count still includes them). dst may not overlap keys.
// One pass: each tile finds the run heads among its keys (comparing each
// with the one before), counts them, and writes its own after the
// look-back. No scratch. It waits for the GPU.
func Unique[K any](s *Scanner, dst, keys gpu.Array[K]) int {
	count, _ := s.compactCount(uniqueJob(s, "Unique", dst, keys)) // no user code: no error
	return count
}

// UniqueTo is Unique leaving the number of runs in count[at] instead of
// returning it, without a round trip to the host. count may not overlap
// dst or keys.
func UniqueTo[K any](s *Scanner, dst, keys gpu.Array[K], count gpu.Array[uint32], at int) {
	const fn = "UniqueTo"
	j := uniqueJob(s, fn, dst, keys)
	countArg(s, fn, count, at, arg{"dst", dst}, arg{"keys", keys})
	s.compactTo(j, count, at) // no user code: no error
}

func uniqueJob[K any](s *Scanner, fn string, dst, keys gpu.Array[K]) *scanJob {
	s.live(fn)
	w := recordWords[K](fn)
	m := array(s, fn, "dst", dst)
	n := array(s, fn, "keys", keys)
	disjoint(fn, "dst", dst, "keys", keys)
	return &scanJob{fn: fn, typ: 0, op: Add, out: outCompact, words: w, keyWords: w, n: n, src: keys, flags: keys, dst: dst, dstLen: m}
}

// RunLengthEncode writes the first key of every run of equal consecutive
// keys to unique and the run's length to lengths, in order, and returns
// the number of runs: 1 1 2 2 2 1 3 3 gives 1 2 1 3 and 2 3 1 2. Keys are
// compared by their bits as in Unique. Runs past unique.Len() (or
// lengths.Len()) are dropped from it. unique and lengths may not overlap
// each other or keys. ReduceByKey's passes, whose second walks the heads'
// bits alone: a run's length is its head's distance from the next head.
// Scratch: seven words per 64 keys. It waits for the GPU.
func RunLengthEncode[K any](s *Scanner, unique gpu.Array[K], lengths gpu.Array[uint32], keys gpu.Array[K]) int {
	const fn = "RunLengthEncode"
	w, n, mu, m := rleArgs(s, fn, unique, lengths, keys)
	return s.runsToHost(fn, n, func(total gpu.Storage) {
		runsByKey[uint32](s, fn, keys, w, n, nil, Add, unique, mu, lengths, m, total, 0)
	})
}

// RunLengthEncodeTo is RunLengthEncode leaving the number of runs in
// count[at] instead of returning it, without a round trip to the host.
// count may not overlap the other arrays.
func RunLengthEncodeTo[K any](s *Scanner, unique gpu.Array[K], lengths gpu.Array[uint32], keys gpu.Array[K], count gpu.Array[uint32], at int) {
	const fn = "RunLengthEncodeTo"
	w, n, mu, m := rleArgs(s, fn, unique, lengths, keys)
	countArg(s, fn, count, at, arg{"unique", unique}, arg{"lengths", lengths}, arg{"keys", keys})
	s.c.Do(func() {
		runsByKey[uint32](s, fn, keys, w, n, nil, Add, unique, mu, lengths, m, count, at)
	})
}

func rleArgs[K any](s *Scanner, fn string, unique gpu.Array[K], lengths gpu.Array[uint32], keys gpu.Array[K]) (w, n, mu, m int) {
	s.live(fn)
	w = recordWords[K](fn)
	mu = array(s, fn, "unique", unique)
	m = array(s, fn, "lengths", lengths)
	n = array(s, fn, "keys", keys)
	disjoint(fn, "unique", unique, "keys", keys)
	disjoint(fn, "lengths", lengths, "keys", keys)
	disjoint(fn, "unique", unique, "lengths", lengths)
	return w, n, mu, m
}
