package rasterizer

import (
	"fmt"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
)

// tileVariant is what a tile.comp variant does beyond the stage's own
// defines: shade (SHADE: the frame's only batch, shaded as it is drawn),
// from records (SHADE_RECORDS), for an image whose width is a multiple
// of 8 (WHOLE_ROWS: its rows' words four to a vector), with the pass of
// the large triangles (LARGE: the batch has some).
type tileVariant struct{ shade, records, wholeRows, large bool }

// tileKernel returns tile.comp's variant v, made when first asked for.
func (s *tiledStage) tileKernel(v tileVariant) (*gpu.Program, error) {
	if p := s.tileKernels[v]; p != nil {
		return p, nil
	}
	p, err := s.c.Program("rasterizer/tile.comp", map[string]string{"VIS64": define(s.vis64), "TILE": fmt.Sprint(TileSize), "TEXELS": define(s.texels),
		"SHADE": define(v.shade), "SHADE_RECORDS": define(v.records), "WHOLE_ROWS": define(v.wholeRows), "LARGE": define(v.large),
		"LOCKSTEP": define(s.lockstep)})
	if err != nil {
		return nil, err
	}
	if s.tileKernels == nil {
		s.tileKernels = map[tileVariant]*gpu.Program{}
	}
	s.tileKernels[v] = p
	return p, nil
}

// draw runs the tile kernel p over the binned triangles' records into the
// visibility buffers vis (the 32-bit scheme's depths, or the packed 64-bit
// words) and prims, on the GL thread. p is s.raster, or s.shade with its
// shading set (setShading) and the image bound. With all it runs a work
// group for every tile (the empty tiles write their pixels), else one for
// each tile that holds a triangle, by an indirect dispatch of the counts
// setup left in s.counter.
func (s *tiledStage) draw(p *gpu.Program, vis, prims *gpu.Buffer[uint32], w, h int, all bool) {
	tx, ty := tiles(w, h)
	nt := tx * ty
	s.c.BindStorage(bindingTilePreps, s.prep)
	if s.texels {
		s.c.BindTexels(unitTilePreps, s.prepTexels, s.prep, gpu.TexelRGBA32I)
	}
	s.c.BindStorage(bindingTileCount, s.tileCount.Slice(0, 2*nt))
	s.c.BindStorage(bindingTileStart, s.tileStart.Slice(0, 2*nt))
	if s.binned {
		s.c.BindStorage(bindingTileList, s.bins)
		p.SetUint("binCap", uint32(s.binCap))
	} else {
		s.c.BindStorage(bindingTileList, s.list)
		p.SetUint("binCap", 0)
	}
	s.c.BindStorage(bindingVisibility, vis)
	s.c.BindStorage(bindingPrims, prims)
	p.SetIvec2("size", int32(w), int32(h))
	p.SetInt("tilesX", int32(tx))
	p.SetUint("numTiles", uint32(nt))
	s.c.BindStorage(bindingTileCounter, s.counter)
	if all || !listTiles(s.c.Caps(), nt, s.filled) {
		p.SetInt("listed", 0)
		p.Dispatch(tx, ty, 1)
	} else {
		p.SetInt("listed", 1)
		s.c.Barrier(gpu.BarrierCommand)
		p.DispatchIndirect(s.counter, 7*4)
	}
	s.c.Barrier(gpu.BarrierStorage)
}

// drawTiled is draw for Options.Tiled: one batch, triangles [first,
// first+n) of block b, through the tiled setup, binning and the tile
// kernel (StageTileSetup, StageTileLists, StageTiles), for the largest n
// (up to f.batch) whose records and tile lists fit their storage blocks;
// it returns n. The loops' statistics stay empty.
func (f *frame) drawTiled(b *mesh.GPU, first, base int) (int, error) {
	r := f.r
	if r.tiled == nil {
		var err error
		if r.tiled, err = newTiledStage(r.c, r.vis64, r.test); err != nil {
			return 0, err
		}
	}
	n, records, err := f.tiledSetUp(b, first, base)
	if err != nil {
		return 0, err
	}
	if err := f.tiledDraw(b, first, n, records); err != nil {
		return 0, err
	}
	r.clock.read(&f.st.Stages)
	return n, nil
}

// tiledSetUp sets up and bins triangles [first, first+n) of block b, for
// the largest n (up to f.batch) whose records and tile lists fit their
// storage blocks, and returns n and the records.
func (f *frame) tiledSetUp(b *mesh.GPU, first, base int) (n, records int, err error) {
	r := f.r
	w, h := r.opts.Width, r.opts.Height
	mvp := f.mvp
	n = b.N - first
	if f.batch > 0 {
		n = min(n, f.batch)
	}
	sb := &setupBatch{pos: b.Positions.Slice(0, 3*b.N), first: first, primBase: uint32(base + first), mvp: &mvp, width: w, height: h, cull: !f.inView,
		records: f.records, normals: b.Normals.Slice(0, 3*b.N), cam: &f.cam, mat: r.opts.Material}
	var stats raster.SetupStats
	for {
		sb.n = n
		err := f.timed(StageTileSetup, func() (err error) {
			records, stats, err = r.tiled.setUp(r.sc, sb, r.recs, r.test.tiledCull)
			return err
		})
		if err != nil {
			return 0, 0, err
		}
		if records > r.tiled.maxPrep {
			n = f.shrink(n, records, r.tiled.maxPrep)
			continue
		}
		var entries int
		ok := false
		err = f.timed(StageTileLists, func() (err error) {
			entries, ok, err = r.tiled.bin(r.sc, records, w, h)
			return err
		})
		if err != nil {
			return 0, 0, err
		}
		if !ok {
			n = f.shrink(n, entries, r.tiled.maxList)
			continue
		}
		break
	}
	f.st.Setup = addSetupStats(f.st.Setup, stats)
	f.st.Batches++
	return n, records, nil
}

// tiledDraw runs the tile kernel over the batch of n triangles from first
// of block b that tiledSetUp set up into records.
func (f *frame) tiledDraw(b *mesh.GPU, first, n, records int) error {
	r := f.r
	w, h := r.opts.Width, r.opts.Height
	switch {
	case !f.cleared && first == 0 && n == b.N && !r.tiled.separateResolve:
		return f.tiledDrawShaded(b)
	case records > 0:
		if !f.cleared {
			f.timedGL(StageZPrepare, f.clear)
		}
		p, err := r.tiled.tileKernel(tileVariant{wholeRows: wholeRows(w), large: r.tiled.large})
		if err != nil {
			return err
		}
		f.timedGL(StageTiles, func() { r.tiled.draw(p, r.depth, r.prims, w, h, false) })
		f.shaded = false
	}
	return nil
}

// tiledDrawShaded is tiledDraw where the frame's first batch takes the
// whole block: the tiles start from empty buffers and shade as they draw.
// Should a later block's batch follow, it merges into what this one wrote
// and resets shaded, and resolve shades the frame.
func (f *frame) tiledDrawShaded(b *mesh.GPU) error {
	r := f.r
	w, h := r.opts.Width, r.opts.Height
	shade, err := r.tiled.tileKernel(tileVariant{shade: true, records: f.records, wholeRows: wholeRows(w), large: r.tiled.large})
	if err != nil {
		return err
	}
	f.timedGL(StageTiles, func() {
		if f.records {
			if err = r.recs.bindRead(b.N, r.tiled.texels); err != nil {
				return
			}
		}
		// The 32-bit scheme's buffers take one word a pixel: fills
		// clear them and paint the background, and the empty tiles
		// are done (the 64-bit one's pairs of words the kernel
		// writes, its empty tiles too: tile.comp SHADE with VIS64).
		if !r.vis64 {
			r.depth.FillRange(0, w*h, raster.DepthMax)
			r.prims.FillRange(0, w*h, raster.NoPrimitive)
			r.rgba.FillRange(0, w*h, PackRGBA(r.opts.Material.Background))
		}
		setShading(r.c, shade, b, f.cam, r.opts.Material)
		r.tiled.bindVertices(b)
		r.c.BindStorage(bindingImage, r.rgba)
		r.tiled.draw(shade, r.depth, r.prims, w, h, r.vis64)
	})
	if err != nil {
		return err
	}
	f.cleared, f.shaded = true, true
	return nil
}
