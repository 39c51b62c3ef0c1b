package radix

import (
	"fmt"

	"github.com/dpgl/dpgl/gpu"
)

// TopK writes the k = dstKeys.Len() largest keys (smallest, unless
// largest) to dstKeys, in order from the largest (smallest) on, and the
// index in keys of each to dstIdx. Ties go to the lower index: of equal
// keys the first in keys comes first, and it is the one kept at the
// cut, so the result is a function of the input alone (CUB's TopK
// promises neither). Keys order as the package's sorts order them:
// largest counts every NaN above +Inf and +0 above -0. k <= keys.Len();
// dstIdx has k elements; the outputs may not overlap each other or keys.
// A stable sort of (key, index) pairs (SortPairs) of which the first k
// are kept: its cost does not shrink with k. It allocates four words per
// key for the call, and returns an error if it cannot.
func TopK[K Key](s *Sorter, dstKeys gpu.Array[K], dstIdx gpu.Array[uint32], keys gpu.Array[K], largest bool) error {
	const fn = "TopK"
	s.live(fn)
	k := array(s, fn, "dstKeys", dstKeys)
	sameLen(fn, "dstKeys", k, "dstIdx", array(s, fn, "dstIdx", dstIdx))
	n := array(s, fn, "keys", keys)
	if k > n {
		panic(fmt.Sprintf("radix: %s: dstKeys asks for the top %d of %d keys", fn, k, n))
	}
	disjoint(fn, "dstKeys", dstKeys, "keys", keys)
	disjoint(fn, "dstIdx", dstIdx, "keys", keys)
	disjoint(fn, "dstKeys", dstKeys, "dstIdx", dstIdx)
	if k == 0 {
		return nil
	}
	t := &tempBuffers{c: s.c, fn: fn}
	defer t.delete()
	kc := newTemp[K](t, "the keys' copy", n)
	kt := newTemp[K](t, "the sort's key scratch", n)
	idx := newTemp[uint32](t, "the indices", n)
	it := newTemp[uint32](t, "the sort's index scratch", n)
	if t.err != nil {
		return t.err
	}
	copyBack(gpu.Array[K](kc), keys, n)
	if err := s.iota(idx, n); err != nil {
		return err
	}
	if err := SortPairs(s, gpu.Array[K](kc), gpu.Array[K](kt), gpu.Array[uint32](idx), gpu.Array[uint32](it), Order{Descending: largest}); err != nil {
		return err
	}
	copyBack(dstKeys, gpu.Array[K](kc), k)
	copyBack(dstIdx, gpu.Array[uint32](idx), k)
	return nil
}
