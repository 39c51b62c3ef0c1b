package rasterizer

import (
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
)

// TestOffsets checks the renderer's one-group exclusive scan
// (offsets.comp) against a loop on the CPU: random words (wrapping
// around 2^32) and small counts, at the edge sizes of its quads and of its
// group's runs, up to oneGroupMax and one past it (the scanner's path),
// into a range with guard words on both sides, and in place; with the
// input's whole quads read as a buffer texture and as a storage block.
func TestOffsets(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	rnd := gputest.Rand(t)
	const guard = 256 // words: a multiple of every offset alignment
	run := 4 * offsetsGroup
	sizes := []int{1, 2, 3, 4, 5, 7, 8, 9, run - 1, run, run + 1, 3*run + 2, 108265}
	if !testing.Short() {
		sizes = append(sizes, oneGroupMax-1, oneGroupMax, oneGroupMax+1)
	}
	for _, blocks := range []bool{false, true} {
		storageBlockInputs = blocks
		o := DefaultOptions()
		o.Width, o.Height = 16, 16
		r, err := New(s, o)
		storageBlockInputs = false
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(r.Delete)
		if r.offsetsK == nil {
			// A driver whose scans need no help (subgroups, or a GPU):
			// the kernel is tested all the same.
			storageBlockInputs = blocks
			r.offsetsK, err = newOffsetsKernel(c)
			storageBlockInputs = false
			if err != nil {
				t.Fatal(err)
			}
		}
		if got := r.offsetsK.texels == nil; got != blocks && texelsCoverBlocks(c, false) {
			t.Fatalf("storage blocks %v: the kernel reads storage blocks: %v", blocks, got)
		}
		for _, n := range sizes {
			for _, small := range []bool{false, true} {
				in := make([]uint32, n)
				for i := range in {
					if small {
						in[i] = uint32(rnd.IntN(8))
					} else {
						in[i] = rnd.Uint32()
					}
				}
				want := make([]uint32, n)
				var sum uint32
				for i, v := range in {
					want[i] = sum
					sum += v
				}
				for _, inPlace := range []bool{false, true} {
					buf, err := gpu.NewBuffer[uint32](c, n+2*guard)
					if err != nil {
						t.Fatal(err)
					}
					src, err := gpu.NewBuffer[uint32](c, n+2*guard)
					if err != nil {
						t.Fatal(err)
					}
					fill := make([]uint32, n+2*guard)
					for i := range fill {
						fill[i] = 0xdeadbeef
					}
					buf.Write(0, fill)
					src.Write(0, fill)
					dst := buf.Slice(guard, n)
					from := src.Slice(guard, n)
					if inPlace {
						from = dst
					}
					from.Write(0, in)
					r.offsets(dst, from)
					got := buf.Download()
					for i, v := range got {
						switch {
						case i < guard || i >= guard+n:
							if v != 0xdeadbeef {
								t.Fatalf("storage blocks %v, n %d, in place %v: guard word %d is %#x", blocks, n, inPlace, i-guard, v)
							}
						case v != want[i-guard]:
							t.Fatalf("storage blocks %v, n %d, small %v, in place %v: offset %d is %d, want %d", blocks, n, small, inPlace, i-guard, v, want[i-guard])
						}
					}
					if !inPlace {
						for i, v := range src.Download()[guard : guard+n] {
							if v != in[i] {
								t.Fatalf("storage blocks %v, n %d: the input changed at %d", blocks, n, i)
							}
						}
					}
					buf.Delete()
					src.Delete()
				}
			}
		}
	}
}
