package rasterizer

import (
	"strconv"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan"
)

// offsetsGroup is offsets.comp's work group: the invocations that share
// out a scan's words.
const offsetsGroup = 64

// oneGroupMax is the most words offsets scans in one work group: beyond
// it the scanner's passes over both cores win (measured on llvmpipe).
var oneGroupMax = 1 << 20

// offsetsKernel is offsets.comp, made where the renderer has its own
// scanner (a CPU driver without subgroups): the renderer's exclusive
// scans of some 10^5 words in one dispatch of one work group instead of
// the scanner's three (llvmpipe spends about 0.1 ms on a dispatch).
type offsetsKernel struct {
	c      *gpu.Context
	prog   *gpu.Program
	texels *gpu.TexelBuffer // nil: prog reads storage blocks
}

func newOffsetsKernel(c *gpu.Context) (k *offsetsKernel, err error) {
	k = &offsetsKernel{c: c}
	tex := texelsCoverBlocks(c, storageBlockInputs)
	if tex {
		if k.texels, err = gpu.NewTexelBuffer(c); err != nil {
			return nil, err
		}
	}
	if k.prog, err = c.Program("rasterizer/offsets.comp", map[string]string{"WG_SIZE": strconv.Itoa(offsetsGroup), "TEXELS": define(tex)}); err != nil {
		k.delete()
		return nil, err
	}
	return k, nil
}

func (k *offsetsKernel) delete() {
	if k != nil {
		k.texels.Delete()
	}
}

// offsets writes the exclusive add-scan of src to dst (the same length;
// dst may be src), as scan.ExclusiveScan with init 0 would: by
// offsets.comp where the renderer made it and src has at most
// oneGroupMax words, else by the scanner.
func (r *Renderer) offsets(dst, src gpu.Array[uint32]) {
	n := src.Len()
	k := r.offsetsK
	if k == nil || n > oneGroupMax || n == 0 || dst.Len() != n {
		scan.ExclusiveScan(r.scans(), dst, src, scan.Add, 0)
		return
	}
	r.c.Do(func() {
		p := k.prog
		quads := n / 4
		r.c.BindStorage(bindingOffsetsSrc, src)
		r.c.BindStorage(bindingOffsetsDst, dst)
		if k.texels != nil && quads > 0 {
			// Written as storage by the passes before; the whole quads
			// (the words past them come from the storage block).
			buf, off := src.Base()
			r.c.Barrier(gpu.BarrierTexture)
			r.c.BindTexels(unitOffsetsSrc, k.texels, buf.Slice(off, 4*quads), gpu.TexelRGBA32UI)
		}
		p.SetUint("n", uint32(n))
		p.SetUint("quadsEach", uint32((quads+offsetsGroup-1)/offsetsGroup))
		p.Dispatch(1, 1, 1)
		r.c.Barrier(gpu.BarrierStorage)
	})
}
