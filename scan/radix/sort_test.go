package radix_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan/radix"
)

// TestSort sorts keys alone and key-value pairs of every key type, both
// ways, at every size of every configuration, against
// slices.SortStableFunc, with guard regions around every array (the
// scratch arrays too).
func TestSort(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range configs() {
		t.Run(cfg.name, func(t *testing.T) {
			s := newSorter(t, c, cfg)
			sortCases[uint32](t, c, s, cfg)
			sortCases[int32](t, c, s, cfg)
			sortCases[float32](t, c, s, cfg)
		})
	}
}

func sortCases[K radix.Key](t *testing.T, c *gpu.Context, s *radix.Sorter, cfg config) {
	rng := gputest.Rand(t)
	for _, n := range sizes(s, cfg.full) {
		ins := inputs[K](rng, n, cfg.full)
		names := make([]string, 0, len(ins))
		for name := range ins {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			for _, o := range []radix.Order{{}, {Descending: true}} {
				keys := ins[name]
				what := describe(kindOf[K](), name, n, o)
				perm := cpuOrder(keys, o)
				if name == "random" || name == "few" || name == "special" {
					pairsCase(t, c, s, cfg, what, keys, perm, o)
				} else {
					keysCase(t, c, s, cfg, what, keys, perm, o)
				}
			}
		}
	}
}

// keysCase sorts keys alone and checks the result.
func keysCase[K radix.Key](t *testing.T, c *gpu.Context, s *radix.Sorter, cfg config, what string, keys []K, perm []int, o radix.Order) {
	t.Helper()
	n := len(keys)
	g := guarded(t, c, n, fromBits[K](sentinel), keys)
	tmp := guarded(t, c, n, fromBits[K](sentinel), nil)
	if err := radix.SortKeys(s, g.View, tmp.View, o); err != nil {
		t.Fatalf("SortKeys %s: %v", what, err)
	}
	tmp.Check(t, "SortKeys "+what+" (scratch)")
	checkKeys(t, "SortKeys "+what, keys, perm, g.Check(t, "SortKeys "+what))
	expectPlan(t, s, cfg, "SortKeys "+what, n, o)
}

// pairsCase sorts keys with three-word records and checks that each record
// travelled with its key and that equal keys kept their input order.
func pairsCase[K radix.Key](t *testing.T, c *gpu.Context, s *radix.Sorter, cfg config, what string, keys []K, perm []int, o radix.Order) {
	t.Helper()
	n := len(keys)
	vals := make([]record, n)
	for i := range vals {
		vals[i] = record{uint32(i), uint32(i) * 2654435761, bitsOf(keys[i])}
	}
	sent := record{sentinel, sentinel, sentinel}
	gk := guarded(t, c, n, fromBits[K](sentinel), keys)
	tk := guarded(t, c, n, fromBits[K](sentinel), nil)
	gv := guarded(t, c, n, sent, vals)
	tv := guarded(t, c, n, sent, nil)
	if err := radix.SortPairs(s, gk.View, tk.View, gv.View, tv.View, o); err != nil {
		t.Fatalf("SortPairs %s: %v", what, err)
	}
	tk.Check(t, "SortPairs "+what+" (key scratch)")
	tv.Check(t, "SortPairs "+what+" (value scratch)")
	checkKeys(t, "SortPairs "+what, keys, perm, gk.Check(t, "SortPairs "+what))
	got := gv.Check(t, "SortPairs "+what+" values")
	for i, p := range perm {
		if got[i] != vals[p] {
			t.Fatalf("SortPairs %s: value [%d] = %+v, want %+v (the stable order's)", what, i, got[i], vals[p])
		}
	}
	expectPlan(t, s, cfg, "SortPairs "+what, n, o)
}

// expectPlan fails unless the last sort ran the configured path with the
// passes o needs, and, for the no-publish configuration, unless every tile
// counted every predecessor itself in every pass.
func expectPlan(t *testing.T, s *radix.Sorter, cfg config, what string, n int, o radix.Order) {
	t.Helper()
	if n == 0 {
		return
	}
	p := s.LastPlan()
	want := cfg.opt.Path
	if want == radix.PathAuto {
		want = radix.PathOneSweep
		if radix.CPUDriver(s.Context().Caps()) {
			want = radix.PathCounts
		}
	}
	end := o.End
	if end == 0 {
		end = 32
	}
	bits := s.Options().DigitBits
	passes := (end - o.Begin + bits - 1) / bits
	if p.Path != want || p.Passes != passes || p.Copied != (passes%2 == 1) {
		t.Fatalf("%s: ran %v, want %v in %d passes", what, p, want, passes)
	}
	if cfg.nopub {
		tiles := uint32(p.Tiles)
		if got, want := radix.Fallbacks(s), uint32(passes)*tiles*(tiles-1)/2; got != want {
			t.Fatalf("%s: %d fallbacks, want %d", what, got, want)
		}
	}
}

// TestBitRange sorts by bit ranges of the ordered key: narrower ranges take
// fewer passes, and keys equal within the range keep their input order.
func TestBitRange(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range []config{configs()[0], configs()[1], configs()[3]} {
		t.Run(cfg.name, func(t *testing.T) {
			s := newSorter(t, c, cfg)
			rng := gputest.Rand(t)
			n := 5*s.TileSize() + 7
			for _, r := range [][2]int{{0, 1}, {3, 17}, {0, 16}, {16, 32}, {31, 32}, {5, 32}, {0, 31}} {
				for _, desc := range []bool{false, true} {
					o := radix.Order{Descending: desc, Begin: r[0], End: r[1]}
					keys := inputs[int32](rng, n, false)["random"]
					what := describe("int32", "random", n, o)
					pairsCase(t, c, s, config{opt: cfg.opt}, what, keys, cpuOrder(keys, o), o)
					fk := inputs[float32](rng, n, false)["special"]
					keysCase(t, c, s, config{opt: cfg.opt}, describe("float32", "special", n, o), fk, cpuOrder(fk, o), o)
				}
			}
		})
	}
}

// TestOrderedKey checks the test's bit-range order against its plain
// comparison, so that the bit-range tests check what the doc says.
func TestOrderedKey(t *testing.T) {
	rng := gputest.Rand(t)
	fk := inputs[float32](rng, 2000, false)["special"]
	fk = append(fk, inputs[float32](rng, 2000, false)["random"]...)
	for i := 1; i < len(fk); i++ {
		a, b := fk[i-1], fk[i]
		oa, ob := orderedKey(a), orderedKey(b)
		want := compareKeys(a, b)
		got := 0
		if oa < ob {
			got = -1
		} else if oa > ob {
			got = 1
		}
		if got != want {
			t.Fatalf("ordered(%v)=%#x vs ordered(%v)=%#x compare %d, want %d", a, oa, b, ob, got, want)
		}
	}
}

// TestDeterministic sorts the same keys with three-word records many times
// on the one-sweep path, whose tiles race, and with the fallback forced:
// the results are the stable order every time.
func TestDeterministic(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range []config{configs()[0], configs()[7]} {
		t.Run(cfg.name, func(t *testing.T) {
			s := newSorter(t, c, cfg)
			rng := gputest.Rand(t)
			n := 37*s.TileSize() + 3
			keys := inputs[float32](rng, n, false)["few"]
			perm := cpuOrder(keys, radix.Order{})
			for run := 0; run < 5; run++ {
				pairsCase(t, c, s, cfg, fmt.Sprintf("run %d", run), keys, perm, radix.Order{})
			}
		})
	}
}

// TestAutoPath checks that a Sorter with default options runs the path the
// package doc names for the driver.
func TestAutoPath(t *testing.T) {
	c := gputest.Context(t)
	s := newSorter(t, c, config{})
	want := radix.PathOneSweep
	if radix.CPUDriver(c.Caps()) {
		want = radix.PathCounts
	}
	if got := s.Options().Path; got != want {
		t.Fatalf("Options().Path = %v, want %v", got, want)
	}
	rng := gputest.Rand(t)
	keys := inputs[uint32](rng, 3*s.TileSize()/2, false)["few"]
	pairsCase(t, c, s, config{}, "default options", keys, cpuOrder(keys, radix.Order{}), radix.Order{})
}
