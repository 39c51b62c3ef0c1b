package scan_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

var bitwise = []scan.Op{scan.And, scan.Or, scan.Xor}

// The bitwise operators (issue 39) on both paths and the shared-memory
// and subgroup tiles (the driver's subgroupExclusiveAnd/Or/Xor, or the
// emulation): scans, segmented scans and reductions against a plain loop
// at the edge sizes of tiny tiles, in uint32 and int32 (the same bits).
func TestBitwiseScans(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range primConfigs(t, c) {
		t.Run(cfg.name, func(t *testing.T) {
			s := primScanner(t, c, cfg)
			// Each operator and type is a set of kernels to build,
			// which takes long on a CPU driver: every operator on
			// the subgroup tiles (each has its own subgroup
			// arithmetic), Xor alone on the default tile, and with
			// -short (the zink leg) Xor alone on the shared-memory
			// tiles too, int32 only without -short.
			sub := strings.Contains(cfg.name, "subgroup")
			for _, op := range bitwise {
				if op == scan.Xor || sub || cfg.full && !testing.Short() {
					bitwiseCase[uint32](t, c, s, op)
				}
				if cfg.full && cfg.emulate == 0 && !testing.Short() {
					bitwiseCase[int32](t, c, s, op)
				}
			}
		})
	}
}

func bitwiseCase[T scan.Elem](t *testing.T, c *gpu.Context, s *scan.Scanner, op scan.Op) {
	rng := gputest.Rand(t)
	for _, n := range primSizes(s, false) {
		in := randVals[T](rng, n)
		if op == scan.And {
			for i := range in {
				in[i] = apply(scan.Or, in[i], apply(scan.Xor, ident[T](scan.And), T(int32(1)<<rng.IntN(31))))
			}
		}
		flags := randHeads(rng, n, 7)
		src := gpu.Array[T](upload(t, c, in))
		fb := gpu.Array[uint32](upload(t, c, flags))
		for _, inclusive := range []bool{false, true} {
			what := fmt.Sprintf("%s %s %v n=%d", name(inclusive), kindOf[T](), op, n)
			g := guarded(t, c, n, sentinel[T](), nil)
			run(s, g.View, src, op, ident[T](op), inclusive)
			cpuScan(in, nil, op, ident[T](op), inclusive).check(t, what, g.Check(t, what))
			what = "Segmented" + what
			runSeg(s, g.View, src, fb, op, inclusive)
			cpuScan(in, flags, op, ident[T](op), inclusive).check(t, what, g.Check(t, what))
		}
		want := ident[T](op)
		for _, v := range in {
			want = apply(op, want, v)
		}
		if got := scan.Reduce(s, src, op); got != want {
			t.Fatalf("Reduce %s %v n=%d: %v, want %v", kindOf[T](), op, n, got, want)
		}
	}
}

// ReduceByKey and SegmentedReduce with the bitwise operators, on keys in
// runs and values with most bits set (so that And keeps some), against a
// plain loop.
func TestBitwiseByKey(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range primConfigs(t, c) {
		t.Run(cfg.name, func(t *testing.T) {
			s := primScanner(t, c, cfg)
			rng := gputest.Rand(t)
			for _, n := range primSizes(s, cfg.full) {
				keys := input[uint32](rng, "narrow", n)
				vals := make([]uint32, n)
				for i := range vals {
					vals[i] = ^(uint32(1) << rng.IntN(32)) &^ (uint32(rng.IntN(2)) << rng.IntN(32))
				}
				kb, vb := gpu.Array[uint32](upload(t, c, keys)), gpu.Array[uint32](upload(t, c, vals))
				wu, wl, starts := cpuRuns(keys)
				var off []uint32
				for _, st := range starts {
					off = append(off, uint32(st))
				}
				off = append(off, uint32(n))
				for _, op := range bitwise {
					what := fmt.Sprintf("ReduceByKey %v n=%d", op, n)
					gk := guarded(t, c, n, sentinel[uint32](), nil)
					gs := guarded(t, c, n, sentinel[uint32](), nil)
					if k := scan.ReduceByKey(s, gk.View, gs.View, kb, vb, op); k != len(wu) {
						t.Fatalf("%s: %d runs, want %d", what, k, len(wu))
					}
					checkBits(t, what+" keys", gk.Check(t, what)[:len(wu)], wu)
					sums := gs.Check(t, what)
					segs := guarded(t, c, len(starts), sentinel[uint32](), nil)
					scan.SegmentedReduce(s, segs.View, vb, gpu.Array[uint32](upload(t, c, off)), op, ident[uint32](op))
					seg := segs.Check(t, "SegmentedReduce "+what)
					for r, st := range starts {
						want := ident[uint32](op)
						for _, v := range vals[st : st+int(wl[r])] {
							want = apply(op, want, v)
						}
						if sums[r] != want || seg[r] != want {
							t.Fatalf("%s run %d: ReduceByKey %#x, SegmentedReduce %#x, want %#x", what, r, sums[r], seg[r], want)
						}
					}
				}
			}
		})
	}
}
