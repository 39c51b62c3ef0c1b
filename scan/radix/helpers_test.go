package radix_test

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan/radix"
)

// config is one way of running the package.
type config struct {
	name string
	opt  radix.Options
	// full runs every size, input and order; otherwise a sample.
	full bool
	// fallback: look-back tiles never wait, so every predecessor that has
	// not published when a tile looks is counted by the tile itself.
	fallback bool
	// nopub: look-back tiles publish nothing, so every tile counts every
	// predecessor itself.
	nopub bool
}

// configs covers both paths with tiny tiles (hundreds of tiles from small
// arrays), digit widths that do and do not divide 32, the look-back's
// fallback, and the defaults.
func configs() []config {
	tiny := func(p radix.Path, bits int) radix.Options {
		return radix.Options{Path: p, DigitBits: bits, GroupSize: 8, Items: 4}
	}
	return []config{
		{name: "one-sweep/default", opt: radix.Options{Path: radix.PathOneSweep}, full: true},
		{name: "counts/default", opt: radix.Options{Path: radix.PathCounts}, full: true},
		{name: "one-sweep/tile32/bits4", opt: tiny(radix.PathOneSweep, 4), full: true},
		{name: "counts/tile32/bits3", opt: tiny(radix.PathCounts, 3)},
		{name: "one-sweep/gpu-default/tile4096/bits4", opt: radix.Options{Path: radix.PathOneSweep, DigitBits: 4, GroupSize: 256, Items: 16}},
		{name: "one-sweep/tile64/bits7", opt: radix.Options{Path: radix.PathOneSweep, DigitBits: 7, GroupSize: 16, Items: 4}},
		{name: "one-sweep/tile32/bits1", opt: tiny(radix.PathOneSweep, 1)},
		{name: "one-sweep/fallback/tile32/bits8", opt: tiny(radix.PathOneSweep, 8), fallback: true},
		{name: "one-sweep/fallback/tile256/bits5", opt: radix.Options{Path: radix.PathOneSweep, DigitBits: 5, GroupSize: 16, Items: 16}, fallback: true},
		{name: "one-sweep/no-publish/tile32/bits6", opt: tiny(radix.PathOneSweep, 6), nopub: true},
	}
}

func newSorter(t testing.TB, c *gpu.Context, cfg config) *radix.Sorter {
	t.Helper()
	s, err := radix.NewWithOptions(c, cfg.opt)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.fallback {
		radix.SetSpin(s, 0)
	}
	if cfg.nopub {
		radix.SetNoPublish(s)
	}
	t.Cleanup(s.Delete)
	return s
}

// sizes are the lengths a configuration sorts: the edges of a work group
// and of a tile, and many tiles.
func sizes(s *radix.Sorter, full bool) []int {
	wg, tile := s.Options().GroupSize, s.TileSize()
	if !full {
		return []int{tile - 1, 7*tile + 3}
	}
	out := []int{0, 1, 2, 5, wg - 1, wg + 1, tile - 1, tile, tile + 1, 3*tile + 5}
	if tile <= 256 {
		out = append(out, 150*tile+17) // large tiles reach many only in TestLargest
	}
	return out
}

// kindOf names K.
func kindOf[K radix.Key]() string {
	var k K
	switch any(k).(type) {
	case uint32:
		return "uint32"
	case int32:
		return "int32"
	}
	return "float32"
}

func bitsOf[K radix.Key](k K) uint32 { return *(*uint32)(unsafe.Pointer(&k)) }

func fromBits[K radix.Key](b uint32) K { return *(*K)(unsafe.Pointer(&b)) }

// less is the ascending order the package documents, written as plain
// comparisons: integers by value; floats by value with -0 before +0 and
// every NaN after +Inf.
func compareKeys[K radix.Key](a, b K) int {
	switch x := any(a).(type) {
	case float32:
		y := any(b).(float32)
		xn, yn := x != x, y != y
		switch {
		case xn && yn:
			return 0
		case xn:
			return 1
		case yn:
			return -1
		case x < y:
			return -1
		case x > y:
			return 1
		case x == 0: // both zeros
			return cmp.Compare(b2i(!math.Signbit(float64(x))), b2i(!math.Signbit(float64(y))))
		}
		return 0
	}
	return cmp.Compare(a, b)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// orderedKey is the ordered form of the package doc, for bit ranges.
func orderedKey[K radix.Key](k K) uint32 {
	b := bitsOf(k)
	switch kindOf[K]() {
	case "int32":
		return b ^ 0x80000000
	case "float32":
		if b&0x7FFFFFFF > 0x7F800000 {
			return 0xFFFFFFFF
		}
		if b>>31 != 0 {
			return ^b
		}
		return b | 0x80000000
	}
	return b
}

// cpuOrder returns the permutation a stable sort by o makes: perm[i] is the
// input index of output element i (slices.SortStableFunc on indices).
func cpuOrder[K radix.Key](keys []K, o radix.Order) []int {
	end := o.End
	if end == 0 {
		end = 32
	}
	perm := make([]int, len(keys))
	for i := range perm {
		perm[i] = i
	}
	full := o.Begin == 0 && end == 32
	mask := uint32(1<<(end-o.Begin) - 1)
	slices.SortStableFunc(perm, func(i, j int) int {
		var r int
		if full {
			r = compareKeys(keys[i], keys[j])
		} else {
			r = cmp.Compare(orderedKey(keys[i])>>o.Begin&mask, orderedKey(keys[j])>>o.Begin&mask)
		}
		if o.Descending {
			r = -r
		}
		return r
	})
	return perm
}

// inputs returns the named inputs of n keys: random over all bits, random
// with few distinct values (long runs of equal keys, where stability
// shows), all equal, sorted, reversed, all bits set, and for floats a mix
// of NaNs of both signs and payloads, zeros of both signs, infinities and
// ordinary values.
func inputs[K radix.Key](rng *rand.Rand, n int, all bool) map[string][]K {
	gen := func(f func(i int) uint32) []K {
		out := make([]K, n)
		for i := range out {
			out[i] = fromBits[K](f(i))
		}
		return out
	}
	out := map[string][]K{
		"random": gen(func(int) uint32 { return rng.Uint32() }),
		"few":    gen(func(int) uint32 { return []uint32{0, 1, 0x80000000, 0xFFFFFFFF, 0x7F800000, 0x3F800000}[rng.IntN(6)] }),
	}
	if kindOf[K]() == "float32" {
		special := []uint32{0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 0, 0x7F800000, 0xFF800000,
			0x3F800000, 0xBF800000, 0x00000001, 0x80000001, 0x7F7FFFFF, 0xFF7FFFFF}
		out["special"] = gen(func(int) uint32 { return special[rng.IntN(len(special))] })
	}
	if !all {
		return out
	}
	out["equal"] = gen(func(int) uint32 { return 0x12345678 })
	out["all-ones"] = gen(func(int) uint32 { return 0xFFFFFFFF })
	sorted := gen(func(int) uint32 { return rng.Uint32() })
	slices.SortFunc(sorted, compareKeys)
	out["sorted"] = sorted
	rev := slices.Clone(sorted)
	slices.Reverse(rev)
	out["reversed"] = rev
	return out
}

// record is a three-word value: its input index, a check word, and the
// key's bits, so that a value that moved without its key shows.
type record struct{ Index, Check, Key uint32 }

// sentinel fills guard regions and scratch before a sort runs.
const sentinel = 0xDEADBEEF

func guarded[T any](t *testing.T, c *gpu.Context, n int, sent T, init []T) *gputest.Guarded[T] {
	t.Helper()
	g := gputest.NewGuarded(t, c, n, sent, init)
	t.Cleanup(g.Delete)
	return g
}

// checkKeys fails unless got is keys permuted by perm, bit for bit.
func checkKeys[K radix.Key](t *testing.T, what string, keys []K, perm []int, got []K) {
	t.Helper()
	for i, p := range perm {
		if bitsOf(got[i]) != bitsOf(keys[p]) {
			lo, hi := max(0, i-3), min(len(got), i+4)
			want := make([]K, 0, hi-lo)
			for _, q := range perm[lo:hi] {
				want = append(want, keys[q])
			}
			t.Fatalf("%s: [%d] = %v (%#08x), want %v (%#08x); around it got %v, want %v",
				what, i, got[i], bitsOf(got[i]), keys[p], bitsOf(keys[p]), got[lo:hi], want)
		}
	}
}

func describe(kind, input string, n int, o radix.Order) string {
	s := fmt.Sprintf("%s %s n=%d", kind, input, n)
	if o.Descending {
		s += " descending"
	}
	if o.Begin != 0 || o.End != 0 {
		s += fmt.Sprintf(" bits [%d,%d)", o.Begin, o.End)
	}
	return s
}
