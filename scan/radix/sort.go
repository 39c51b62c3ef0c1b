package radix

import (
	"fmt"
	"reflect"
	"strconv"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan"
)

// Key is a key type the sort orders: unsigned and signed integers by
// value, floats by the total order of the package doc.
type Key interface{ ~uint32 | ~int32 | ~float32 }

// Order says which way, and by which bits of the ordered key, a sort
// orders. The zero value sorts ascending by all 32 bits.
type Order struct {
	// Descending reverses the order: the exact reverse of ascending order,
	// except that equal keys still keep their input order.
	Descending bool
	// Begin and End bound the bits [Begin, End) of the ordered key (see
	// the package doc) that the sort compares; End 0 means 32. Keys equal
	// in those bits keep their input order. Fewer bits, fewer passes.
	Begin, End int
}

// bitRange returns o's bits, panicking unless they are a range in 0..32.
func (o Order) bitRange(fn string) (begin, end int) {
	end = o.End
	if end == 0 {
		end = 32
	}
	if o.Begin < 0 || end > 32 || o.Begin >= end {
		panic(fmt.Sprintf("radix: %s: bit range [%d, %d) is not a nonempty range of 0..32 (End 0 means 32)", fn, o.Begin, o.End))
	}
	return o.Begin, end
}

// SortKeys sorts keys stably by o, using tmp, of the same length, as
// scratch (its contents are lost).
func SortKeys[K Key](s *Sorter, keys, tmp gpu.Array[K], o Order) error {
	const fn = "SortKeys"
	s.live(fn)
	n := array(s, fn, "keys", keys)
	sameLen(fn, "keys", n, "tmp", array(s, fn, "tmp", tmp))
	disjoint(fn, "keys", keys, "tmp", tmp)
	j := job{fn: fn, key: keyOf[K](), n: n, keys: [2]gpu.Storage{keys, tmp}}
	j.begin, j.end = o.bitRange(fn)
	j.desc = o.Descending
	if n == 0 {
		return nil
	}
	return s.run(&j, func() { copyBack(keys, tmp, n) }, nil)
}

// SortPairs sorts keys stably by o and moves vals[i] with keys[i], using
// tmpKeys and tmpVals as scratch (their contents are lost). All four
// arrays have the same length and none overlaps another. V is any
// plain-data type whose size is a multiple of 4 bytes.
func SortPairs[K Key, V any](s *Sorter, keys, tmpKeys gpu.Array[K], vals, tmpVals gpu.Array[V], o Order) error {
	const fn = "SortPairs"
	s.live(fn)
	w := recordWords[V](fn)
	n := array(s, fn, "keys", keys)
	sameLen(fn, "keys", n, "tmpKeys", array(s, fn, "tmpKeys", tmpKeys))
	sameLen(fn, "keys", n, "vals", array(s, fn, "vals", vals))
	sameLen(fn, "keys", n, "tmpVals", array(s, fn, "tmpVals", tmpVals))
	all := []struct {
		name string
		a    gpu.Storage
	}{{"keys", keys}, {"tmpKeys", tmpKeys}, {"vals", vals}, {"tmpVals", tmpVals}}
	for i := range all {
		for k := i + 1; k < len(all); k++ {
			disjoint(fn, all[i].name, all[i].a, all[k].name, all[k].a)
		}
	}
	j := job{fn: fn, key: keyOf[K](), n: n, words: w,
		keys: [2]gpu.Storage{keys, tmpKeys}, vals: [2]gpu.Storage{vals, tmpVals}}
	j.begin, j.end = o.bitRange(fn)
	j.desc = o.Descending
	if n == 0 {
		return nil
	}
	return s.run(&j, func() { copyBack(keys, tmpKeys, n) }, func() { copyBack(vals, tmpVals, n) })
}

// copyBack copies n elements of src to dst (the driver's copy).
func copyBack[T any](dst, src gpu.Array[T], n int) {
	db, doff := dst.Base()
	sb, soff := src.Base()
	db.CopyRange(doff, sb, soff, n)
}

// job is one sort, described for the kernels.
type job struct {
	fn         string
	key        int // KEY: 0 uint32, 1 int32, 2 float32
	n          int
	words      int // value record words, 0: keys only
	begin, end int
	desc       bool
	keys, vals [2]gpu.Storage // the arrays and their scratch
}

func keyOf[K Key]() int {
	switch reflect.TypeFor[K]().Kind() {
	case reflect.Uint32:
		return 0
	case reflect.Int32:
		return 1
	}
	return 2
}

// progKey names one build of radix.comp; its fields become #defines.
type progKey struct {
	stage, key, words int
	lookback          bool
	spin              int
	nopub             bool
}

// program returns the kernel of a stage, building it on first use (the
// context caches programs too, but only after expanding the source).
func (s *Sorter) program(stage, key, words int, lookback bool) *gpu.Program {
	k := progKey{stage, key, words, lookback, s.spin, s.nopub}
	if p := s.progs[k]; p != nil {
		return p
	}
	d := map[string]string{
		"STAGE":        strconv.Itoa(stage),
		"KEY":          strconv.Itoa(key),
		"WG_SIZE":      strconv.Itoa(s.opt.GroupSize),
		"ITEMS":        strconv.Itoa(s.opt.Items),
		"DIGIT_BITS":   strconv.Itoa(s.opt.DigitBits),
		"RECORD_WORDS": strconv.Itoa(words),
		"LOOKBACK":     "0",
	}
	if lookback {
		d["LOOKBACK"] = "1"
		d["SPIN"] = strconv.Itoa(s.spin)
		if s.nopub {
			d["PUBLISH"] = "0"
		}
	}
	p := s.c.MustProgram("radix/radix.comp", d)
	s.progs[k] = p
	return p
}

// run issues j's dispatches on the GL thread and ends with a storage
// barrier; copyKeys and copyVals (nil: none) copy the scratch back after
// an odd number of passes.
func (s *Sorter) run(j *job, copyKeys, copyVals func()) error {
	var err error
	s.c.Do(func() {
		var plan Plan
		pr := s.newProfile()
		defer pr.delete()
		plan, err = s.sort(j, pr)
		if err != nil {
			return
		}
		if plan.Passes%2 == 1 {
			// The last pass wrote the scratch arrays; the copy back
			// issues the barrier that orders it after those writes.
			copyKeys()
			if copyVals != nil {
				copyVals()
			}
			plan.Copied = true
			pr.step("copy back", -1)
		}
		s.c.Barrier(gpu.BarrierStorage)
		plan.Steps = pr.read()
		s.mu.Lock()
		s.last = plan
		s.mu.Unlock()
	})
	return err
}

// sort runs the passes; pass p reads j.keys[p%2] and writes j.keys[1-p%2].
func (s *Sorter) sort(j *job, pr *profile) (Plan, error) {
	c := s.c
	bitsPer := s.opt.DigitBits
	radix := 1 << bitsPer
	passes := ceilDiv(j.end-j.begin, bitsPer)
	tiles := ceilDiv(j.n, s.tile)
	path := s.opt.Path
	plan := Plan{Path: path, DigitBits: bitsPer, Passes: passes, Tiles: tiles}
	desc := uint32(0)
	if j.desc {
		desc = 0xFFFFFFFF
	}
	lookback := path == PathOneSweep
	var hist, state, counts, cols *gpu.Buffer[uint32]
	var err error
	if lookback {
		if hist, err = s.grow(j.fn, &s.hist, passes*radix); err != nil {
			return plan, err
		}
		if state, err = s.grow(j.fn, &s.state, 64+tiles*radix); err != nil {
			return plan, err
		}
		// The histograms, tickets and fallback count start at zero (GL
		// orders these clears before later dispatches; FillRange waits for
		// the last call's shaders that wrote them).
		hist.FillRange(0, passes*radix, 0)
		state.FillRange(0, 64, 0)

		// One read of the keys for every pass's histogram.
		p := s.program(0, j.key, 0, false)
		c.BindStorage(0, j.keys[0])
		c.BindStorage(1, j.keys[0])
		c.BindStorage(5, hist)
		p.SetUint("n", uint32(j.n))
		p.SetUint("descMask", desc)
		p.SetUint("numTiles", uint32(tiles))
		p.SetUint("passes", uint32(passes))
		p.SetUint("begin", uint32(j.begin))
		p.SetUint("end", uint32(j.end))
		p.Dispatch1D(tiles)
		c.Barrier(gpu.BarrierStorage) // the bases scan reads the histograms
		pr.step("histograms", -1)
		p = s.program(1, j.key, 0, false)
		p.SetUint("passes", uint32(passes))
		p.Dispatch(1, 1, 1)
		c.Barrier(gpu.BarrierStorage) // the scatters read the bases
		pr.step("bases", -1)
		plan.Dispatches += 2
	} else {
		if counts, err = s.grow(j.fn, &s.counts, tiles*radix); err != nil {
			return plan, err
		}
		if cols, err = s.grow(j.fn, &s.cols, tiles*s.columnWords()); err != nil {
			return plan, err
		}
	}
	for pass := 0; pass < passes; pass++ {
		src, dst := pass%2, 1-pass%2
		shift := j.begin + pass*bitsPer
		mask := uint32(1)<<min(bitsPer, j.end-shift) - 1
		set := func(p *gpu.Program) {
			c.BindStorage(0, j.keys[src])
			c.BindStorage(1, j.keys[src])
			p.SetUint("n", uint32(j.n))
			p.SetUint("descMask", desc)
			p.SetUint("numTiles", uint32(tiles))
			p.SetUint("pass", uint32(pass))
			p.SetUint("shift", uint32(shift))
			p.SetUint("digitMask", mask)
		}
		if !lookback {
			p := s.program(2, j.key, 0, false)
			set(p)
			cv := counts.Slice(0, tiles*radix)
			c.BindStorage(7, cv)
			c.BindStorage(6, cols.Slice(0, tiles*s.columnWords()))
			p.Dispatch1D(tiles)
			c.Barrier(gpu.BarrierStorage) // the scan reads the counts
			pr.step("counts", pass)
			scan.ExclusiveScan(s.scanner, gpu.Array[uint32](cv), gpu.Array[uint32](cv), scan.Add, 0)
			pr.step("scan", pass)
			plan.Dispatches += 1 + s.scanner.LastPlan().Dispatches
		}
		p := s.program(3, j.key, j.words, lookback)
		set(p)
		c.BindStorage(2, j.keys[dst])
		if j.words > 0 {
			c.BindStorage(3, j.vals[src])
			c.BindStorage(4, j.vals[dst])
		}
		if lookback {
			// Every tile's state starts silent (FillRange waits for the
			// last pass that wrote it).
			state.FillRange(64, tiles*radix, 0)
			c.BindStorage(5, hist)
			c.BindStorage(6, state)
		} else {
			c.BindStorage(7, counts.Slice(0, tiles*radix))
			c.BindStorage(6, cols.Slice(0, tiles*s.columnWords()))
		}
		p.Dispatch1D(tiles)
		c.Barrier(gpu.BarrierStorage) // the next pass reads the keys
		pr.step("scatter", pass)
		plan.Dispatches++
	}
	return plan, nil
}
