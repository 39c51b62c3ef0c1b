package main

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan"
	"github.com/dpgl/dpgl/scan/radix"
)

// The rows of the families beyond the original primitives: by key,
// searches, merges, multi-channel histograms, top-k and segmented sorts.
// Rows that need arrays of their own allocate them in setup and free them
// in check. The multi-histogram counts the RGB of RGBA pixels into 256 bins
// each; the segmented sort's segments are primEnv's sizes (8 keys on
// average), and its time includes copying the keys in.

// newBuf uploads v, or records the first failure in *err.
func newBuf[T any](c *gpu.Context, v []T, err *error) *gpu.Buffer[T] {
	if *err != nil {
		return nil
	}
	b, e := gpu.NewBufferFrom(c, v)
	*err = e
	return b
}

func failed(err error) (func(), func(), func() error) {
	return nil, nil, func() error { return err }
}

func init() {
	primBenches = append(primBenches,
		primBench{"scan-by-key add u32", func(e *primEnv) (func(), func(), func() error) {
			want := make([]uint32, e.n)
			return func() { scan.InclusiveScanByKey(e.s, gpu.Array[uint32](e.dstU), e.gVals, e.gKeys, scan.Add) },
				func() {
					var acc uint32
					for i, v := range e.vals {
						if i == 0 || e.keys[i] != e.keys[i-1] {
							acc = 0
						}
						acc += v
						want[i] = acc
					}
				},
				func() error { return equalU("scan-by-key", e.dstU, want) }
		}},
		primBench{"dedup by key + values", func(e *primEnv) (func(), func(), func() error) {
			var wk, wv []uint32
			var got int
			return func() {
					got = scan.UniqueByKey(e.s, gpu.Array[uint32](e.dstU), gpu.Array[uint32](e.dst2U), e.gKeys, e.gVals)
				},
				func() {
					wk, wv = wk[:0], wv[:0]
					for i, k := range e.keys {
						if i == 0 || k != e.keys[i-1] {
							wk, wv = append(wk, k), append(wv, e.vals[i])
						}
					}
				},
				func() error {
					if err := equalCount("dedup by key + values", got, len(wk)); err != nil {
						return err
					}
					if err := equalU("unique-by-key keys", e.dstU, wk); err != nil {
						return err
					}
					return equalU("unique-by-key values", e.dst2U, wv)
				}
		}},
		primBench{"non-trivial runs", func(e *primEnv) (func(), func(), func() error) {
			var wo, wl []uint32
			var got int
			return func() { got = scan.NonTrivialRuns(e.s, gpu.Array[uint32](e.dstU), gpu.Array[uint32](e.dst2U), e.gKeys) },
				func() {
					wo, wl = wo[:0], wl[:0]
					for i := 0; i < len(e.keys); {
						j := i + 1
						for j < len(e.keys) && e.keys[j] == e.keys[i] {
							j++
						}
						if j-i > 1 {
							wo, wl = append(wo, uint32(i)), append(wl, uint32(j-i))
						}
						i = j
					}
				},
				func() error {
					if err := equalCount("non-trivial runs", got, len(wo)); err != nil {
						return err
					}
					if err := equalU("non-trivial runs offsets", e.dstU, wo); err != nil {
						return err
					}
					return equalU("non-trivial runs lengths", e.dst2U, wl)
				}
		}},
		primBench{"3-way partition f32", func(e *primEnv) (func(), func(), func() error) {
			var err error
			third := newBuf(e.c, make([]float32, e.n), &err)
			second := newBuf(e.c, make([]float32, e.n), &err)
			if err != nil {
				third.Delete()
				return failed(err)
			}
			var w [3][]float32
			var n1, n2 int
			return func() {
					n1, n2, err = scan.ThreeWayPartitionIf(e.s, gpu.Array[float32](e.dstF), gpu.Array[float32](second), gpu.Array[float32](third), e.gFloats, "x < 0.25", "x < 0.5")
				},
				func() {
					for k := range w {
						w[k] = w[k][:0]
					}
					for _, x := range e.floats {
						switch {
						case x < 0.25:
							w[0] = append(w[0], x)
						case x < 0.5:
							w[1] = append(w[1], x)
						default:
							w[2] = append(w[2], x)
						}
					}
				},
				func() error {
					defer third.Delete()
					defer second.Delete()
					if err != nil {
						return err
					}
					if n1 != len(w[0]) || n2 != len(w[1]) {
						return fmt.Errorf("bench: primitives: three-way partition: counts %d, %d, want %d, %d", n1, n2, len(w[0]), len(w[1]))
					}
					for k, b := range []*gpu.Buffer[float32]{e.dstF, second, third} {
						g := make([]float32, len(w[k]))
						b.Read(0, g)
						if !slices.Equal(g, w[k]) {
							return fmt.Errorf("bench: primitives: three-way partition: part %d differs", k)
						}
					}
					return nil
				}
		}},
		primBench{"adjacent difference u32", func(e *primEnv) (func(), func(), func() error) {
			want := make([]uint32, e.n)
			return func() { scan.AdjacentDifference(e.s, gpu.Array[uint32](e.dstU), e.gVals) },
				func() {
					var prev uint32
					for i, v := range e.vals {
						want[i] = v - prev
						prev = v
					}
				},
				func() error { return equalU("adjacent difference", e.dstU, want) }
		}},
		primBench{"lower bound u32", func(e *primEnv) (func(), func(), func() error) {
			sorted := slices.Clone(e.vals)
			slices.Sort(sorted)
			var err error
			gs := newBuf(e.c, sorted, &err)
			if err != nil {
				return failed(err)
			}
			want := make([]uint32, e.n)
			return func() { scan.LowerBound(e.s, gpu.Array[uint32](e.dstU), gpu.Array[uint32](gs), e.gVals) },
				func() {
					for i, q := range e.vals {
						p, _ := slices.BinarySearch(sorted, q)
						want[i] = uint32(p)
					}
				},
				func() error { defer gs.Delete(); return equalU("lower bound", e.dstU, want) }
		}},
		primBench{"merge u32", func(e *primEnv) (func(), func(), func() error) {
			h := e.n / 2
			halves := slices.Clone(e.vals)
			slices.Sort(halves[:h])
			slices.Sort(halves[h:])
			var err error
			gh := newBuf(e.c, halves, &err)
			if err != nil {
				return failed(err)
			}
			want := make([]uint32, e.n)
			return func() {
					scan.Merge(e.s, gpu.Array[uint32](e.dstU), gpu.Array[uint32](gh.Slice(0, h)), gpu.Array[uint32](gh.Slice(h, e.n-h)))
				},
				func() {
					a, b := halves[:h], halves[h:]
					i, j := 0, 0
					for o := range want {
						if j >= len(b) || i < len(a) && a[i] <= b[j] {
							want[o] = a[i]
							i++
						} else {
							want[o] = b[j]
							j++
						}
					}
				},
				func() error { defer gh.Delete(); return equalU("merge", e.dstU, want) }
		}},
		primBench{"multi-histogram RGB u32", func(e *primEnv) (func(), func(), func() error) {
			px := e.n / 4
			if e.n < 3*4*histBins {
				return nil, nil, func() error { return nil } // too few elements for the three channels' counts
			}
			var counts [3]gpu.Array[uint32]
			for k := range counts {
				counts[k] = e.dstU.Slice(4*histBins*k, histBins)
			}
			want := make([]uint32, 3*histBins)
			lower, upper := []uint32{0, 0, 0}, []uint32{math.MaxUint32, 1 << 31, math.MaxUint32}
			return func() {
					scan.MultiHistogramEven(e.s, counts[:], gpu.Array[uint32](e.gVals.Slice(0, 4*px)), 4, lower, upper)
				},
				func() {
					clear(want)
					for p := range px {
						for k := range 3 {
							x := uint64(e.vals[4*p+k])
							if x < uint64(upper[k]) {
								want[k*histBins+int(x*histBins/uint64(upper[k]))]++
							}
						}
					}
				},
				func() error {
					for k := range 3 {
						got := make([]uint32, histBins)
						counts[k].Read(0, got)
						if !slices.Equal(got, want[k*histBins:(k+1)*histBins]) {
							return fmt.Errorf("bench: primitives: multi-histogram: channel %d differs", k)
						}
					}
					return nil
				}
		}},
		primBench{"top-1024 u32", func(e *primEnv) (func(), func(), func() error) {
			const k = 1024
			if e.n < k {
				return nil, nil, func() error { return nil }
			}
			rs, err := radix.New(e.c)
			if err != nil {
				return failed(err)
			}
			want := make([]uint32, k)
			idx := make([]int, e.n)
			return func() {
					err = radix.TopK(rs, gpu.Array[uint32](e.dstU.Slice(0, k)), gpu.Array[uint32](e.dst2U.Slice(0, k)), e.gVals, true)
				},
				func() {
					for i := range idx {
						idx[i] = i
					}
					slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(e.vals[b], e.vals[a]) })
					for i := range want {
						want[i] = uint32(idx[i])
					}
				},
				func() error {
					defer rs.Delete()
					if err != nil {
						return err
					}
					return equalU("top-k indices", e.dst2U, want)
				}
		}},
		primBench{"segmented sort u32", func(e *primEnv) (func(), func(), func() error) {
			rs, err := radix.New(e.c)
			if err != nil {
				return failed(err)
			}
			offs := append(slices.Clone(e.offs), uint32(e.n))
			keys := make([]uint32, e.n)
			gk := newBuf(e.c, keys, &err)
			go_ := newBuf(e.c, offs, &err)
			if err != nil {
				gk.Delete()
				rs.Delete()
				return failed(err)
			}
			return func() {
					gk.CopyFrom(e.gVals)
					err = radix.SegmentedSortKeys(rs, gpu.Array[uint32](gk), gpu.Array[uint32](go_), radix.Order{})
				},
				func() {
					copy(keys, e.vals)
					for j := range e.offs {
						slices.Sort(keys[offs[j]:offs[j+1]])
					}
				},
				func() error {
					defer rs.Delete()
					defer gk.Delete()
					defer go_.Delete()
					if err != nil {
						return err
					}
					return equalU("segmented sort", gk, keys)
				}
		}},
	)
}
