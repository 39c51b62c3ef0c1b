package radix

import (
	"fmt"
	"math/bits"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan"
)

// SegmentedSortKeys sorts each segment [offsets[j], offsets[j+1]) of keys
// stably by o, independently of the others (CUB's
// DeviceSegmentedSort::StableSortKeys). offsets holds the segments' ends:
// segments+1 non-decreasing values from offsets[0] = 0 to
// offsets[segments] = keys.Len() (an error says otherwise; non-decreasing
// is the caller's to keep, else the result is unspecified but in
// bounds); empty segments are allowed. offsets may not overlap keys.
//
// However many the segments, and however small, the work is spread over
// the whole device, never a work group a segment: a stable sort of
// (key, index) pairs by key, then one of the indices by segment (a
// load-balancing search of offsets labels each key with its segment) on
// just the bits segment numbers need, then a gather. It allocates six
// words per key for the call, and returns an error if it cannot.
func SegmentedSortKeys[K Key](s *Sorter, keys gpu.Array[K], offsets gpu.Array[uint32], o Order) error {
	const fn = "SegmentedSortKeys"
	s.live(fn)
	o.bitRange(fn)
	n := array(s, fn, "keys", keys)
	segs := segmentArgs(s, fn, offsets, n)
	disjoint(fn, "keys", keys, "offsets", offsets)
	return segmentedSort[K, uint32](s, fn, keys, nil, offsets, n, segs, o)
}

// SegmentedSortPairs is SegmentedSortKeys moving vals[i] with keys[i]
// (CUB's DeviceSegmentedSort::StableSortPairs). V is any plain-data type
// whose size is a multiple of 4 bytes; vals has keys' length; no two of
// the arrays may overlap. It allocates six words per key and a copy of
// the values for the call.
func SegmentedSortPairs[K Key, V any](s *Sorter, keys gpu.Array[K], vals gpu.Array[V], offsets gpu.Array[uint32], o Order) error {
	const fn = "SegmentedSortPairs"
	s.live(fn)
	o.bitRange(fn)
	recordWords[V](fn)
	n := array(s, fn, "keys", keys)
	sameLen(fn, "keys", n, "vals", array(s, fn, "vals", vals))
	segs := segmentArgs(s, fn, offsets, n)
	disjoint(fn, "keys", keys, "offsets", offsets)
	disjoint(fn, "keys", keys, "vals", vals)
	disjoint(fn, "vals", vals, "offsets", offsets)
	return segmentedSort(s, fn, keys, vals, offsets, n, segs, o)
}

// segmentArgs checks offsets' length and returns the number of segments.
func segmentArgs(s *Sorter, fn string, offsets gpu.Array[uint32], n int) int {
	m := array(s, fn, "offsets", offsets)
	if m == 0 {
		panic(fmt.Sprintf("radix: %s: offsets is empty: it holds the segments' ends, segments+1 values from 0 to keys.Len()", fn))
	}
	return m - 1
}

func segmentedSort[K Key, V any](s *Sorter, fn string, keys gpu.Array[K], vals gpu.Array[V], offsets gpu.Array[uint32], n, segs int, o Order) error {
	// The ends must cover the keys: a key outside every segment would be
	// labelled with none and move. One small read-back.
	var ends [2]uint32
	offsets.Read(0, ends[:1])
	offsets.Read(segs, ends[1:])
	if ends[0] != 0 || int(ends[1]) != n {
		return fmt.Errorf("radix: %s: offsets run from %d to %d, want from 0 to keys.Len() = %d", fn, ends[0], ends[1], n)
	}
	if n <= 1 || segs == 0 {
		return nil
	}
	sc := s.scanner
	t := &tempBuffers{c: s.c, fn: fn}
	defer t.delete()
	orig := newTemp[K](t, "the keys' copy", n)
	kc := newTemp[K](t, "the keys to sort", n)
	kt := newTemp[K](t, "the sort's key scratch", n)
	idx := newTemp[uint32](t, "the indices", n)
	it := newTemp[uint32](t, "the sort's index scratch", n)
	seg := newTemp[uint32](t, "the segment numbers", n)
	segSorted := newTemp[uint32](t, "the sorted segment numbers", n)
	var valCopy *gpu.Buffer[V]
	if vals != nil {
		valCopy = newTemp[V](t, "the values' copy", n)
	}
	if t.err != nil {
		return t.err
	}
	copyBack(gpu.Array[K](orig), keys, n)
	copyBack(gpu.Array[K](kc), keys, n)
	if err := s.iota(idx, n); err != nil {
		return err
	}
	// Each key's segment: the last j with offsets[j] <= i among the
	// segments' starts (offsets without its last end).
	ob, ooff := offsets.Base()
	scan.LoadBalancingSearch(sc, gpu.Array[uint32](seg), nil, ob.Slice(ooff, segs))
	// By key, then by segment: the second sort is stable, so within a
	// segment the keys keep the first sort's order.
	if err := SortPairs(s, gpu.Array[K](kc), gpu.Array[K](kt), gpu.Array[uint32](idx), gpu.Array[uint32](it), o); err != nil {
		return err
	}
	scan.Gather(sc, gpu.Array[uint32](segSorted), gpu.Array[uint32](seg), gpu.Array[uint32](idx))
	segBits := max(bits.Len(uint(segs-1)), 1)
	if err := SortPairs(s, gpu.Array[uint32](segSorted), gpu.Array[uint32](seg), gpu.Array[uint32](idx), gpu.Array[uint32](it), Order{End: segBits}); err != nil {
		return err
	}
	scan.Gather(sc, keys, gpu.Array[K](orig), gpu.Array[uint32](idx))
	if vals != nil {
		copyBack(gpu.Array[V](valCopy), vals, n)
		scan.Gather(sc, vals, gpu.Array[V](valCopy), gpu.Array[uint32](idx))
	}
	return nil
}
