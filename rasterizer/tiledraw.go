package rasterizer

import (
	"fmt"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
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

// tiledInput is the tiled stages' input for one batch: triangles of
// block from first (primitive ids from base+first), at most limit of them
// (0: no limit), as cam (mvp its matrix) sees them; inView says that the
// mesh's bounds lie within the view (no culling), records that the frame
// stores shading records.
type tiledInput struct {
	block           *mesh.GPU
	first, base     int
	limit           int
	mvp             [16]float32
	cam             view.Camera
	inView, records bool
}

// tiledOutput is what the tiled stages did with a batch: its n triangles,
// the batch size to start the next batches with, its setup statistics,
// and, where it drew (drew), whether the image is shaded (the frame's
// first batch took the whole block and shaded as it drew).
type tiledOutput struct {
	n, limit     int
	stats        raster.SetupStats
	drew, shaded bool
}

// drawTiled runs one batch through the tiled setup, binning and the tile
// kernel (StageTileSetup, StageTileLists, StageTiles), for the largest n
// (up to the input's limit) whose records and tile lists fit their
// storage blocks. vs is the visibility buffers' state, which it updates.
func (r *Renderer) drawTiled(in tiledInput, vs *visState, tm stageTimer) (out tiledOutput, err error) {
	if r.tiled == nil {
		if r.tiled, err = newTiledStage(r.c, r.vis64, r.test); err != nil {
			return out, err
		}
	}
	records := 0
	if out, records, err = r.tiledSetUp(in, tm); err != nil {
		return out, err
	}
	err = r.tiledDraw(in, out.n, records, vs, tm, &out)
	return out, err
}

// tiledSetUp sets up and bins the input's triangles, for the largest
// batch whose records and tile lists fit their storage blocks, and
// returns it and its records.
func (r *Renderer) tiledSetUp(in tiledInput, tm stageTimer) (out tiledOutput, records int, err error) {
	b := in.block
	w, h := r.opts.Width, r.opts.Height
	mvp := in.mvp
	n := b.N - in.first
	if in.limit > 0 {
		n = min(n, in.limit)
	}
	out.limit = in.limit
	sb := &setupBatch{pos: b.Positions.Slice(0, 3*b.N), first: in.first, primBase: uint32(in.base + in.first), mvp: &mvp, width: w, height: h, cull: !in.inView,
		records: in.records, normals: b.Normals.Slice(0, 3*b.N), cam: &in.cam, mat: r.opts.Material}
	for {
		sb.n = n
		err := tm.timed(StageTileSetup, func() (err error) {
			records, out.stats, err = r.tiled.setUp(r.sc, sb, r.recs, r.test.tiledCull)
			return err
		})
		if err != nil {
			return out, 0, err
		}
		if records > r.tiled.maxPrep {
			n = shrinkBatch(n, records, r.tiled.maxPrep)
			out.limit = n
			continue
		}
		var entries int
		ok := false
		err = tm.timed(StageTileLists, func() (err error) {
			entries, ok, err = r.tiled.bin(r.sc, records, w, h)
			return err
		})
		if err != nil {
			return out, 0, err
		}
		if !ok {
			n = shrinkBatch(n, entries, r.tiled.maxList)
			out.limit = n
			continue
		}
		out.n = n
		return out, records, nil
	}
}

// tiledDraw runs the tile kernel over the batch of n triangles that
// tiledSetUp set up into records.
func (r *Renderer) tiledDraw(in tiledInput, n, records int, vs *visState, tm stageTimer, out *tiledOutput) error {
	w, h := r.opts.Width, r.opts.Height
	switch {
	case !vs.cleared && in.first == 0 && n == in.block.N && !r.tiled.separateResolve:
		if err := r.tiledDrawShaded(in, tm); err != nil {
			return err
		}
		vs.cleared, out.drew, out.shaded = true, true, true
	case records > 0:
		if !vs.cleared {
			tm.timedGL(StageZPrepare, func() { r.clearVisibility(vs) })
		}
		p, err := r.tiled.tileKernel(tileVariant{wholeRows: wholeRows(w), large: r.tiled.large})
		if err != nil {
			return err
		}
		tm.timedGL(StageTiles, func() { r.tiled.draw(p, r.depth, r.prims, w, h, false) })
		out.drew, out.shaded = true, false
	}
	return nil
}

// tiledDrawShaded is tiledDraw where the frame's first batch takes the
// whole block: the tiles start from empty buffers and shade as they draw.
// Should a later block's batch follow, it merges into what this one wrote
// and the frame's resolve pass shades the image.
func (r *Renderer) tiledDrawShaded(in tiledInput, tm stageTimer) error {
	b := in.block
	w, h := r.opts.Width, r.opts.Height
	shade, err := r.tiled.tileKernel(tileVariant{shade: true, records: in.records, wholeRows: wholeRows(w), large: r.tiled.large})
	if err != nil {
		return err
	}
	tm.timedGL(StageTiles, func() {
		if in.records {
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
		setShading(r.c, shade, b, in.cam, r.opts.Material)
		r.tiled.bindVertices(b)
		r.c.BindStorage(bindingImage, r.rgba)
		r.tiled.draw(shade, r.depth, r.prims, w, h, r.vis64)
	})
	return err
}
