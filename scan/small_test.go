package scan_test

import (
	"fmt"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// TestSmallPath checks Offsets and MarkedIndices against loops on the CPU,
// through the one-group kernel (small.comp) and through the multi-group
// path it stands in for: the exclusive scan of random words (wrapping
// around 2^32) and of small counts, and the indices of marks (zeros, ones
// and other nonzero words), at the edge sizes of its quads and of its
// group's runs, up to SmallMax; into a range with guard words on both
// sides, the scan in place too; the input's whole quads read as a buffer
// texture (an input at a multiple of SmallTexelAlign) and as a storage
// block (an input elsewhere, or storage blocks asked for).
func TestSmallPath(t *testing.T) {
	c := gputest.Context(t)
	rnd := gputest.Rand(t)
	s, err := scan.New(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Delete)
	run := 4 * scan.SmallGroup
	sizes := []int{0, 1, 2, 3, 4, 5, 7, 8, 9, run - 1, run, run + 1, 3*run + 2, 108265}
	if !testing.Short() {
		sizes = append(sizes, scan.SmallMax-1, scan.SmallMax)
	}
	// Guards: a multiple of the texels' alignment, and the least a
	// storage binding takes where that is less.
	guards := []int{4 * scan.SmallTexelAlign}
	if a := max(c.Caps().SSBOOffsetAlignment/4, 1); a < scan.SmallTexelAlign {
		guards = append(guards, a)
	}
	for _, path := range []struct{ on, blocks bool }{{true, false}, {true, true}, {false, false}} {
		scan.SetSmallPath(s, path.on, path.blocks)
		for _, guard := range guards {
			for _, n := range sizes {
				if n > 3*run+2 && (!path.on || guard != guards[0]) {
					continue // the multi-group path's own tests take large arrays
				}
				for mode := 0; mode < 3; mode++ { // random words, small counts, marks
					in := make([]uint32, n)
					for i := range in {
						switch mode {
						case 0:
							in[i] = rnd.Uint32()
						case 1:
							in[i] = uint32(rnd.IntN(8))
						default:
							in[i] = uint32(rnd.IntN(2))
							if rnd.IntN(16) == 0 {
								in[i] = rnd.Uint32() | 1
							}
						}
					}
					var want []uint32
					var sum uint32
					for i, v := range in {
						if mode == 2 {
							if v != 0 {
								want = append(want, uint32(i))
							}
							continue
						}
						want = append(want, sum)
						sum += v
					}
					for _, inPlace := range []bool{false, true} {
						if inPlace && mode == 2 {
							continue
						}
						label := fmt.Sprintf("one group %v, storage blocks %v, guard %d, n %d, mode %d, in place %v", path.on, path.blocks, guard, n, mode, inPlace)
						checkSmall(t, c, s, label, in, want, guard, mode == 2, inPlace)
					}
				}
			}
		}
	}
	scan.SetSmallPath(s, scan.SmallPathPays(s), false)
}

// checkSmall runs Offsets (or, compact, MarkedIndices) over in, placed
// guard words into a buffer, into a range guard words into another (or in
// place), and compares with want.
func checkSmall(t *testing.T, c *gpu.Context, s *scan.Scanner, label string, in, want []uint32, guard int, compact, inPlace bool) {
	t.Helper()
	n := len(in)
	const mark = 0xdeadbeef
	fill := make([]uint32, n+2*guard)
	for i := range fill {
		fill[i] = mark
	}
	buf, err := gpu.NewBufferFrom(c, fill)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Delete()
	src, err := gpu.NewBufferFrom(c, fill)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Delete()
	dst := buf.Slice(guard, n)
	from := src.Slice(guard, n)
	if inPlace {
		from = dst
	}
	from.Write(0, in)
	if compact {
		if got := scan.MarkedIndices(s, dst, from); got != len(want) {
			t.Fatalf("%s: %d marked, want %d", label, got, len(want))
		}
	} else {
		scan.Offsets(s, dst, from)
	}
	got := buf.Download()
	for i, v := range got {
		j := i - guard
		switch {
		case j < 0 || j >= len(want) && (compact && j < n || j >= n):
			// Guards, and the words past the indices, untouched.
			if v != mark {
				t.Fatalf("%s: word %d past the output is %#x", label, j, v)
			}
		case v != want[j]:
			t.Fatalf("%s: output %d is %d, want %d", label, j, v, want[j])
		}
	}
	if !inPlace {
		for i, v := range src.Download() {
			if j := i - guard; j >= 0 && j < n && v != in[j] || (j < 0 || j >= n) && v != mark {
				t.Fatalf("%s: the input changed at %d", label, j)
			}
		}
	}
}

// TestSmallPathBindings: small.comp's storage blocks sit at the bindings
// the Go side binds them at, as the driver reports them, in every variant.
func TestSmallPathBindings(t *testing.T) {
	c := gputest.Context(t)
	want := map[string]int{"Src": 0, "Src4": 0, "Dst": 1, "Dst4": 1, "Count": 2}
	seen := map[string]bool{}
	for _, compact := range []string{"0", "1"} {
		for _, texels := range []string{"0", "1"} {
			p, err := c.Program("scan/small.comp", map[string]string{"WG_SIZE": fmt.Sprint(scan.SmallGroup), "TEXELS": texels, "COMPACT": compact})
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range p.StorageBlocks() {
				w, ok := want[b.Name]
				if !ok || b.Binding != w {
					t.Errorf("COMPACT %s TEXELS %s: storage block %s at binding %d, want %d (known %v)", compact, texels, b.Name, b.Binding, w, ok)
				}
				seen[b.Name] = true
			}
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("no variant has an active storage block %s", name)
		}
	}
}

// TestSmallPathDispatches: where the Scanner's tuning takes the one-group
// kernel (a CPU driver whose scans run in small shared-memory tiles),
// Offsets of 200,000 words (the paper's frames have up to 160,000 spans)
// is one dispatch; elsewhere it is ExclusiveScan's plan. Either way the
// offsets are right.
func TestSmallPathDispatches(t *testing.T) {
	c := gputest.Context(t)
	s, err := scan.New(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Delete)
	const n = 200000
	in := make([]uint32, n)
	for i := range in {
		in[i] = uint32(i%7 + i%3)
	}
	src := upload(t, c, in)
	dst := upload(t, c, make([]uint32, n))
	scan.Offsets(s, dst, src)
	p := s.LastPlan()
	if scan.SmallPathPays(s) && p.Dispatches != 1 {
		t.Fatalf("Offsets of %d words on the small path: %v, want one dispatch", n, p)
	}
	got, sum := dst.Download(), uint32(0)
	for i, v := range got {
		if v != sum {
			t.Fatalf("element %d: %d, want %d", i, v, sum)
		}
		sum += in[i]
	}
}

// TestSmallPathMisuse: Offsets and MarkedIndices check their arguments
// as the scans do, on either path.
func TestSmallPathMisuse(t *testing.T) {
	c := gputest.Context(t)
	s, err := scan.New(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Delete)
	buf := func(n int) gpu.Array[uint32] { return upload(t, c, make([]uint32, n)) }
	a, b, six := buf(5), buf(5), buf(6)
	big := upload(t, c, make([]uint32, 64))
	for _, on := range []bool{true, false} {
		scan.SetSmallPath(s, on, false)
		gputest.MustPanic(t, "scan: Offsets: s is nil", func() { scan.Offsets(nil, a, b) })
		gputest.MustPanic(t, "scan: Offsets: dst is nil", func() { scan.Offsets(s, nil, b) })
		gputest.MustPanic(t, "scan: Offsets: src has 6 elements but dst has 5", func() { scan.Offsets(s, a, six) })
		gputest.MustPanic(t, "scan: Offsets: dst and src overlap without being the same range", func() {
			scan.Offsets(s, gpu.Array[uint32](big.Slice(0, 16)), gpu.Array[uint32](big.Slice(8, 16)))
		})
		gputest.MustPanic(t, "scan: MarkedIndices: dst has 5 words, fewer than marks' 6", func() { scan.MarkedIndices(s, a, six) })
		gputest.MustPanic(t, "scan: MarkedIndices: dst and marks overlap", func() { scan.MarkedIndices(s, a, a) })
		dead := buf(5)
		dead.(*gpu.Buffer[uint32]).Delete()
		gputest.MustPanic(t, "scan: MarkedIndices: marks was deleted", func() { scan.MarkedIndices(s, a, dead) })
	}
	scan.SetSmallPath(s, scan.SmallPathPays(s), false)
}
