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
// may not overlap samples or boundaries. A sample's bin comes from a
// lookup table on the high bits of its key, built first; scratch: the
// table, at most 16448 words, and at most samples.Len() from 68 on.
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
const histItems = 8

// The histogram's paths (tests force each): chosen from the bins and the
// driver, per invocation, per work group in shared memory, or in global
// memory.
const (
	histAuto = iota
	histPrivate
	histShared
	histGlobal
)

// histTableBits bounds HistogramRange's lookup table: 8192 buckets (32
// KiB a word each, which a CPU's first-level cache about holds), so that
// buckets of u32 keys have at most 2^19 keys, and most hold no boundary
// for a few hundred bins.
const histTableBits = 13

// histArgWords: the words of indirect arguments and padding before
// HistogramRange's table (histogram.comp's args), 256 bytes, the largest
// texel buffer offset alignment GL allows.
const histArgWords = 64

// histTexels returns the buffer texture through which HistogramRange
// reads its table, made on first use, or nil where the driver has none
// to give (the kernel then loads the table from storage). It must run
// on the GL thread.
func (s *Scanner) histTexels(c *gpu.Context) *gpu.TexelBuffer {
	if s.prim.texels == nil && !s.prim.noTexels {
		t, err := gpu.NewTexelBuffer(c)
		if err != nil {
			s.prim.noTexels = true
			return nil
		}
		s.prim.texels = t
	}
	return s.prim.texels
}

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
		if path == histAuto && s.tune.histPrivate {
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
		tile := 4 * s.primGroup * histItems // 4 samples a vector
		tiles := ceilDiv(n, tile)
		// Enough groups to fill the device, few enough that each flushes
		// its bins after many samples (the tuning's most); and at least so
		// many that no invocation loops past llvmpipe's 65535 iterations:
		// a tile costs an invocation at most about 5 + 32*25 of them (its
		// loops, and per sample HistogramRange's search, up to 25 steps
		// over 2^25 bins), so a group takes at most 64 tiles.
		groups := min(tiles, s.tune.histMaxGroups)
		groups = max(groups, ceilDiv(tiles, 64))
		plan := Plan{Levels: 1, Dispatches: 1}
		tableBits := 0
		var table gpu.Range[uint32]
		if boundaries != nil {
			// The search's lookup table (histogram.comp's PASS 0): 64 words
			// of indirect arguments and padding, then two words for each of
			// 2^tableBits buckets, at least 2 and at most
			// 2^histTableBits, and within n words where n allows, so that
			// Reserve(n) covers it.
			tableBits = min(max(bits.Len(uint(max(n-histArgWords, 0)/2))-1, 1), histTableBits)
			table = s.scratch(fn, scratchFlags, histArgWords+2<<tableBits)
			// PASS 1 without the loop on all groups, unless PASS 0 finds
			// a span too wide for it.
			table.Write(0, []uint32{uint32(groups), 1, 1, 0, 0, 1, 1, 0})
			c.BindStorage(1, boundaries)
			c.BindStorage(4, table)
			d["PASS"] = "0"
			p := s.primProgram("scan/histogram.comp", d)
			p.SetUint("bins", uint32(bins))
			p.SetUint("tableBits", uint32(tableBits))
			p.SetUint("loopGroups", uint32(groups))
			p.DispatchInvocations(1 << tableBits)
			// The counting pass reads the table, and its arguments.
			c.Barrier(gpu.BarrierStorage | gpu.BarrierCommand)
			d["PASS"] = "1"
			plan.Dispatches += 2
		}
		c.BindStorage(0, samples)
		c.BindStorage(3, samples)
		c.BindStorage(2, counts)
		run := func(p *gpu.Program) {
			p.SetUint("n", uint32(n))
			p.SetUint("bins", uint32(bins))
			p.SetUint("tiles", uint32(tiles))
			set(p)
		}
		if boundaries == nil {
			p := s.primProgram("scan/histogram.comp", d)
			run(p)
			p.Dispatch1D(groups)
		} else {
			// Without the loop, then with it; PASS 0 gave one of them no
			// groups (groups <= 1024 fit the x of any grid).
			// LOOP 0 reads its entries as texels, one a texel, where it
			// can.
			texels := s.histTexels(c)
			if texels != nil {
				tb, toff := table.Base()
				c.BindTexels(0, texels, tb.Slice(toff+histArgWords, 1<<tableBits), gpu.TexelR32UI)
			}
			for loop, off := range []int{0, 16} {
				d["LOOP"] = strconv.Itoa(loop)
				d["TEXELS"] = "0"
				if loop == 0 && texels != nil {
					d["TEXELS"] = "1"
				}
				p := s.primProgram("scan/histogram.comp", d)
				run(p)
				p.SetUint("tableBits", uint32(tableBits))
				p.DispatchIndirect(table, off)
			}
		}
		c.Barrier(gpu.BarrierStorage)
		s.setPlan(plan)
	})
}
