package scan_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// cpuRuns returns the first key and the length of every run of keys equal
// bit for bit.
func cpuRuns[K any](keys []K) (unique []K, lengths []uint32, starts []int) {
	for i, k := range keys {
		if i == 0 || !sameBits(k, keys[i-1]) {
			unique = append(unique, k)
			lengths = append(lengths, 0)
			starts = append(starts, i)
		}
		lengths[len(lengths)-1]++
	}
	return unique, lengths, starts
}

func TestRuns(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range primConfigs(t, c) {
		t.Run(cfg.name, func(t *testing.T) {
			s := primScanner(t, c, cfg)
			runCases[uint32, uint32](t, c, s, cfg)
			runCases[float32, float32](t, c, s, cfg)
			runCases[int32, int32](t, c, s, cfg)
		})
	}
}

func runCases[K, V scan.Elem](t *testing.T, c *gpu.Context, s *scan.Scanner, cfg config) {
	rng := gputest.Rand(t)
	for _, n := range primSizes(s, cfg.full) {
		for _, kind := range inputKinds {
			keys := input[K](rng, kind, n)
			kb := gpu.Array[K](upload(t, c, keys))
			wu, wl, starts := cpuRuns(keys)

			what := fmt.Sprintf("Unique %s n=%d %s", kindOf[K](), n, kind)
			g := guarded(t, c, n, sentinel[K](), nil)
			if k := scan.Unique(s, g.View, kb); k != len(wu) {
				t.Fatalf("%s: %d runs, want %d", what, k, len(wu))
			}
			checkBits(t, what, g.Check(t, what)[:len(wu)], wu)

			what = fmt.Sprintf("RunLengthEncode %s n=%d %s", kindOf[K](), n, kind)
			gl := guarded(t, c, n, uint32(0xDEADBEEF), nil)
			g.View.Write(0, make([]K, n))
			if k := scan.RunLengthEncode(s, g.View, gl.View, kb); k != len(wu) {
				t.Fatalf("%s: %d runs, want %d", what, k, len(wu))
			}
			checkBits(t, what+" unique", g.Check(t, what)[:len(wu)], wu)
			checkBits(t, what+" lengths", gl.Check(t, what)[:len(wu)], wl)

			vals := input[V](rng, "random", n)
			vb := gpu.Array[V](upload(t, c, vals))
			for _, op := range []scan.Op{scan.Add, scan.Max, scan.Min} {
				what = fmt.Sprintf("ReduceByKey %s/%s %v n=%d %s", kindOf[K](), kindOf[V](), op, n, kind)
				gs := guarded(t, c, n, sentinel[V](), nil)
				g.View.Write(0, make([]K, n))
				if k := scan.ReduceByKey(s, g.View, gs.View, kb, vb, op); k != len(wu) {
					t.Fatalf("%s: %d runs, want %d", what, k, len(wu))
				}
				checkBits(t, what+" keys", g.Check(t, what)[:len(wu)], wu)
				got := gs.Check(t, what)
				for r, st := range starts {
					seg := vals[st : st+int(wl[r])]
					lastOf(cpuScan(seg, nil, op, ident[V](op), true)).check(t, fmt.Sprintf("%s run %d", what, r), got[r:r+1])
				}
			}
		}
	}
}

// Keys may be records of several words, equal when every word is; outputs
// shorter than the number of runs take the first runs, each output as far
// as it reaches. Unique on both paths of its compaction (reduce-then-scan's
// level 0 by invocations, laneCarry); the others on both paths of the
// scans over the chunks: runs.comp's word-by-word key comparison
// (KEY_WORDS > 1), and its stores cut at either output's end.
func TestRunsRecords(t *testing.T) {
	c := gputest.Context(t)
	type key struct{ A, B uint32 }
	for _, path := range []scan.Path{scan.PathLookBack, scan.PathReduceThenScan} {
		s := primScanner(t, c, config{opt: scan.Options{Path: path, GroupSize: 8, Vectors: 1}})
		rng := gputest.Rand(t)
		for _, n := range []int{1, 31, 33, 2000} {
			keys := make([]key, n)
			vals := input[float32](rng, "random", n)
			for i := range keys {
				keys[i] = key{uint32(rng.IntN(2)), uint32(rng.IntN(2))}
			}
			kb := gpu.Array[key](upload(t, c, keys))
			vb := gpu.Array[float32](upload(t, c, vals))
			wu, wl, starts := cpuRuns(keys)
			m := max(1, len(wu)/2)
			g := guarded(t, c, m, key{7, 7}, nil)
			what := fmt.Sprintf("%v: Unique of 8-byte keys n=%d into %d", path, n, m)
			if k := scan.Unique(s, g.View, kb); k != len(wu) {
				t.Fatalf("%s: %d runs, want %d", what, k, len(wu))
			}
			checkBits(t, what, g.Check(t, what), wu[:m])

			g = guarded(t, c, m, key{7, 7}, nil)
			gl := guarded(t, c, m+1, uint32(0xDEADBEEF), nil)
			what = fmt.Sprintf("%v: RunLengthEncode of 8-byte keys n=%d into %d and %d", path, n, m, m+1)
			if k := scan.RunLengthEncode(s, g.View, gl.View, kb); k != len(wu) {
				t.Fatalf("%s: %d runs, want %d", what, k, len(wu))
			}
			checkBits(t, what, g.Check(t, what), wu[:m])
			checkBits(t, what, gl.Check(t, what)[:min(m+1, len(wu))], wl[:min(m+1, len(wu))])

			for _, op := range []scan.Op{scan.Add, scan.Max} {
				what = fmt.Sprintf("%v: ReduceByKey %v of 8-byte keys n=%d into %d and %d", path, op, n, m+1, m)
				gk := guarded(t, c, m+1, key{7, 7}, nil)
				gs := guarded(t, c, m, float32(-3), nil)
				if k := scan.ReduceByKey(s, gk.View, gs.View, kb, vb, op); k != len(wu) {
					t.Fatalf("%s: %d runs, want %d", what, k, len(wu))
				}
				checkBits(t, what, gk.Check(t, what)[:min(m+1, len(wu))], wu[:min(m+1, len(wu))])
				got := gs.Check(t, what)
				for r := range m {
					seg := vals[starts[r] : starts[r]+int(wl[r])]
					lastOf(cpuScan(seg, nil, op, ident[float32](op), true)).check(t, fmt.Sprintf("%s run %d", what, r), got[r:r+1])
				}
			}
		}
	}
}

// Runs of lengths about the 64-key chunks that RunLengthEncode and
// ReduceByKey walk (1, 3, 31 to 33, 63 to 65, 127 to 129), starting and
// ending on and beside chunk edges, runs over many chunks, and float sums
// of -0s (whose sum is -0, not +0): each length in turn, on both paths.
func TestRunsAtChunkEdges(t *testing.T) {
	c := gputest.Context(t)
	lens := []int{64, 1, 63, 65, 3, 127, 128, 129, 31, 32, 33, 64, 64, 2000, 150, 1, 1}
	for _, cfg := range []config{
		{name: "look-back", opt: scan.Options{Path: scan.PathLookBack, GroupSize: 8, Vectors: 1}},
		{name: "reduce-then-scan", opt: scan.Options{Path: scan.PathReduceThenScan, GroupSize: 8, Vectors: 1}},
		{name: "auto", opt: scan.Options{}},
	} {
		s := primScanner(t, c, cfg)
		rng := gputest.Rand(t)
		for _, shift := range []int{0, 1, 63} {
			var keys []uint32
			for i := range shift {
				keys = append(keys, uint32(i+1)<<20)
			}
			for r, l := range lens {
				for range l {
					keys = append(keys, uint32(r&1)) // alternating 0 and 1: each length a run
				}
			}
			n := len(keys)
			vals := input[float32](rng, "random", n)
			for i := range vals {
				if i%5 == 0 {
					vals[i] = float32(math.Copysign(0, -1))
				}
			}
			for i := n - 152; i < n; i++ {
				vals[i] = float32(math.Copysign(0, -1)) // the last runs (over chunks, too) sum to -0
			}
			kb := gpu.Array[uint32](upload(t, c, keys))
			vb := gpu.Array[float32](upload(t, c, vals))
			wu, wl, starts := cpuRuns(keys)
			checkRunLengthEncode(t, c, s, kb, wu, wl, fmt.Sprintf("%s: RunLengthEncode n=%d shift %d", cfg.name, n, shift))
			// Empty outputs: the count alone, nothing stored.
			what := fmt.Sprintf("%s: RunLengthEncode n=%d shift %d into empty outputs", cfg.name, n, shift)
			g0 := guarded(t, c, 0, uint32(0xDEADBEEF), nil)
			gl0 := guarded(t, c, 0, uint32(0xDEADBEEF), nil)
			if k := scan.RunLengthEncode(s, g0.View, gl0.View, kb); k != len(wu) {
				t.Fatalf("%s: %d runs, want %d", what, k, len(wu))
			}
			g0.Check(t, what)
			gl0.Check(t, what)
			gs0 := guarded(t, c, 0, float32(-3), nil)
			if k := scan.ReduceByKey(s, g0.View, gs0.View, kb, vb, scan.Add); k != len(wu) {
				t.Fatalf("%s: ReduceByKey: %d runs, want %d", what, k, len(wu))
			}
			g0.Check(t, what)
			gs0.Check(t, what)
			for _, op := range []scan.Op{scan.Add, scan.Max, scan.Min} {
				what := fmt.Sprintf("%s: ReduceByKey %v n=%d shift %d", cfg.name, op, n, shift)
				g := guarded(t, c, len(wu), uint32(0xDEADBEEF), nil)
				gs := guarded(t, c, len(wu), float32(-3), nil)
				if k := scan.ReduceByKey(s, g.View, gs.View, kb, vb, op); k != len(wu) {
					t.Fatalf("%s: %d runs, want %d", what, k, len(wu))
				}
				checkBits(t, what+" keys", g.Check(t, what), wu)
				got := gs.Check(t, what)
				for r, st := range starts {
					seg := vals[st : st+int(wl[r])]
					lastOf(cpuScan(seg, nil, op, ident[float32](op), true)).check(t, fmt.Sprintf("%s run %d", what, r), got[r:r+1])
					negZero := func(v float32) bool { return math.Float32bits(v) == 0x80000000 }
					if !slices.ContainsFunc(seg, func(v float32) bool { return !negZero(v) }) && !negZero(got[r]) {
						t.Fatalf("%s run %d: the op of %d -0s is %v, not -0", what, r, len(seg), got[r])
					}
				}
			}
		}
	}
}

func TestSegmentedReduce(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range primConfigs(t, c) {
		t.Run(cfg.name, func(t *testing.T) {
			s := primScanner(t, c, cfg)
			segReduceCases[uint32](t, c, s, cfg)
			segReduceCases[int32](t, c, s, cfg)
			segReduceCases[float32](t, c, s, cfg)
		})
	}
}

func segReduceCases[T scan.Elem](t *testing.T, c *gpu.Context, s *scan.Scanner, cfg config) {
	rng := gputest.Rand(t)
	for _, n := range primSizes(s, cfg.full) {
		x := input[T](rng, "random", n)
		xb := gpu.Array[T](upload(t, c, x))
		// Offsets: random segments with many empty ones, all empty, one
		// segment, and a first segment starting past 0 and a last one
		// ending before n.
		layouts := map[string][]uint32{"one": {0, uint32(n)}, "empty": {0, 0, 0}, "inner": {uint32(n / 3), uint32(n / 2), uint32(n / 2), uint32(n - n/5)}}
		rnd := []uint32{0}
		for rnd[len(rnd)-1] < uint32(n) {
			step := uint32(0)
			if rng.IntN(3) != 0 {
				step = uint32(rng.IntN(2*s.TileSize()) + 1)
			}
			rnd = append(rnd, min(rnd[len(rnd)-1]+step, uint32(n)))
		}
		layouts["random"] = rnd
		// Adversarial for the chunked walk (64 elements an invocation):
		// every element a segment; segments of 31 to 33 and 63 to 65 elements,
		// ending on and beside chunk boundaries; 70000 empty segments in a
		// row (more than a loop may step through); offsets past n
		// (clamped).
		each := make([]uint32, n+1)
		for i := range each {
			each[i] = uint32(i)
		}
		layouts["each"] = each
		for _, size := range []int{31, 32, 33, 63, 64, 65} {
			off := []uint32{0}
			for int(off[len(off)-1]) < n {
				off = append(off, uint32(min(int(off[len(off)-1])+size, n)))
			}
			layouts[fmt.Sprintf("size%d", size)] = off
		}
		empties := make([]uint32, 70000, 70002)
		layouts["empties"] = append(empties, uint32(n/2), uint32(n))
		layouts["past"] = []uint32{uint32(n / 4), uint32(n + 5), uint32(n + 5), 0xFFFFFFFF}
		for name, off := range layouts {
			for _, op := range []scan.Op{scan.Add, scan.Max, scan.Min} {
				init := ident[T](op)
				if op == scan.Add {
					init = T(3)
				}
				what := fmt.Sprintf("SegmentedReduce %s %v n=%d %s (%d segments)", kindOf[T](), op, n, name, len(off)-1)
				g := guarded(t, c, len(off)-1, sentinel[T](), nil)
				scan.SegmentedReduce(s, g.View, xb, gpu.Array[uint32](upload(t, c, off)), op, init)
				got := g.Check(t, what)
				for j := range got {
					seg := x[min(int(off[j]), n):min(int(off[j+1]), n)]
					w := lastOf(cpuScan(append([]T{init}, seg...), nil, op, ident[T](op), true))
					w.check(t, fmt.Sprintf("%s segment %d [%d, %d)", what, j, off[j], off[j+1]), got[j:j+1])
				}
			}
		}
	}
}

// lastOf keeps the last element of an inclusive scan: the reduction.
func lastOf[T scan.Elem](w want[T]) want[T] {
	k := len(w.exact) - 1
	w.exact = w.exact[k:]
	if w.sum != nil {
		w.sum, w.mag = w.sum[k:], w.mag[k:]
	}
	return w
}

// The scan of the chunks' run counts carries its total out of
// reduce-then-scan's level 0 by invocations (laneCarry): from the last
// invocation's walk when it holds all its elements (a chunk count that is
// a multiple of 4*Vectors) and when it does not. Chunks above the tile
// (64 elements here) take that level.
func TestRunsCountOnLanes(t *testing.T) {
	c := gputest.Context(t)
	s := primScanner(t, c, config{opt: scan.Options{Path: scan.PathReduceThenScan, GroupSize: 8, Vectors: 2}})
	rng := gputest.Rand(t)
	for _, chunks := range []int{72, 73, 136} {
		for _, n := range []int{64 * chunks, 64*chunks - 63} {
			keys := make([]uint32, n)
			for i := range keys {
				keys[i] = uint32(rng.IntN(3))
			}
			kb := gpu.Array[uint32](upload(t, c, keys))
			wu, wl, _ := cpuRuns(keys)
			checkRunLengthEncode(t, c, s, kb, wu, wl, fmt.Sprintf("RunLengthEncode n=%d", n))
		}
	}
}

// checkRunLengthEncode encodes keys kb into guarded outputs of exactly
// len(wu) runs and fails unless the count, the run keys wu and the
// lengths wl come back, with the guards intact.
func checkRunLengthEncode(t *testing.T, c *gpu.Context, s *scan.Scanner, kb gpu.Array[uint32], wu, wl []uint32, what string) {
	t.Helper()
	g := guarded(t, c, len(wu), uint32(0xDEADBEEF), nil)
	gl := guarded(t, c, len(wu), uint32(0xDEADBEEF), nil)
	if k := scan.RunLengthEncode(s, g.View, gl.View, kb); k != len(wu) {
		t.Fatalf("%s: %d runs, want %d", what, k, len(wu))
	}
	checkBits(t, what+" unique", g.Check(t, what), wu)
	checkBits(t, what+" lengths", gl.Check(t, what), wl)
}
