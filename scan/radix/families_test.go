package radix_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan/radix"
)

// familyConfigs are the Sorters TopK and the segmented sorts are tested
// with: the driver's defaults on both paths and tiny tiles (many tiles
// from small inputs).
func familyConfigs() []config {
	var out []config
	for _, cfg := range configs() {
		switch cfg.name {
		case "one-sweep/default", "counts/default", "one-sweep/tile32/bits4", "counts/tile32/bits3":
			out = append(out, cfg)
		}
	}
	return out
}

// sameKeys fails unless got equals want bit for bit.
func sameKeys[K radix.Key](t *testing.T, what string, got, want []K) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d keys, want %d", what, len(got), len(want))
	}
	for i := range got {
		if bitsOf(got[i]) != bitsOf(want[i]) {
			t.Fatalf("%s: [%d] = %v, want %v (of %d)", what, i, got[i], want[i], len(got))
		}
	}
}

// TestTopK checks TopK against the first k of a stable sort by a plain
// loop, largest and smallest, at k = 0, 1, half and all, ties (few
// distinct keys, all equal) going to the lowest index, twice (the same
// bits).
func TestTopK(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range familyConfigs() {
		t.Run(cfg.name, func(t *testing.T) {
			s := newSorter(t, c, cfg)
			topKCases[uint32](t, c, s, cfg)
			topKCases[int32](t, c, s, cfg)
			topKCases[float32](t, c, s, cfg)
		})
	}
}

func topKCases[K radix.Key](t *testing.T, c *gpu.Context, s *radix.Sorter, cfg config) {
	rng := gputest.Rand(t)
	for _, n := range familySizes(s, cfg) {
		for kind, keys := range inputs[K](rng, n, false) {
			kb := gpu.Array[K](upload(t, c, keys))
			for _, largest := range []bool{true, false} {
				perm := cpuOrder(keys, radix.Order{Descending: largest})
				for _, k := range []int{0, 1, n / 2, n} {
					if k > n {
						continue
					}
					what := fmt.Sprintf("TopK %s n=%d %s k=%d largest=%v", kindOf[K](), n, kind, k, largest)
					wk, wi := make([]K, k), make([]uint32, k)
					for i := range k {
						wk[i], wi[i] = keys[perm[i]], uint32(perm[i])
					}
					for range 2 {
						gk := guarded(t, c, k, fromBits[K](0xDEADBEEF), nil)
						gi := guarded(t, c, k, uint32(0xDEADBEEF), nil)
						if err := radix.TopK(s, gk.View, gi.View, kb, largest); err != nil {
							t.Fatal(err)
						}
						sameKeys(t, what, gk.Check(t, what), wk)
						if got := gi.Check(t, what); fmt.Sprint(got) != fmt.Sprint(wi) {
							t.Fatalf("%s: indices %v, want %v", what, head(got), head(wi))
						}
					}
				}
			}
		}
	}
}

// familySizes are sizes' edges, with the default (large) tiles only
// their edges and a few small sizes: the sort itself is TestSort's.
func familySizes(s *radix.Sorter, cfg config) []int {
	if tile := s.TileSize(); tile > 256 {
		return []int{0, 1, 5, s.Options().GroupSize + 1, tile + 1}
	}
	return sizes(s, true)
}

func head[T any](x []T) []T { return x[:min(len(x), 20)] }

// segLayouts returns segment sizes summing to n: many tiny segments (0 to
// 5 keys, empties among them), one segment, one key each, and a few
// large ones between empties.
func segLayouts(n int, rnd func(int) int) map[string][]int {
	out := map[string][]int{"one": {n}}
	var tiny, unit, few []int
	for left := n; left > 0; {
		k := min(left, rnd(6))
		tiny = append(tiny, k)
		left -= k
	}
	for range n {
		unit = append(unit, 1)
	}
	few = append(few, 0, n/3, 0, 0, n-n/3, 0)
	out["tiny"], out["unit"], out["few"] = tiny, unit, few
	return out
}

// TestSegmentedSort checks SegmentedSortKeys and SegmentedSortPairs
// against a stable sort of each segment by a plain loop, ascending,
// descending and on a bit range, with offsets that do not cover the keys
// returning an error.
func TestSegmentedSort(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range familyConfigs() {
		t.Run(cfg.name, func(t *testing.T) {
			s := newSorter(t, c, cfg)
			segSortCases[uint32](t, c, s, cfg)
			segSortCases[float32](t, c, s, cfg)
			segSortCases[int32](t, c, s, cfg)
		})
	}
}

func segSortCases[K radix.Key](t *testing.T, c *gpu.Context, s *radix.Sorter, cfg config) {
	rng := gputest.Rand(t)
	type val struct{ I, X uint32 }
	for _, n := range familySizes(s, cfg) {
		for kind, keys := range inputs[K](rng, n, false) {
			for layout, sz := range segLayouts(n, rng.IntN) {
				offsets := []uint32{0}
				for _, k := range sz {
					offsets = append(offsets, offsets[len(offsets)-1]+uint32(k))
				}
				ob := gpu.Array[uint32](upload(t, c, offsets))
				orders := []radix.Order{{}, {Descending: true}}
				if kind == "random" {
					orders = append(orders, radix.Order{Begin: 3, End: 11})
				}
				for _, o := range orders {
					what := fmt.Sprintf("SegmentedSort %s n=%d %s %s (%d segments) %+v", kindOf[K](), n, kind, layout, len(sz), o)
					wk := make([]K, n)
					wv := make([]val, n)
					for j := range sz {
						b, e := int(offsets[j]), int(offsets[j+1])
						for i, p := range cpuOrder(keys[b:e], o) {
							wk[b+i], wv[b+i] = keys[b+p], val{uint32(b + p), ^uint32(b + p)}
						}
					}
					g := guarded(t, c, n, fromBits[K](0xDEADBEEF), keys)
					if err := radix.SegmentedSortKeys(s, g.View, ob, o); err != nil {
						t.Fatal(err)
					}
					sameKeys(t, what, g.Check(t, what), wk)

					vals := make([]val, n)
					for i := range vals {
						vals[i] = val{uint32(i), ^uint32(i)}
					}
					g.View.Write(0, keys)
					gv := guarded(t, c, n, val{7, 7}, vals)
					if err := radix.SegmentedSortPairs(s, g.View, gv.View, ob, o); err != nil {
						t.Fatal(err)
					}
					sameKeys(t, what+" pairs", g.Check(t, what), wk)
					if got := gv.Check(t, what); fmt.Sprint(got) != fmt.Sprint(wv) {
						t.Fatalf("%s: values %v, want %v", what, head(got), head(wv))
					}
				}
			}
		}
	}
	if cfg.name == "counts/default" {
		keys := upload(t, c, []K{3, 2, 1})
		for _, off := range [][]uint32{{0, 2}, {1, 3}, {0, 1, 4}} {
			err := radix.SegmentedSortKeys(s, gpu.Array[K](keys), gpu.Array[uint32](upload(t, c, off)), radix.Order{})
			if err == nil || !strings.Contains(err.Error(), "want from 0 to keys.Len() = 3") {
				t.Fatalf("offsets %v: %v, want an error naming the ends", off, err)
			}
		}
	}
}
