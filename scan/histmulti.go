package scan

import (
	"fmt"
	"math"
	"strconv"

	"github.com/dpgl/dpgl/gpu"
)

// maxActiveChannels bounds MultiHistogramEven's channels that are counted
// (CUB's bound too: RGBA pixels).
const maxActiveChannels = 4

// MultiHistogramEven is HistogramEven over the channels of interleaved
// pixels (CUB's DeviceHistogram::MultiHistogramEven): samples holds
// pixels of channels samples each (RGBA pixels: channels 4), and channel
// c < len(counts) is counted into counts[c], of counts[c].Len() equal
// bins over [lower[c], upper[c]), bins as HistogramEven computes them.
// Channels from len(counts) on are skipped (RGB of RGBA: three counts). 1
// <= len(counts) <= min(channels, 4); lower and upper have len(counts)
// values; samples.Len() is a multiple of channels. The counts may not
// overlap each other or samples. One pass: each work group counts its
// pixels in shared memory (all channels' bins together, up to 4096), or
// with global atomics beyond, and adds its counts at the end. No scratch.
func MultiHistogramEven[T Elem](s *Scanner, counts []gpu.Array[uint32], samples gpu.Array[T], channels int, lower, upper []T) {
	const fn = "MultiHistogramEven"
	s.live(fn)
	active := len(counts)
	if channels < 1 {
		panic(fmt.Sprintf("scan: %s: channels %d: want at least 1", fn, channels))
	}
	if active < 1 || active > min(channels, maxActiveChannels) {
		panic(fmt.Sprintf("scan: %s: %d counts arrays for %d channels: want 1 to %d", fn, active, channels, min(channels, maxActiveChannels)))
	}
	if len(lower) != active || len(upper) != active {
		panic(fmt.Sprintf("scan: %s: %d lower and %d upper ends for %d counts arrays", fn, len(lower), len(upper), active))
	}
	ns := array(s, fn, "samples", samples)
	if ns%channels != 0 {
		panic(fmt.Sprintf("scan: %s: samples has %d elements, not a whole number of pixels of %d channels", fn, ns, channels))
	}
	bins, scale, total := multiHistogramBins(s, fn, counts, samples, lower, upper)
	n := ns / channels
	c := s.c
	c.Do(func() {
		for k, a := range counts {
			b, off := a.Base()
			b.FillRange(off, bins[k], 0)
		}
		if n == 0 {
			s.setPlan(Plan{Levels: 1})
			return
		}
		shared := 0
		if total <= min(maxSharedBins, c.Caps().MaxSharedMemory/4/2) {
			shared = total
		}
		p := s.primProgram("scan/histmulti.comp", map[string]string{
			"TYPE": strconv.Itoa(typeOf[T]()), "CHANNELS": strconv.Itoa(channels),
			"ACTIVE": strconv.Itoa(active), "SHARED_BINS": strconv.Itoa(shared),
		})
		c.BindStorage(0, samples)
		base := 0
		for k, a := range counts {
			c.BindStorage(1+k, a)
			at := fmt.Sprintf("[%d]", k)
			p.SetUint("chBins"+at, uint32(bins[k]))
			p.SetUint("chLower"+at, bitsOf(lower[k]))
			p.SetUint("chUpper"+at, bitsOf(upper[k]))
			p.SetFloat("chScale"+at, scale[k])
			if shared > 0 {
				p.SetUint("chBase"+at, uint32(base))
			}
			base += bins[k]
		}
		p.SetUint("n", uint32(n))
		// As HistogramEven: enough groups to fill the device, few enough
		// that each adds its shared counts after many pixels.
		groups := min(ceilDiv(n, s.primGroup*16), s.tune.histMaxGroups)
		p.Dispatch1D(groups)
		c.Barrier(gpu.BarrierStorage)
		s.setPlan(Plan{Levels: 1, Dispatches: 1})
	})
}

// multiHistogramBins checks each channel's counts array and range, and
// returns its bins, its float scale (bins per unit) and the total bins.
func multiHistogramBins[T Elem](s *Scanner, fn string, counts []gpu.Array[uint32], samples gpu.Array[T], lower, upper []T) (bins []int, scale []float32, total int) {
	active := len(counts)
	bins, scale = make([]int, active), make([]float32, active)
	for c, a := range counts {
		name := fmt.Sprintf("counts[%d]", c)
		bins[c] = array(s, fn, name, a)
		if bins[c] == 0 {
			panic(fmt.Sprintf("scan: %s: %s is empty: each channel needs at least one bin", fn, name))
		}
		disjoint(fn, name, a, "samples", samples)
		for d := range c {
			disjoint(fn, fmt.Sprintf("counts[%d]", d), counts[d], name, a)
		}
		if !(lower[c] < upper[c]) {
			panic(fmt.Sprintf("scan: %s: channel %d: lower %v is not below upper %v", fn, c, lower[c], upper[c]))
		}
		if typeOf[T]() == 2 {
			r := float32(upper[c]) - float32(lower[c])
			if math.IsInf(float64(r), 0) || math.IsInf(float64(lower[c]), 0) || math.IsInf(float64(upper[c]), 0) {
				panic(fmt.Sprintf("scan: %s: channel %d: the range [%v, %v) is not finite", fn, c, lower[c], upper[c]))
			}
			scale[c] = float32(bins[c]) / r
		}
		total += bins[c]
	}
	return bins, scale, total
}
