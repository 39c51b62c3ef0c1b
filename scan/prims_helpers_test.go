package scan_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan"
)

// primConfigs are the Scanners the primitives built on the scans are
// tested with: tiny tiles on both paths (so that small inputs cross many
// tiles and every level; on reduce-then-scan also two vectors an
// invocation, which the compactions' level 0 walks one after the other),
// the default tile, and the subgroup kernels (the driver's, or emulated
// ones).
func primConfigs(t *testing.T, c *gpu.Context) []config {
	out := []config{
		{name: "look-back/shared/tile32", opt: scan.Options{Path: scan.PathLookBack, NoSubgroups: true, GroupSize: 8, Vectors: 1}, full: true},
		{name: "reduce-then-scan/shared/tile32", opt: scan.Options{Path: scan.PathReduceThenScan, NoSubgroups: true, GroupSize: 8, Vectors: 1}, full: true},
		{name: "reduce-then-scan/shared/tile64", opt: scan.Options{Path: scan.PathReduceThenScan, NoSubgroups: true, GroupSize: 8, Vectors: 2}, full: true},
		{name: "auto/default", opt: scan.Options{}},
	}
	if c.Caps().HasSubgroup(subgroupCaps) {
		sg := c.Caps().SubgroupSize
		out = append(out, config{name: fmt.Sprintf("look-back/subgroup/tile%d", 8*sg), opt: scan.Options{Path: scan.PathLookBack, GroupSize: 2 * sg, Vectors: 1}, full: true})
	} else {
		out = append(out, config{name: "look-back/emulated-4-subgroups/tile256", opt: scan.Options{Path: scan.PathLookBack, GroupSize: 32, Vectors: 2}, full: true, emulate: 8})
	}
	return out
}

// passConfigs are the configurations of the primitives that run no scan of
// their own (histograms, the load-balancing search, transform): work groups
// of 8 invocations of one vector, so that every size crosses many groups,
// at every size; and the driver's defaults.
var passConfigs = []config{
	{name: "wg8", opt: scan.Options{GroupSize: 8, Vectors: 1}, full: true},
	{name: "default", opt: scan.Options{}},
}

// primScanner is newScanner for a primConfig (AutoPath included).
func primScanner(t *testing.T, c *gpu.Context, cfg config) *scan.Scanner {
	t.Helper()
	s, err := scan.NewWithOptions(c, cfg.opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Delete)
	if cfg.emulate != 0 {
		scan.EmulateSubgroups(s, cfg.emulate)
	}
	return s
}

// primSizes are the lengths a primitive is tested at: the edges of a work
// group and a tile, many tiles, and (tiny tiles) more than two levels.
func primSizes(s *scan.Scanner, full bool) []int {
	wg, tile := s.Options().GroupSize, s.TileSize()
	if !full {
		return []int{0, 1, tile - 1, tile + 1, 5*tile + 3}
	}
	return []int{0, 1, 2, 5, wg - 1, wg, wg + 1, tile - 1, tile, tile + 1, 37*tile + 5, tile*tile + 1}
}

// inputKinds are the inputs every primitive sees: random, and the
// adversarial ones.
var inputKinds = []string{"random", "narrow", "equal", "sorted", "reversed", "allbits", "special"}

// input returns n values of the kind: random over all bits (floats in
// [-1, 1)), narrow (four values, so runs and bins repeat), all equal,
// sorted, reversed, all bits set (0xFFFFFFFF: NaN for floats), and special
// (floats: NaN, -0, +0, infinities and the extremes mixed with randoms;
// integers: 0, 1 and the extremes).
func input[T scan.Elem](rng *rand.Rand, kind string, n int) []T {
	out := randVals[T](rng, n)
	fromBits := func(b uint32) T {
		var v T
		switch p := any(&v).(type) {
		case *uint32:
			*p = b
		case *int32:
			*p = int32(b)
		case *float32:
			*p = math.Float32frombits(b)
		}
		return v
	}
	switch kind {
	case "narrow":
		vals := []T{fromBits(3), fromBits(7), fromBits(0x80000000), fromBits(0x3F000000)}
		for i := range out {
			out[i] = vals[rng.IntN(4)]
		}
	case "equal":
		for i := range out {
			out[i] = out[0]
		}
	case "sorted", "reversed":
		slices.SortFunc(out, func(a, b T) int {
			if a < b {
				return -1
			} else if a > b {
				return 1
			}
			return 0
		})
		if kind == "reversed" {
			slices.Reverse(out)
		}
	case "allbits":
		for i := range out {
			out[i] = fromBits(0xFFFFFFFF)
		}
	case "special":
		sp := []uint32{0, 1, 0x80000000, 0x7FFFFFFF, 0xFFFFFFFF, 0x7FC00000, 0x7F800000, 0xFF800000, 0x7F7FFFFF, 0x00000001}
		for i := range out {
			if rng.IntN(2) == 0 {
				out[i] = fromBits(sp[rng.IntN(len(sp))])
			}
		}
	}
	return out
}

// checkBits fails unless got equals want bit for bit.
func checkBits[T any](t *testing.T, what string, got, want []T) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d elements, want %d", what, len(got), len(want))
	}
	for i := range got {
		if !sameBits(got[i], want[i]) {
			t.Fatalf("%s: [%d] = %v, want %v (of %d)", what, i, got[i], want[i], len(got))
		}
	}
}

func sameBits[T any](a, b T) bool {
	switch x := any(a).(type) {
	case float32:
		return math.Float32bits(x) == math.Float32bits(any(b).(float32))
	}
	return any(a) == any(b)
}
