package scan_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// The …To forms (issue 39) leave their count in a GPU array, in a guarded
// count[1], and read nothing back; their outputs and counts equal a Go
// loop's, on every configuration and edge size. The host forms are tested
// on every input kind elsewhere; these share their kernels, and take two.
func TestCountsStayOnTheGPU(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range primConfigs(t, c) {
		t.Run(cfg.name, func(t *testing.T) {
			s := primScanner(t, c, cfg)
			rng := gputest.Rand(t)
			for _, n := range primSizes(s, cfg.full) {
				kinds := []string{"random", "narrow"}
				if testing.Short() {
					kinds = kinds[1:] // runs and ties; the zink leg
				}
				for _, kind := range kinds {
					countsTo(t, c, s, n, kind, input[uint32](rng, kind, n), randHeads(rng, n, 3))
				}
			}
		})
	}
}

func countsTo(t *testing.T, c *gpu.Context, s *scan.Scanner, n int, kind string, x, flags []uint32) {
	src := gpu.Array[uint32](upload(t, c, x))
	fb := gpu.Array[uint32](upload(t, c, flags))
	cnt := guarded(t, c, 3, uint32(0xDEADBEEF), nil)
	// call runs f, which must leave want in count[1] and read nothing
	// back.
	call := func(what string, want int, f func(count gpu.Array[uint32]) error) {
		t.Helper()
		cnt.View.Write(0, []uint32{7, 0xDEADBEEF, 9})
		before := c.ReadBacks()
		if err := f(cnt.View); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if r := c.ReadBacks() - before; r != 0 {
			t.Fatalf("%s: %d read-backs", what, r)
		}
		if got := cnt.Check(t, what); got[0] != 7 || got[1] != uint32(want) || got[2] != 9 {
			t.Fatalf("%s: count array %v, want [7 %d 9]", what, got, want)
		}
	}
	var sel, rej, flagged, unflagged []uint32
	for i, v := range x {
		if v&1 == 0 {
			sel = append(sel, v)
		} else {
			rej = append(rej, v)
		}
		if flags[i] != 0 {
			flagged = append(flagged, v)
		} else {
			unflagged = append(unflagged, v)
		}
	}
	g := guarded(t, c, n, sentinel[uint32](), nil)
	what := fmt.Sprintf("SelectIfTo n=%d %s", n, kind)
	call(what, len(sel), func(count gpu.Array[uint32]) error {
		return scan.SelectIfTo(s, g.View, src, "(x & 1u) == 0u", count, 1)
	})
	checkBits(t, what, g.Check(t, what)[:len(sel)], sel)

	what = fmt.Sprintf("PartitionIfTo n=%d %s", n, kind)
	call(what, len(sel), func(count gpu.Array[uint32]) error {
		return scan.PartitionIfTo(s, g.View, src, "(x & 1u) == 0u", count, 1)
	})
	checkBits(t, what, g.Check(t, what), append(append([]uint32{}, sel...), rej...))

	what = fmt.Sprintf("PartitionTo n=%d %s", n, kind)
	call(what, len(flagged), func(count gpu.Array[uint32]) error {
		scan.PartitionTo(s, g.View, src, fb, count, 1)
		return nil
	})
	checkBits(t, what, g.Check(t, what), append(append([]uint32{}, flagged...), unflagged...))

	wu, wl, starts := cpuRuns(x)
	what = fmt.Sprintf("UniqueTo n=%d %s", n, kind)
	call(what, len(wu), func(count gpu.Array[uint32]) error {
		scan.UniqueTo(s, g.View, src, count, 1)
		return nil
	})
	checkBits(t, what, g.Check(t, what)[:len(wu)], wu)

	gl := guarded(t, c, n, uint32(0xDEADBEEF), nil)
	what = fmt.Sprintf("RunLengthEncodeTo n=%d %s", n, kind)
	call(what, len(wu), func(count gpu.Array[uint32]) error {
		scan.RunLengthEncodeTo(s, g.View, gl.View, src, count, 1)
		return nil
	})
	checkBits(t, what+" unique", g.Check(t, what)[:len(wu)], wu)
	checkBits(t, what+" lengths", gl.Check(t, what)[:len(wu)], wl)

	what = fmt.Sprintf("ReduceByKeyTo n=%d %s", n, kind)
	call(what, len(wu), func(count gpu.Array[uint32]) error {
		scan.ReduceByKeyTo(s, g.View, gl.View, src, fb, scan.Add, count, 1)
		return nil
	})
	checkBits(t, what+" keys", g.Check(t, what)[:len(wu)], wu)
	sums := gl.Check(t, what)
	for r, st := range starts {
		var sum uint32
		for _, f := range flags[st : st+int(wl[r])] {
			sum += f
		}
		if sums[r] != sum {
			t.Fatalf("%s: run %d sums to %d, want %d", what, r, sums[r], sum)
		}
	}
}

// A …To form's count must be an element of a count array that overlaps no
// other argument; misuse panics naming it, before anything runs.
func TestCountsToMisuse(t *testing.T) {
	c := gputest.Context(t)
	s := primScanner(t, c, config{opt: scan.Options{}})
	buf := func(n int) gpu.Array[uint32] { return upload(t, c, make([]uint32, n)) }
	a, b, d, cnt, cnt5 := buf(5), buf(5), buf(5), buf(2), buf(5)
	before := c.ReadBacks()
	gputest.MustPanic(t, "scan: SelectIfTo: at 2 is out of range of count's 2 elements", func() { _ = scan.SelectIfTo(s, a, b, "true", cnt, 2) })
	gputest.MustPanic(t, "scan: SelectIfKernelTo: at -1 is out of range of count's 2 elements", func() {
		_ = scan.SelectIfKernelTo(s, a, b, &scan.Predicate{Name: "x.comp"}, cnt, -1)
	})
	gputest.MustPanic(t, "scan: PartitionTo: count and flags overlap", func() { scan.PartitionTo(s, a, b, d, d, 0) })
	gputest.MustPanic(t, "scan: PartitionIfTo: count is nil", func() { _ = scan.PartitionIfTo(s, a, b, "true", nil, 0) })
	gputest.MustPanic(t, "scan: PartitionIfKernelTo: count and dst overlap", func() {
		_ = scan.PartitionIfKernelTo(s, a, b, &scan.Predicate{Name: "x.comp"}, a, 0)
	})
	gputest.MustPanic(t, "scan: UniqueTo: count and keys overlap", func() { scan.UniqueTo(s, a, b, b, 0) })
	gputest.MustPanic(t, "scan: RunLengthEncodeTo: count and lengths overlap", func() { scan.RunLengthEncodeTo(s, a, b, d, b, 1) })
	gputest.MustPanic(t, "scan: ReduceByKeyTo: count and values overlap", func() { scan.ReduceByKeyTo(s, a, b, d, cnt5, scan.Add, cnt5, 1) })
	gputest.MustPanic(t, "scan: ReduceByKeyTo: op 7 is not Add, Max, Min, And, Or or Xor", func() { scan.ReduceByKeyTo(s, a, b, d, d, scan.Op(7), cnt, 1) })
	if err := scan.SelectIfTo(s, a, b, "", cnt, 0); err == nil || !strings.Contains(err.Error(), "scan: SelectIfTo: the predicate is empty") {
		t.Fatalf("SelectIfTo with an empty predicate: %v", err)
	}
	if err := scan.PartitionIfTo(s, a, b, "x >", cnt, 0); err == nil || !strings.Contains(err.Error(), `scan: PartitionIfTo: the predicate "x >" does not compile`) {
		t.Fatalf("PartitionIfTo with a broken predicate: %v", err)
	}
	if r := c.ReadBacks() - before; r != 0 {
		t.Fatalf("misuse read back %d times", r)
	}
}
