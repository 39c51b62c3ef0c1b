package rasterizer

import (
	"strconv"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan"
)

// offsetsGroup is offsets.comp's work group: the invocations that share
// out a scan's words.
const offsetsGroup = 64

// oneGroupMax is the most words offsets.comp takes in one work group:
// beyond it the scanner's passes over both cores win (measured on
// llvmpipe; its loops stop after 65535 steps, far beyond).
var oneGroupMax = 1 << 20

// texelAlignWords is a multiple of every driver's
// GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT (at most 256 bytes in GL 4.3), in
// words: an array starting at such an index can be read as texels.
const texelAlignWords = 64

// offsetsKernel is offsets.comp, made where the renderer has its own
// scanner (a CPU driver without subgroups): the renderer's exclusive
// scans of some 10^5 words, and the tiled setup's compaction of its
// culling marks, in one dispatch of one work group instead of the
// scanner's three (llvmpipe spends about 0.1 ms on a dispatch).
type offsetsKernel struct {
	c *gpu.Context
	// prog[compact][texels], made when first used; texels only where
	// the driver's texel limit covers a storage block (tex).
	prog   [2][2]*gpu.Program
	tex    bool
	texels *gpu.TexelBuffer
	count  *gpu.Buffer[uint32] // COMPACT's count
}

func newOffsetsKernel(c *gpu.Context) (k *offsetsKernel, err error) {
	k = &offsetsKernel{c: c, tex: texelsCoverBlocks(c, storageBlockInputs)}
	defer func() {
		if err != nil {
			k.delete()
			k = nil
		}
	}()
	if k.tex {
		if k.texels, err = gpu.NewTexelBuffer(c); err != nil {
			return nil, err
		}
	}
	if k.count, err = gpu.NewBuffer[uint32](c, 1); err != nil {
		return nil, err
	}
	_, err = k.program(false, k.tex)
	return k, err
}

func (k *offsetsKernel) delete() {
	if k != nil {
		k.texels.Delete()
		k.count.Delete()
	}
}

func (k *offsetsKernel) program(compact, texels bool) (*gpu.Program, error) {
	p := &k.prog[bit(compact)][bit(texels)]
	if *p == nil {
		prog, err := k.c.Program("rasterizer/offsets.comp", map[string]string{"WG_SIZE": strconv.Itoa(offsetsGroup), "TEXELS": define(texels), "COMPACT": define(compact)})
		if err != nil {
			return nil, err
		}
		*p = prog
	}
	return *p, nil
}

// usable says whether the kernel takes an array of n words: made, and n
// within one group's reach.
func (k *offsetsKernel) usable(n int) bool { return k != nil && n > 0 && n <= oneGroupMax }

// run dispatches the scan (or, compact, the compaction) of src into dst,
// on the GL thread.
func (k *offsetsKernel) run(compact bool, dst, src gpu.Array[uint32]) error {
	n := src.Len()
	quads := n / 4
	buf, off := src.Base()
	texels := k.tex && quads > 0 && off%texelAlignWords == 0
	p, err := k.program(compact, texels)
	if err != nil {
		return err
	}
	k.c.BindStorage(bindingOffsetsSrc, src)
	k.c.BindStorage(bindingOffsetsDst, dst)
	if compact {
		k.c.BindStorage(bindingOffsetsCount, k.count)
	}
	if texels {
		// Written as storage by the passes before; the whole quads (the
		// words past them come from the storage block).
		k.c.Barrier(gpu.BarrierTexture)
		k.c.BindTexels(unitOffsetsSrc, k.texels, buf.Slice(off, 4*quads), gpu.TexelRGBA32UI)
	}
	p.SetUint("n", uint32(n))
	p.SetUint("quadsEach", uint32((quads+offsetsGroup-1)/offsetsGroup))
	p.Dispatch(1, 1, 1)
	k.c.Barrier(gpu.BarrierStorage)
	return nil
}

// offsets writes the exclusive add-scan of src to dst (the same length;
// dst may be src), as scan.ExclusiveScan with init 0 would: by
// offsets.comp where the renderer made it and src has at most
// oneGroupMax words, else by the scanner.
func (r *Renderer) offsets(dst, src gpu.Array[uint32]) error {
	n := src.Len()
	if !r.offsetsK.usable(n) || dst.Len() != n {
		scan.ExclusiveScan(r.scans(), dst, src, scan.Add, 0)
		return nil
	}
	var err error
	r.c.Do(func() { err = r.offsetsK.run(false, dst, src) })
	return err
}

// compact writes to dst (at least as long as marks) the indices of the
// nonzero words of marks, in order, and returns their number, as
// scan.Compact over the indices would; k must take marks (usable).
func (k *offsetsKernel) compact(dst, marks gpu.Array[uint32]) (int, error) {
	var err error
	k.c.Do(func() { err = k.run(true, dst, marks) })
	if err != nil {
		return 0, err
	}
	return int(k.count.Get(0)), nil
}
