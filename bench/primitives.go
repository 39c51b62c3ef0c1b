package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/internal/cliflag"
	"github.com/dpgl/dpgl/scan"
)

func init() {
	commands["primitives"] = command{runPrimitives, "histogram, select, partition, transform, unique, run-length encode, reduce-by-key, segmented reduce, load-balancing search: GPU vs the copy kernel and a CPU loop"}
}

// primEnv is what every row of the primitives table works on at one size:
// n fixed-seed inputs on the host and the GPU, scratch outputs, and the
// Scanner. Rows only read the inputs.
type primEnv struct {
	c *gpu.Context
	s *scan.Scanner
	n int

	vals   []uint32  // random 32-bit values
	keys   []uint32  // runs of equal keys, 8 long on average
	floats []float32 // uniform in [0, 1)
	flags  []uint32  // 0/1, half set
	sizes  []uint32  // segment sizes, 8 on average (they sum to about n), and their exclusive scan
	offs   []uint32

	gVals, gKeys, gFlags, gOffs, gSegOffs *gpu.Buffer[uint32]
	gFloats                               *gpu.Buffer[float32]
	dstU, dst2U                           *gpu.Buffer[uint32]
	dstF                                  *gpu.Buffer[float32]
	segOffs                               []uint32 // 64-element segments' offsets, len n/64+1
	items                                 int      // the sum of sizes
}

// primBench is one row of the table. setup prepares the row at e's size
// and returns the GPU run (on the GL thread), the CPU loop that answers the
// same question, and a check of the GPU's answer against the CPU's, which
// runs after both. Other files add rows (sort) in their init.
type primBench struct {
	name  string
	setup func(e *primEnv) (gpuRun, cpuRun func(), check func() error)
}

var primBenches []primBench

// primRow is one row's measurement.
type primRow struct {
	name     string
	gpuT     Stats
	cpuT     time.Duration
	checkErr error
}

func newPrimEnv(c *gpu.Context, s *scan.Scanner, n int) (*primEnv, error) {
	rng := rand.New(rand.NewPCG(uint64(n), 17))
	e := &primEnv{c: c, s: s, n: n}
	e.vals, e.keys, e.floats, e.flags = make([]uint32, n), make([]uint32, n), make([]float32, n), make([]uint32, n)
	k := uint32(0)
	for i := range n {
		e.vals[i] = rng.Uint32()
		if rng.IntN(8) == 0 {
			k = rng.Uint32()
		}
		e.keys[i] = k
		e.floats[i] = rng.Float32()
		e.flags[i] = uint32(rng.IntN(2))
	}
	for sum := 0; sum < n; {
		sz := min(rng.IntN(17), n-sum)
		e.offs = append(e.offs, uint32(sum))
		e.sizes = append(e.sizes, uint32(sz))
		sum += sz
	}
	e.items = n
	for i := 0; i < n; i += 64 {
		e.segOffs = append(e.segOffs, uint32(i))
	}
	e.segOffs = append(e.segOffs, uint32(n))
	var err error
	up := func(b **gpu.Buffer[uint32], v []uint32) {
		if err == nil {
			*b, err = gpu.NewBufferFrom(c, v)
		}
	}
	up(&e.gVals, e.vals)
	up(&e.gKeys, e.keys)
	up(&e.gFlags, e.flags)
	up(&e.gOffs, e.offs)
	up(&e.gSegOffs, e.segOffs)
	up(&e.dstU, make([]uint32, n))
	up(&e.dst2U, make([]uint32, n))
	if err == nil {
		e.gFloats, err = gpu.NewBufferFrom(c, e.floats)
	}
	if err == nil {
		e.dstF, err = gpu.NewBuffer[float32](c, n)
	}
	if err != nil {
		e.delete()
		return nil, err
	}
	return e, nil
}

func (e *primEnv) delete() {
	for _, b := range []*gpu.Buffer[uint32]{e.gVals, e.gKeys, e.gFlags, e.gOffs, e.gSegOffs, e.dstU, e.dst2U} {
		b.Delete()
	}
	e.gFloats.Delete()
	e.dstF.Delete()
}

// equalU fails unless the GPU's first len(want) elements of b are want.
func equalU(what string, b *gpu.Buffer[uint32], want []uint32) error {
	got := make([]uint32, len(want))
	b.Read(0, got)
	for i := range want {
		if got[i] != want[i] {
			return fmt.Errorf("bench: primitives: %s: [%d] = %d, want %d", what, i, got[i], want[i])
		}
	}
	return nil
}

func equalCount(what string, got, want int) error {
	if got != want {
		return fmt.Errorf("bench: primitives: %s: count %d, want %d", what, got, want)
	}
	return nil
}

const histBins = 256

func init() {
	primBenches = append(primBenches,
		primBench{"exclusive scan (ref.)", func(e *primEnv) (func(), func(), func() error) {
			want := make([]uint32, e.n)
			return func() { scan.ExclusiveScan(e.s, gpu.Array[uint32](e.dstU), e.gVals, scan.Add, 0) },
				func() {
					var acc uint32
					for i, v := range e.vals {
						want[i] = acc
						acc += v
					}
				},
				func() error { return equalU("exclusive scan", e.dstU, want) }
		}},
		primBench{"histogram even f32", func(e *primEnv) (func(), func(), func() error) {
			want := make([]uint32, histBins)
			counts := e.dstU.Slice(0, histBins)
			return func() { scan.HistogramEven(e.s, gpu.Array[uint32](counts), e.gFloats, 0, 1) },
				func() {
					clear(want)
					scale := float32(histBins)
					for _, x := range e.floats {
						if x >= 0 && x < 1 {
							want[min(int(x*scale), histBins-1)]++
						}
					}
				},
				func() error { return equalU("histogram even", e.dstU, want) }
		}},
		primBench{"histogram range u32", func(e *primEnv) (func(), func(), func() error) {
			want := make([]uint32, histBins)
			bnd := make([]uint32, histBins+1)
			for i := range bnd {
				bnd[i] = uint32(i) << 24 // the top byte's bins, the last one open
			}
			bnd[histBins] = math.MaxUint32
			gb, err := gpu.NewBufferFrom(e.c, bnd)
			if err != nil {
				return nil, nil, func() error { return err }
			}
			counts := e.dstU.Slice(0, histBins)
			return func() { scan.HistogramRange(e.s, gpu.Array[uint32](counts), e.gVals, gb) },
				func() {
					clear(want)
					for _, x := range e.vals {
						if x < bnd[histBins] {
							want[sort.Search(len(bnd), func(i int) bool { return bnd[i] > x })-1]++
						}
					}
				},
				func() error { defer gb.Delete(); return equalU("histogram range", e.dstU, want) }
		}},
		primBench{"select-if f32", func(e *primEnv) (func(), func(), func() error) {
			var want []uint32
			var got int
			var err error
			return func() { got, err = scan.SelectIf(e.s, gpu.Array[float32](e.dstF), e.gFloats, "x < 0.5") },
				func() { want = selectBelowHalf(want, e.floats) },
				func() error { return checkSelected("select-if", err, got, e.dstF, want) }
		}},
		primBench{"partition by flags", func(e *primEnv) (func(), func(), func() error) {
			want := make([]uint32, e.n)
			var got, k int
			return func() { got = scan.Partition(e.s, gpu.Array[uint32](e.dstU), e.gVals, e.gFlags) },
				func() {
					k = 0
					for i, v := range e.vals {
						if e.flags[i] != 0 {
							want[k] = v
							k++
						}
					}
					j := k
					for i, v := range e.vals {
						if e.flags[i] == 0 {
							want[j] = v
							j++
						}
					}
				},
				func() error {
					if err := equalCount("partition", got, k); err != nil {
						return err
					}
					return equalU("partition", e.dstU, want)
				}
		}},
		primBench{"transform f32", func(e *primEnv) (func(), func(), func() error) {
			want := make([]float32, e.n)
			var err error
			return func() { err = scan.Transform(e.s, gpu.Array[float32](e.dstF), e.gFloats, "x * 2.0 + 1.0") },
				func() {
					for i, x := range e.floats {
						want[i] = x*2 + 1
					}
				},
				func() error {
					if err != nil {
						return err
					}
					g := e.dstF.Download()
					for i := range want {
						if g[i] != want[i] {
							return fmt.Errorf("bench: primitives: transform: [%d] = %v, want %v", i, g[i], want[i])
						}
					}
					return nil
				}
		}},
		primBench{"unique", func(e *primEnv) (func(), func(), func() error) {
			var want []uint32
			var got int
			return func() { got = scan.Unique(e.s, gpu.Array[uint32](e.dstU), e.gKeys) },
				func() {
					want = want[:0]
					for i, k := range e.keys {
						if i == 0 || k != e.keys[i-1] {
							want = append(want, k)
						}
					}
				},
				func() error {
					if err := equalCount("unique", got, len(want)); err != nil {
						return err
					}
					return equalU("unique", e.dstU, want)
				}
		}},
		primBench{"run-length encode", func(e *primEnv) (func(), func(), func() error) {
			var want, lens []uint32
			var got int
			return func() {
					got = scan.RunLengthEncode(e.s, gpu.Array[uint32](e.dstU), gpu.Array[uint32](e.dst2U), e.gKeys)
				},
				func() {
					want, lens = want[:0], lens[:0]
					for i, k := range e.keys {
						if i == 0 || k != e.keys[i-1] {
							want, lens = append(want, k), append(lens, 0)
						}
						lens[len(lens)-1]++
					}
				},
				func() error {
					if err := equalCount("run-length encode", got, len(want)); err != nil {
						return err
					}
					if err := equalU("run-length encode", e.dstU, want); err != nil {
						return err
					}
					return equalU("run-length encode lengths", e.dst2U, lens)
				}
		}},
		primBench{"reduce-by-key add u32", func(e *primEnv) (func(), func(), func() error) {
			var want []uint32
			var got int
			return func() {
					got = scan.ReduceByKey(e.s, gpu.Array[uint32](e.dst2U), gpu.Array[uint32](e.dstU), e.gKeys, e.gVals, scan.Add)
				},
				func() {
					want = want[:0]
					for i, k := range e.keys {
						if i == 0 || k != e.keys[i-1] {
							want = append(want, 0)
						}
						want[len(want)-1] += e.vals[i]
					}
				},
				func() error {
					if err := equalCount("reduce-by-key", got, len(want)); err != nil {
						return err
					}
					return equalU("reduce-by-key", e.dstU, want)
				}
		}},
		primBench{"segmented reduce u32", func(e *primEnv) (func(), func(), func() error) {
			segs := len(e.segOffs) - 1
			want := make([]uint32, segs)
			return func() {
					scan.SegmentedReduce(e.s, gpu.Array[uint32](e.dstU.Slice(0, segs)), e.gVals, e.gSegOffs, scan.Add, 0)
				},
				func() {
					for j := range segs {
						var acc uint32
						for _, v := range e.vals[e.segOffs[j]:e.segOffs[j+1]] {
							acc += v
						}
						want[j] = acc
					}
				},
				func() error { return equalU("segmented reduce", e.dstU, want) }
		}},
		primBench{"load-balancing search", func(e *primEnv) (func(), func(), func() error) {
			seg, rank := make([]uint32, e.items), make([]uint32, e.items)
			return func() { scan.LoadBalancingSearch(e.s, gpu.Array[uint32](e.dstU), gpu.Array[uint32](e.dst2U), e.gOffs) },
				func() {
					g := 0
					for p, sz := range e.sizes {
						for r := range sz {
							seg[g], rank[g] = uint32(p), r
							g++
						}
					}
				},
				func() error {
					if err := equalU("load-balancing search", e.dstU, seg); err != nil {
						return err
					}
					return equalU("load-balancing search ranks", e.dst2U, rank)
				}
		}},
		primBench{"interval expand", func(e *primEnv) (func(), func(), func() error) {
			out := make([]uint32, e.items)
			vals := e.gVals.Slice(0, len(e.offs))
			return func() { scan.IntervalExpand(e.s, gpu.Array[uint32](e.dstU), gpu.Array[uint32](vals), e.gOffs) },
				func() {
					g := 0
					for p, sz := range e.sizes {
						for range sz {
							out[g] = e.vals[p]
							g++
						}
					}
				},
				func() error { return equalU("interval expand", e.dstU, out) }
		}},
	)
}

// timeCPU runs fn warm times, then reps times, and returns the median.
func timeCPU(warm, reps int, fn func()) time.Duration {
	for range warm {
		fn()
	}
	ts := make([]time.Duration, reps)
	for i := range ts {
		start := time.Now()
		fn()
		ts[i] = time.Since(start)
	}
	slices.Sort(ts)
	return ts[reps/2]
}

// measurePrimitives times every row at n elements.
func measurePrimitives(c *gpu.Context, s *scan.Scanner, rows []primBench, n, warm, reps int) ([]primRow, error) {
	e, err := newPrimEnv(c, s, n)
	if err != nil {
		return nil, err
	}
	defer e.delete()
	var out []primRow
	for _, b := range rows {
		g, cpu, check := b.setup(e)
		r := primRow{name: b.name}
		if g != nil {
			r.gpuT = timeGPU(c, warm, reps, g)
			r.cpuT = timeCPU(min(warm, 1), reps, cpu)
		}
		if err := check(); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// defaultPrimitiveSizes are the scans' sizes, to 2^24 on a software
// renderer, where the multi-pass primitives at 2^28 would take minutes.
func defaultPrimitiveSizes(c *gpu.Context) []int {
	sizes := defaultScanSizes(c)
	if c.Caps().Software {
		sizes = slices.DeleteFunc(sizes, func(n int) bool { return n > 1<<24 })
	}
	return sizes
}

func runPrimitives(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("primitives", flag.ContinueOnError)
	log2 := fs.String("log2", "", "element counts as powers of two, comma-separated exponents (default: 16,18,...,24, or to 28 on a GPU, capped by the device)")
	only := fs.String("only", "", "run only the rows whose names contain this text")
	path := fs.String("path", "auto", "how the scans inside cross tiles: auto, look-back or reduce-then-scan")
	cf := addCommonFlags(fs, 2, 5)
	fs.Usage = usageFor(fs, "primitives", "Times each primitive of package scan built on the scans on uint32 or float32 arrays, and compares it with the copy kernel moving n 4-byte elements and with a plain Go loop computing the same answer, all in the same run; each GPU answer is checked against the loop's.")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	// Every flag before the context and the first kernel.
	sizes, err := log2Flag("primitives", *log2)
	if err != nil {
		return err
	}
	rows := slices.Clone(primBenches)
	// The radix sort has two paths and a plan of its own to print, so its
	// rows follow the table (printSort, bench/sort.go), under the same -only.
	withSort := strings.Contains(sortRowName, *only)
	if *only != "" {
		rows = slices.DeleteFunc(rows, func(b primBench) bool { return !strings.Contains(b.name, *only) })
		if len(rows) == 0 && !withSort {
			return fmt.Errorf("bench primitives: %w", cliflag.Errorf("only", *only, "matches no row"))
		}
	}
	var opt scan.Options
	switch *path {
	case "auto":
	case "look-back":
		opt.Path = scan.PathLookBack
	case "reduce-then-scan":
		opt.Path = scan.PathReduceThenScan
	default:
		return fmt.Errorf("bench primitives: %w", cliflag.Errorf("path", *path, "want auto, look-back or reduce-then-scan"))
	}
	c, err := gpu.NewHeadless()
	if err != nil {
		return err
	}
	defer c.Delete()
	if sizes, err = log2Sizes("primitives", *log2, sizes, c, defaultPrimitiveSizes); err != nil {
		return err
	}
	s, err := scan.NewWithOptions(c, opt)
	if err != nil {
		return err
	}
	defer s.Delete()
	if len(rows) > 0 {
		fmt.Fprintf(w, "primitives on %s, scans %s\n  (%s; GPU time, median of %d after %d warm-up; vs copy = the copy kernel's time for n 4-byte elements / this time; vs CPU = a plain Go loop's time, same run, / this time)\n\n",
			c.Caps().Renderer, *path, c.Caps().Version, cf.reps, cf.warmup)
		fmt.Fprintf(w, "%10s %10s  %-24s %10s %8s %7s  %10s %7s\n", "elements", "copy", "primitive", "time", "Gelem/s", "vs copy", "CPU loop", "vs CPU")
		pr := newProgress("primitives", len(sizes))
		for _, n := range sizes {
			cp, err := measureCopy(c, int64(n)*4, cf.warmup, cf.reps)
			if err != nil {
				return err
			}
			rs, err := measurePrimitives(c, s, rows, n, cf.warmup, cf.reps)
			pr.step(strconv.Itoa(n))
			pr.clear()
			if err != nil {
				return err
			}
			for i, r := range rs {
				label, ct := "", ""
				if i == 0 {
					label, ct = fmtCount(n), fmtDur(cp.GPU.Median)
				}
				vsCPU := 0.0
				if r.gpuT.Median > 0 {
					vsCPU = float64(r.cpuT) / float64(r.gpuT.Median)
				}
				fmt.Fprintf(w, "%10s %10s  %-24s %10s %8.3f %7.3f  %10s %7.3f\n", label, ct, r.name,
					fmtDur(r.gpuT.Median), gelems(n, r.gpuT), vsCopy(cp.GPU, r.gpuT), fmtDur(r.cpuT), vsCPU)
			}
		}
	}
	if withSort {
		if len(rows) > 0 {
			fmt.Fprintln(w)
		}
		return printSort(c, w, sizes, cf.warmup, cf.reps)
	}
	return nil
}
