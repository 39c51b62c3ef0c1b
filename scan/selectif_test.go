package scan_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// preds are the predicates the select and partition tests run: a GLSL
// expression and the same test in Go.
func preds[T scan.Elem]() []struct {
	glsl string
	cpu  func(x T, i int) bool
} {
	type p = struct {
		glsl string
		cpu  func(x T, i int) bool
	}
	switch kindOf[T]() {
	case "float32":
		return []p{
			{"x > 0.25", func(x T, i int) bool { return float32(x) > 0.25 }},
			{"isnan(x) || (floatBitsToUint(x) >> 31) != 0u", func(x T, i int) bool {
				return x != x || math.Float32bits(float32(x))>>31 != 0
			}},
			{"i % 3u == 1u", func(x T, i int) bool { return i%3 == 1 }},
		}
	case "int32":
		return []p{{"x < -5", func(x T, i int) bool { return int32(x) < -5 }}}
	}
	return []p{{"(x & 1u) == 0u", func(x T, i int) bool { return uint32(x)&1 == 0 }}}
}

func TestSelectPartition(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range primConfigs(t, c) {
		t.Run(cfg.name, func(t *testing.T) {
			s := primScanner(t, c, cfg)
			selectCases[float32](t, c, s, cfg)
			selectCases[uint32](t, c, s, cfg)
			selectCases[int32](t, c, s, cfg)
		})
	}
}

func selectCases[T scan.Elem](t *testing.T, c *gpu.Context, s *scan.Scanner, cfg config) {
	rng := gputest.Rand(t)
	for _, n := range primSizes(s, cfg.full) {
		for _, kind := range inputKinds {
			x := input[T](rng, kind, n)
			src := gpu.Array[T](upload(t, c, x))
			for _, p := range preds[T]() {
				var sel, rej []T
				for i, v := range x {
					if p.cpu(v, i) {
						sel = append(sel, v)
					} else {
						rej = append(rej, v)
					}
				}
				what := fmt.Sprintf("SelectIf %s %q n=%d %s", kindOf[T](), p.glsl, n, kind)
				g := guarded(t, c, n, sentinel[T](), nil)
				k, err := scan.SelectIf(s, g.View, src, p.glsl)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				if k != len(sel) {
					t.Fatalf("%s: %d selected, want %d", what, k, len(sel))
				}
				checkBits(t, what, g.Check(t, what)[:k], sel)

				what = fmt.Sprintf("PartitionIf %s %q n=%d %s", kindOf[T](), p.glsl, n, kind)
				k, err = scan.PartitionIf(s, g.View, src, p.glsl)
				if err != nil || k != len(sel) {
					t.Fatalf("%s: %d selected, %v; want %d", what, k, err, len(sel))
				}
				checkBits(t, what, g.Check(t, what), append(append([]T{}, sel...), rej...))
			}
			// By flags: any nonzero value selects.
			flags := randHeads(rng, n, 3)
			var want, rej []T
			for i, v := range x {
				if flags[i] != 0 {
					want = append(want, v)
				} else {
					rej = append(rej, v)
				}
			}
			what := fmt.Sprintf("Partition %s n=%d %s", kindOf[T](), n, kind)
			g := guarded(t, c, n, sentinel[T](), nil)
			k := scan.Partition(s, g.View, src, gpu.Array[uint32](upload(t, c, flags)))
			if k != len(want) {
				t.Fatalf("%s: %d selected, want %d", what, k, len(want))
			}
			checkBits(t, what, g.Check(t, what), append(want, rej...))
		}
	}
}

// Partition moves records of any size, each as a whole, on both paths
// (reduce-then-scan's level 0 a vector at a time per invocation, laneCarry).
func TestPartitionRecords(t *testing.T) {
	c := gputest.Context(t)
	for _, path := range []scan.Path{scan.PathLookBack, scan.PathReduceThenScan} {
		partitionRecords(t, c, primScanner(t, c, config{opt: scan.Options{Path: path, GroupSize: 8, Vectors: 1}}))
	}
}

func partitionRecords(t *testing.T, c *gpu.Context, s *scan.Scanner) {
	type rec struct{ A, B, C uint32 }
	rng := gputest.Rand(t)
	for _, n := range []int{0, 1, 31, 32, 33, 1000} {
		x := make([]rec, n)
		flags := randHeads(rng, n, 2)
		var want, rej []rec
		for i := range x {
			x[i] = rec{uint32(i), rng.Uint32(), ^uint32(i)}
			if flags[i] != 0 {
				want = append(want, x[i])
			} else {
				rej = append(rej, x[i])
			}
		}
		g := guarded(t, c, n, rec{1, 2, 3}, nil)
		k := scan.Partition(s, g.View, gpu.Array[rec](upload(t, c, x)), gpu.Array[uint32](upload(t, c, flags)))
		what := fmt.Sprintf("%v: Partition of 12-byte records n=%d", s.Options().Path, n)
		if k != len(want) {
			t.Fatalf("%s: %d selected, want %d", what, k, len(want))
		}
		checkBits(t, what, g.Check(t, what), append(want, rej...))
	}
}

func TestTransform(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range passConfigs {
		t.Run(cfg.name, func(t *testing.T) {
			s := primScanner(t, c, cfg)
			rng := gputest.Rand(t)
			for _, n := range primSizes(s, cfg.full) {
				for _, kind := range inputKinds {
					xf := input[float32](rng, kind, n)
					// float -> float, in place: the sign bit flipped, NaN
					// and -0 included.
					want := make([]float32, n)
					for i, v := range xf {
						want[i] = math.Float32frombits(math.Float32bits(v) ^ 0x80000000)
					}
					g := guarded(t, c, n, sentinel[float32](), xf)
					what := fmt.Sprintf("Transform float32 in place n=%d %s", n, kind)
					if err := scan.Transform(s, g.View, g.View, "uintBitsToFloat(floatBitsToUint(x) ^ 0x80000000u)"); err != nil {
						t.Fatal(err)
					}
					checkBits(t, what, g.Check(t, what), want)

					// uint -> int, using the index.
					xu := input[uint32](rng, kind, n)
					wi := make([]int32, n)
					for i, v := range xu {
						wi[i] = int32(v>>3) - int32(i)
					}
					gi := guarded(t, c, n, sentinel[int32](), nil)
					what = fmt.Sprintf("Transform uint32 to int32 n=%d %s", n, kind)
					if err := scan.Transform(s, gi.View, gpu.Array[uint32](upload(t, c, xu)), "int(x >> 3u) - int(i)"); err != nil {
						t.Fatal(err)
					}
					checkBits(t, what, gi.Check(t, what), wi)
				}
			}
		})
	}
}

// A user expression that does not compile is an error that names the
// function and quotes the expression with the driver's log; a multi-line
// one is refused before the driver sees it. Nothing leaks either way.
func TestUserExpressionErrors(t *testing.T) {
	c := gputest.Context(t)
	s := primScanner(t, c, config{opt: scan.Options{}})
	src := gpu.Array[float32](upload(t, c, []float32{1, 2, 3}))
	dst := gpu.Array[float32](upload(t, c, make([]float32, 3)))
	// Scratch grows on the first call: count objects after one.
	if _, err := scan.PartitionIf(s, dst, src, "x > 1.0"); err != nil {
		t.Fatal(err)
	}
	if _, err := scan.SelectIf(s, dst, src, "x > 1.0"); err != nil {
		t.Fatal(err)
	}
	before := c.Live()
	for _, tc := range []struct {
		expr string
		want []string
	}{
		{"x >< 2.0", []string{"scan: SelectIf: the predicate \"x >< 2.0\" does not compile", "load.glsl"}},
		{"y > 1.0", []string{"does not compile", "y"}},
		{"", []string{"scan: SelectIf: the predicate is empty"}},
		{"x > 1.0\n#error", []string{"spans lines"}},
	} {
		_, err := scan.SelectIf(s, dst, src, tc.expr)
		t.Logf("SelectIf(%q): %v", tc.expr, err)
		if err == nil {
			t.Fatalf("SelectIf(%q): no error", tc.expr)
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Fatalf("SelectIf(%q): %v\nwant it to contain %q", tc.expr, err, w)
			}
		}
	}
	if _, err := scan.PartitionIf(s, dst, src, "x +"); err == nil || !strings.Contains(err.Error(), "scan: PartitionIf: the predicate \"x +\" does not compile") {
		t.Fatalf("PartitionIf: %v", err)
	}
	if err := scan.Transform(s, dst, src, "x + nope(1.0)"); err == nil || !strings.Contains(err.Error(), "scan: Transform: the expression \"x + nope(1.0)\" does not compile") {
		t.Fatalf("Transform: %v", err)
	}
	if after := c.Live(); after != before {
		t.Fatalf("live GL objects went from %v to %v", before, after)
	}
	// The Scanner still works.
	if k, err := scan.SelectIf(s, dst, src, "x >= 2.0"); err != nil || k != 2 {
		t.Fatalf("SelectIf after errors: %d, %v", k, err)
	}
}
