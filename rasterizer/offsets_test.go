package rasterizer

import (
	"fmt"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
)

// TestOffsets checks offsets.comp against loops on the CPU: the exclusive
// scan of random words (wrapping around 2^32) and of small counts, and the
// compaction of marks (zeros, ones and other nonzero words), at the edge
// sizes of its quads and of its group's runs, up to oneGroupMax; into a
// range with guard words on both sides, the scan in place too; the input's
// whole quads read as a buffer texture (an input at a multiple of
// texelAlignWords) and as a storage block (an input elsewhere, or a
// renderer whose inputs are storage blocks).
func TestOffsets(t *testing.T) {
	c := gputest.Context(t)
	rnd := gputest.Rand(t)
	run := 4 * offsetsGroup
	sizes := []int{1, 2, 3, 4, 5, 7, 8, 9, run - 1, run, run + 1, 3*run + 2, 108265}
	if !testing.Short() {
		sizes = append(sizes, oneGroupMax-1, oneGroupMax)
	}
	// Guards: a multiple of the texels' alignment, and the least a
	// storage binding takes where that is less.
	guards := []int{4 * texelAlignWords}
	if a := max(c.Caps().SSBOOffsetAlignment/4, 1); a < texelAlignWords {
		guards = append(guards, a)
	}
	for _, blocks := range []bool{false, true} {
		storageBlockInputs = blocks
		k, err := newOffsetsKernel(c)
		storageBlockInputs = false
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(k.delete)
		if k.tex == blocks && texelsCoverBlocks(c, false) {
			t.Fatalf("storage blocks %v: the kernel reads texels: %v", blocks, k.tex)
		}
		for _, guard := range guards {
			for _, n := range sizes {
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
						label := fmt.Sprintf("storage blocks %v, guard %d, n %d, mode %d, in place %v", blocks, guard, n, mode, inPlace)
						checkOffsets(t, c, k, label, in, want, guard, mode == 2, inPlace)
					}
				}
			}
		}
	}
}

// checkOffsets runs k over in, placed guard words into a buffer, into a
// range guard words into another (or in place), and compares with want.
func checkOffsets(t *testing.T, c *gpu.Context, k *offsetsKernel, label string, in, want []uint32, guard int, compact, inPlace bool) {
	t.Helper()
	n := len(in)
	const mark = 0xdeadbeef
	fill := make([]uint32, n+2*guard)
	for i := range fill {
		fill[i] = mark
	}
	buf, err := gpu.NewBuffer[uint32](c, n+2*guard)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Delete()
	src, err := gpu.NewBuffer[uint32](c, n+2*guard)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Delete()
	buf.Write(0, fill)
	src.Write(0, fill)
	dst := buf.Slice(guard, n)
	from := src.Slice(guard, n)
	if inPlace {
		from = dst
	}
	from.Write(0, in)
	c.Do(func() { err = k.run(compact, dst, from) })
	if err != nil {
		t.Fatal(err)
	}
	if compact {
		if got := int(k.count.Get(0)); got != len(want) {
			t.Fatalf("%s: %d marked, want %d", label, got, len(want))
		}
	}
	got := buf.Download()
	for i, v := range got {
		j := i - guard
		switch {
		case j < 0 || j >= len(want) && (compact && j < n || j >= n):
			// Guards, and a compaction's words past its list, untouched.
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
