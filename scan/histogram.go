package scan

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"

	"github.com/dpgl/dpgl/gpu"
)

// HistogramEven sets counts[b] to the number of samples in bin b of
// counts.Len() equal bins over [lower, upper). For integer samples bin b
// holds the x with floor((x-lower) * bins / (upper-lower)) = b, computed
// exactly; for floats b = min(floor((x-lower) * scale), bins-1) in float32
// arithmetic, with scale = float32(bins) / (upper-lower) rounded once.
// Samples outside [lower, upper), and NaN, are counted nowhere. Counts
// wrap around at 2^32. lower < upper, and for floats upper-lower finite,
// or it panics; counts may not overlap samples.
func HistogramEven[T Elem](s *Scanner, counts gpu.Array[uint32], samples gpu.Array[T], lower, upper T) {
	const fn = "HistogramEven"
	bins, n := histArgs(s, fn, counts, samples)
	if !(lower < upper) {
		panic(fmt.Sprintf("scan: %s: lower %v is not below upper %v", fn, lower, upper))
	}
	var scale float32
	if typeOf[T]() == 2 {
		r := float32(upper) - float32(lower)
		if math.IsInf(float64(r), 0) || math.IsInf(float64(lower), 0) || math.IsInf(float64(upper), 0) {
			panic(fmt.Sprintf("scan: %s: the range [%v, %v) is not finite", fn, lower, upper))
		}
		scale = float32(bins) / r
	}
	s.histogram(fn, 0, typeOf[T](), counts, samples, nil, n, bins, func(p *gpu.Program) {
		p.SetUint("lowerBits", bitsOf(lower))
		p.SetUint("upperBits", bitsOf(upper))
		p.SetFloat("scale", scale)
	})
}

// HistogramRange sets counts[b] to the number of samples x with
// boundaries[b] <= x < boundaries[b+1]: boundaries holds counts.Len()+1
// values sorted ascending (unsorted ones give unspecified counts, but
// nothing is written outside counts). Samples outside
// [boundaries[0], boundaries[bins]), and NaN, are counted nowhere. counts
// may not overlap samples or boundaries.
func HistogramRange[T Elem](s *Scanner, counts gpu.Array[uint32], samples, boundaries gpu.Array[T]) {
	const fn = "HistogramRange"
	bins, n := histArgs(s, fn, counts, samples)
	if m := array(s, fn, "boundaries", boundaries); m != bins+1 {
		panic(fmt.Sprintf("scan: %s: boundaries has %d elements, want counts' %d + 1", fn, m, bins))
	}
	disjoint(fn, "counts", counts, "boundaries", boundaries)
	s.histogram(fn, 1, typeOf[T](), counts, samples, boundaries, n, bins, func(*gpu.Program) {})
}

func histArgs[T Elem](s *Scanner, fn string, counts gpu.Array[uint32], samples gpu.Array[T]) (bins, n int) {
	s.live(fn)
	bins = array(s, fn, "counts", counts)
	n = array(s, fn, "samples", samples)
	if bins == 0 {
		panic(fmt.Sprintf("scan: %s: counts is empty: there must be at least one bin", fn))
	}
	disjoint(fn, "counts", counts, "samples", samples)
	return bins, n
}

// histItems is histogram.comp's ITEMS: 16-byte vectors of samples per
// invocation and tile.
const histItems = 4

// The histogram's paths (tests force each): chosen from the bins and the
// driver, per invocation, per work group in shared memory, or in global
// memory.
const (
	histAuto = iota
	histPrivate
	histShared
	histGlobal
)

// histTableBits bounds HistogramRange's lookup table: 4096 entries (16
// KiB, which a CPU's first-level cache holds), each a sample's bins
// among 256 when boundaries lie apart.
const histTableBits = 12

// maxSharedBins bounds the privatized histogram's bins: a quarter of the
// 32 KiB of shared memory GL guarantees, so that groups still fit beside
// each other.
const maxSharedBins = 4096

func (s *Scanner) histogram(fn string, mode, typ int, counts gpu.Array[uint32], samples, boundaries gpu.Storage, n, bins int, set func(*gpu.Program)) {
	c := s.c
	c.Do(func() {
		// Counts start from zero (FillRange waits for any shader that
		// wrote them).
		cb, off := counts.Base()
		cb.FillRange(off, bins, 0)
		if n == 0 {
			s.setPlan(Plan{Levels: 1})
			return
		}
		shared, private := 0, 0
		path := s.prim.histPath
		// Per invocation: a CPU driver's atomics are locked instructions,
		// one per lane; plain adds to words of each invocation's own
		// cost a fraction, when bins/2 words per invocation fit.
		priv := 1 << bits.Len(uint(max(bins, 16)-1))
		fits := priv/2*s.primGroup*4 <= c.Caps().MaxSharedMemory
		if path == histAuto && c.Caps().Software {
			path = histPrivate
		}
		switch {
		case path == histPrivate && fits:
			private = priv
		case path != histGlobal && bins <= min(maxSharedBins, c.Caps().MaxSharedMemory/4/2):
			shared = 1 << bits.Len(uint(max(bins, 256)-1))
		}
		d := map[string]string{
			"RANGE": strconv.Itoa(mode), "TYPE": strconv.Itoa(typ),
			"SHARED_BINS": strconv.Itoa(shared), "PRIVATE_BINS": strconv.Itoa(private), "ITEMS": strconv.Itoa(histItems),
		}
		plan := Plan{Levels: 1, Dispatches: 1}
		tableBits := 0
		if boundaries != nil {
			// The search's lookup table (histogram.comp's PASS 0):
			// 2^tableBits entries, at most 2^histTableBits and at most n,
			// so that Reserve(n) covers it.
			tableBits = min(bits.Len(uint(n))-1, histTableBits)
			c.BindStorage(1, boundaries)
			c.BindStorage(4, s.scratch(fn, scratchFlags, 1<<tableBits))
			d["PASS"] = "0"
			p := s.primProgram("scan/histogram.comp", d)
			p.SetUint("bins", uint32(bins))
			p.SetUint("tableBits", uint32(tableBits))
			p.DispatchInvocations(1 << tableBits)
			c.Barrier(gpu.BarrierStorage) // the counting pass reads the table
			d["PASS"] = "1"
			plan.Dispatches++
		}
		p := s.primProgram("scan/histogram.comp", d)
		tile := 4 * s.primGroup * histItems // 4 samples a vector
		tiles := ceilDiv(n, tile)
		// Enough groups to fill the device (a CPU has few cores), few
		// enough that each flushes its bins after many samples; and at
		// least so many that no invocation loops past llvmpipe's 65535
		// iterations: a tile costs an invocation at most about 5 + 16*25
		// of them (its loops, and per sample HistogramRange's search, up
		// to 25 steps over 2^25 bins), so a group takes at most 128 tiles.
		groups := min(tiles, 1024)
		if c.Caps().Software {
			groups = min(tiles, 64)
		}
		groups = max(groups, ceilDiv(tiles, 128))
		c.BindStorage(0, samples)
		c.BindStorage(3, samples)
		if boundaries != nil {
			c.BindStorage(1, boundaries)
		}
		c.BindStorage(2, counts)
		p.SetUint("n", uint32(n))
		p.SetUint("bins", uint32(bins))
		p.SetUint("tiles", uint32(tiles))
		p.SetUint("tableBits", uint32(tableBits))
		set(p)
		p.Dispatch1D(groups)
		c.Barrier(gpu.BarrierStorage)
		s.setPlan(plan)
	})
}
