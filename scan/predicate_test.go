package scan_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// SelectIfKernel and PartitionIfKernel with a predicate of the user's own
// file, which reads uniforms and a buffer that Bind sets, at every size
// and input kind on every path; a second pair of bounds shows that Bind
// runs at every call.
func TestPredicateKernel(t *testing.T) {
	c := gputest.Context(t)
	allowedHost := []uint32{1, 1, 0, 1, 1}
	allowed := upload(t, c, allowedHost)
	var lo, hi float32
	pred := &scan.Predicate{
		FS:   os.DirFS(filepath.Join("testdata", "predicates")),
		Name: "band.comp",
		Bind: func(p *gpu.Program) {
			p.SetFloat("lo", lo)
			p.SetFloat("hi", hi)
			c.BindStorage(scan.FirstFreeBinding, allowed)
		},
	}
	for _, cfg := range primConfigs(t, c) {
		t.Run(cfg.name, func(t *testing.T) {
			s := primScanner(t, c, cfg)
			rng := gputest.Rand(t)
			for _, n := range primSizes(s, cfg.full) {
				for _, kind := range inputKinds {
					x := input[float32](rng, kind, n)
					src := gpu.Array[float32](upload(t, c, x))
					for _, b := range [][2]float32{{-0.5, 0.25}, {0, float32(math.Inf(1))}} {
						lo, hi = b[0], b[1]
						var sel, rej []float32
						for i, v := range x {
							if v >= lo && v < hi && allowedHost[i%len(allowedHost)] != 0 {
								sel = append(sel, v)
							} else {
								rej = append(rej, v)
							}
						}
						what := fmt.Sprintf("SelectIfKernel [%g, %g) n=%d %s", lo, hi, n, kind)
						g := guarded(t, c, n, sentinel[float32](), nil)
						k, err := scan.SelectIfKernel(s, g.View, src, pred)
						if err != nil || k != len(sel) {
							t.Fatalf("%s: %d selected, %v; want %d", what, k, err, len(sel))
						}
						checkBits(t, what, g.Check(t, what)[:k], sel)
						what = fmt.Sprintf("PartitionIfKernel [%g, %g) n=%d %s", lo, hi, n, kind)
						k, err = scan.PartitionIfKernel(s, g.View, src, pred)
						if err != nil || k != len(sel) {
							t.Fatalf("%s: %d selected, %v; want %d", what, k, err, len(sel))
						}
						checkBits(t, what, g.Check(t, what), append(sel, rej...))
					}
				}
			}
		})
	}
}

// The predicate's parameter takes the element type of the call: one file
// serves uint32 and int32 through PRED_T.
func TestPredicateKernelTypes(t *testing.T) {
	c := gputest.Context(t)
	s := primScanner(t, c, config{opt: scan.Options{Path: scan.PathLookBack, GroupSize: 8, Vectors: 1}})
	pred := &scan.Predicate{Name: filepath.Join("testdata", "predicates", "odd.comp")}
	u := []uint32{1, 2, 3, 4, 5, 0xFFFFFFFF, 6, 7}
	g := guarded(t, c, len(u), sentinel[uint32](), nil)
	k, err := scan.SelectIfKernel(s, g.View, gpu.Array[uint32](upload(t, c, u)), pred)
	if err != nil || k != 5 {
		t.Fatalf("uint32: %d, %v; want 5", k, err)
	}
	checkBits(t, "uint32", g.Check(t, "uint32")[:k], []uint32{1, 3, 5, 0xFFFFFFFF, 7})
	i := []int32{-3, -2, 0, 9, 10}
	gi := guarded(t, c, len(i), sentinel[int32](), nil)
	k, err = scan.PartitionIfKernel(s, gi.View, gpu.Array[int32](upload(t, c, i)), pred)
	if err != nil || k != 2 {
		t.Fatalf("int32: %d, %v; want 2", k, err)
	}
	checkBits(t, "int32", gi.Check(t, "int32"), []int32{-3, 9, -2, 0, 10})
}

// A predicate file that does not compile is an error naming the file and
// the line, whichever way the file was given, from both functions;
// nothing leaks, and the Scanner goes on working.
func TestPredicateKernelErrors(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range []config{
		{opt: scan.Options{Path: scan.PathLookBack}},
		{opt: scan.Options{Path: scan.PathReduceThenScan, GroupSize: 8, Vectors: 1}},
	} {
		s := primScanner(t, c, cfg)
		src := gpu.Array[uint32](upload(t, c, make([]uint32, 100)))
		dst := gpu.Array[uint32](upload(t, c, make([]uint32, 100)))
		if _, err := scan.SelectIf(s, dst, src, "x > 1u"); err != nil {
			t.Fatal(err)
		}
		before := c.Live()
		file := filepath.Join("testdata", "predicates", "broken.comp")
		broken, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			pred *scan.Predicate
			want string
		}{
			{&scan.Predicate{Name: file}, file + ":5"},
			{&scan.Predicate{FS: os.DirFS(filepath.Dir(file)), Name: "broken.comp"}, "broken.comp:5"},
			{&scan.Predicate{FS: fstest.MapFS{"mine/p.comp": {Data: broken}}, Name: "mine/p.comp"}, "mine/p.comp:5"},
		} {
			_, err := scan.SelectIfKernel(s, dst, src, tc.pred)
			if err == nil || !strings.Contains(err.Error(), "scan: SelectIfKernel: ") || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "nothing") {
				t.Fatalf("SelectIfKernel(%s): %v\nwant an error naming %s", tc.pred.Name, err, tc.want)
			}
			_, err = scan.PartitionIfKernel(s, dst, src, tc.pred)
			if err == nil || !strings.Contains(err.Error(), "scan: PartitionIfKernel: ") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("PartitionIfKernel(%s): %v\nwant an error naming %s", tc.pred.Name, err, tc.want)
			}
		}
		missing := &scan.Predicate{Name: filepath.Join("testdata", "predicates", "missing.comp")}
		if _, err := scan.SelectIfKernel(s, dst, src, missing); err == nil || !strings.Contains(err.Error(), "missing.comp") {
			t.Fatalf("a missing file: %v", err)
		}
		if after := c.Live(); after != before {
			t.Fatalf("live GL objects went from %v to %v", before, after)
		}
		if k, err := scan.SelectIf(s, dst, src, "x == 0u"); err != nil || k != 100 {
			t.Fatalf("SelectIf after errors: %d, %v", k, err)
		}
	}
}

// The fused primitives on the look-back path with tiles that publish
// nothing: every tile reduces its predecessors itself (the path of drivers
// without forward progress, taken on every step), evaluating predicates
// and run heads again as it reduces.
func TestFusedFallbackOnly(t *testing.T) {
	c := gputest.Context(t)
	s, err := scan.NewWithOptions(c, scan.Options{Path: scan.PathLookBack, NoSubgroups: true, GroupSize: 8, Vectors: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Delete()
	scan.SetNoPublish(s)
	rng := gputest.Rand(t)
	for _, n := range []int{1, 31, 33, 37*32 + 5} {
		x := input[float32](rng, "random", n)
		src := gpu.Array[float32](upload(t, c, x))
		var sel, rej []float32
		for _, v := range x {
			if v > 0.25 {
				sel = append(sel, v)
			} else {
				rej = append(rej, v)
			}
		}
		g := guarded(t, c, n, sentinel[float32](), nil)
		if k, err := scan.SelectIf(s, g.View, src, "x > 0.25"); err != nil || k != len(sel) {
			t.Fatalf("SelectIf n=%d: %d, %v; want %d", n, k, err, len(sel))
		}
		checkBits(t, "SelectIf", g.Check(t, "SelectIf")[:len(sel)], sel)
		if k, err := scan.PartitionIf(s, g.View, src, "x > 0.25"); err != nil || k != len(sel) {
			t.Fatalf("PartitionIf n=%d: %d, %v; want %d", n, k, err, len(sel))
		}
		checkBits(t, "PartitionIf", g.Check(t, "PartitionIf"), append(sel, rej...))

		keys := input[uint32](rng, "narrow", n)
		vals := input[uint32](rng, "random", n)
		var uk, lens, sums []uint32
		for i, k := range keys {
			if i == 0 || keys[i-1] != k {
				uk, lens, sums = append(uk, k), append(lens, 0), append(sums, 0)
			}
			lens[len(lens)-1]++
			sums[len(sums)-1] = max(sums[len(sums)-1], vals[i])
		}
		gk, gv := gpu.Array[uint32](upload(t, c, keys)), gpu.Array[uint32](upload(t, c, vals))
		gu := guarded(t, c, n, sentinel[uint32](), nil)
		gl := guarded(t, c, n, sentinel[uint32](), nil)
		what := fmt.Sprintf("Unique n=%d", n)
		if k := scan.Unique(s, gu.View, gk); k != len(uk) {
			t.Fatalf("%s: %d runs, want %d", what, k, len(uk))
		}
		checkBits(t, what, gu.Check(t, what)[:len(uk)], uk)
		what = fmt.Sprintf("RunLengthEncode n=%d", n)
		if k := scan.RunLengthEncode(s, gu.View, gl.View, gk); k != len(uk) {
			t.Fatalf("%s: %d runs, want %d", what, k, len(uk))
		}
		checkBits(t, what, gu.Check(t, what)[:len(uk)], uk)
		checkBits(t, what, gl.Check(t, what)[:len(uk)], lens)
		what = fmt.Sprintf("ReduceByKey Max n=%d", n)
		if k := scan.ReduceByKey(s, gu.View, gl.View, gk, gv, scan.Max); k != len(uk) {
			t.Fatalf("%s: %d runs, want %d", what, k, len(uk))
		}
		checkBits(t, what, gu.Check(t, what)[:len(uk)], uk)
		checkBits(t, what, gl.Check(t, what)[:len(uk)], sums)
	}
	if scan.Fallbacks(s) == 0 {
		t.Fatal("no tile fell back")
	}
}
