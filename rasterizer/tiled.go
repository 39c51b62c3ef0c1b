package rasterizer

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/scan"
)

// visibilityTiled is FrameStats.Visibility on the tiled path.
const visibilityTiled = "tiled: each pixel's least (depth, id) over its tile's triangles, no atomics"

// tilePrep mirrors struct Prep of shaders/rasterizer/tileprep.glsl (std430,
// 64 bytes): a set-up triangle's edge functions, depth terms, first vertex
// and pixel box, worked out once in setup for every tile it touches.
type tilePrep struct {
	A [4]int32 // A0, A1, A2, the depth's shift
	B [4]int32 // B0, B1, B2, bias bits
	Z [4]int32 // z0, z1 - z0, z2 - z0, primitive id
	V [4]int32 // vertex 0's x, y; the box's x0 | x1 << 16, y0 | y1 << 16
}

// tiledStage is the tiled rasterizer that Options.Tiled puts in place of
// the scan-conversion and z-buffer loops: one pass transforms and sets up
// the triangles into records (shaders/rasterizer/tilesetup.comp, the
// arithmetic of setup.comp), counts them by screen tile and appends them
// to the tiles' bins, leaving those that cross a clipping plane to a
// second pass that clips them, and the records whose boxes reach past 2x2
// tiles to a pass that bins them by loops (the first tests the others'
// few tiles in straight-line code); where the last batch left many
// triangles wholly outside the view, a pass before the first marks the
// others, so that it sets up only those (culls); where a tile's bin
// overflows, a scan of the counts and tilebin.comp make the tiles' lists
// instead (a counting sort);
// and one work group a tile keeps each pixel's least (depth, primitive id)
// over its list (tile.comp). It writes the visibility buffers of the
// renderer's scheme, so resolve, Visibility and batches work unchanged,
// and the image is the loops' bit for bit: coverage and depth are
// raster's, and a minimum does not depend on the order it is taken in.
type tiledStage struct {
	c *gpu.Context
	// setup and clip are tilesetup.comp (set up, records, tile counts;
	// the triangles to clip) and its CLIP_PASS 1 (the same for the
	// triangles to clip): [1] stores the shading records, [0] (made when
	// first needed) does not.
	setup, clip [2]*gpu.Program
	// boxes is tilesetup.comp's BOX_PASS: it bins the records whose boxes
	// reach past 2x2 tiles, which the setup pass lists.
	boxes *gpu.Program
	// cull is tilesetup.comp's CULL_PASS, which marks the triangles not
	// wholly outside the view, and culled[k] is setup[k] over the marked
	// ones (CULLED), which scan.MarkedIndices lists in input order: for
	// batches that leave many outside (culls).
	cull   *gpu.Program
	culled [2]*gpu.Program
	// culledLast says whether the last batch ran the culling pass, and
	// culledOut how many triangles it left out (tests).
	culledLast bool
	culledOut  int
	// tileKernels holds tile.comp's variants as tileKernel makes them.
	tileKernels map[tileVariant]*gpu.Program
	listing     *gpu.Program        // tilelist.comp: the tiles that hold a triangle, the bins' overflow
	emit        *gpu.Program        // tilebin.comp: the tile lists
	counter     *gpu.Buffer[uint32] // tilesetup.comp's: records, the skip statistics, the triangles to clip, the bins' overflow; the tiles with triangles
	// tileCount is per tile its small triangles, then (from word nt, nt
	// tiles) per tile its large ones (tileprep.glsl's prepLarge: the tile
	// kernel draws them a row a lane); after the scan, the emit pass's
	// cursors. tileStart is its exclusive scan, so list holds the records'
	// indices grouped by class, then by tile; prep holds the records. bins
	// holds binCap entries a tile, filled by the setup pass: tile t's small
	// triangles from t*binCap up, its large ones from (t+1)*binCap - 1
	// down; binned says that the batch's lists are there, not in list.
	tileCount, tileStart, list, bins *gpu.Buffer[uint32]
	prep                             *gpu.Buffer[tilePrep]
	binCap                           int
	binned                           bool
	large                            bool // some tile holds a large triangle (tile.comp's LARGE variant)
	filled                           int  // the tiles that hold a triangle (listed in counter)
	// lastSetUp and lastShaded are the last frame's set-up triangles and
	// the pixels of its tiles that hold one (Renderer.newFrame's choice of
	// shading records).
	lastSetUp, lastShaded int
	// lastInput and lastOutside are the last batch's triangles and those
	// of them wholly outside its view (culls).
	lastInput, lastOutside int
	maxList                int // list entries one storage block holds
	maxPrep                int // records one storage block holds
	maxBins                int // entries the bins may hold in all
	// separateResolve makes every frame clear the buffers and shade by
	// the resolve pass, as the loops do (comparisons).
	separateResolve bool
	// texels says that the kernels read the mesh's vertices and normals
	// and the records as buffer textures (TEXELS 1: posTexels,
	// nrmTexels, prepTexels), where the driver's texel limit covers any
	// storage block (llvmpipe's does), else as storage blocks.
	texels                           bool
	posTexels, nrmTexels, prepTexels *gpu.TexelBuffer
	vis64                            bool // the visibility buffers are the 64-bit scheme's (tile.comp VIS64)
	// lockstep says that the driver runs a tile's work group as one SIMD
	// vector in lockstep (gpu.Caps.LockstepLanes, llvmpipe), so the tile
	// kernel needs no barriers (tile.comp LOCKSTEP).
	lockstep bool
}

// variants makes the kernels that store (records) or do not store the
// shading records, if not made yet.
func (s *tiledStage) variants(records bool) (err error) {
	k := bit(records)
	if s.setup[k] != nil {
		return nil
	}
	for _, v := range []struct {
		p            **gpu.Program
		clip, culled string
	}{{&s.setup[k], "0", "0"}, {&s.clip[k], "1", "0"}, {&s.culled[k], "0", "1"}} {
		if *v.p, err = s.c.Program("rasterizer/tilesetup.comp", map[string]string{"TILE": fmt.Sprint(TileSize), "TEXELS": define(s.texels), "CLIP_PASS": v.clip, "CULLED": v.culled, "SHADE_RECORDS": define(records)}); err != nil {
			return err
		}
	}
	if s.boxes == nil {
		if s.boxes, err = s.c.Program("rasterizer/tilesetup.comp", map[string]string{"TILE": fmt.Sprint(TileSize), "TEXELS": define(s.texels), "BOX_PASS": "1"}); err != nil {
			return err
		}
		s.cull, err = s.c.Program("rasterizer/tilesetup.comp", map[string]string{"TILE": fmt.Sprint(TileSize), "TEXELS": define(s.texels), "CULL_PASS": "1"})
	}
	return err
}

// culls says whether the setup of batch b marks and lists the triangles
// not wholly outside the view first and sets up only those: as cullPays
// says from the last batch, or as a test's override says (1 always, -1
// never). Never where the mesh's bounds lie within the view
// (setupBatch.cull), nor, as setUp decides, where the lists would outgrow
// a storage block.
func (s *tiledStage) culls(b *setupBatch, override int) bool {
	if !b.cull || b.n == 0 || override < 0 {
		return false
	}
	return override > 0 || cullPays(s.lastOutside, s.lastInput)
}

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

// newTiledStage makes the tiled stages for the visibility buffers of the
// 64-bit scheme (vis64) or the 32-bit one; tests may ask for storage
// blocks in place of buffer textures, and for the tile kernel's barriers.
func newTiledStage(c *gpu.Context, vis64 bool, test testOptions) (s *tiledStage, err error) {
	s = &tiledStage{c: c, maxList: int(min(c.Caps().MaxSSBOSize/4, math.MaxInt32)),
		maxPrep: int(min(c.Caps().MaxSSBOSize/int64(unsafe.Sizeof(tilePrep{})), math.MaxInt32)),
		binCap:  firstBinCap}
	s.maxBins = min(s.maxList, maxBinBytes/4)
	defer func() {
		if err != nil {
			s.delete()
			s = nil
		}
	}()
	s.texels = texelInputs(c, test.tiledStorageBlocks)
	s.vis64 = vis64
	s.lockstep = lockstepTiles(c.Caps(), test.tiledBarriers)
	if s.texels {
		if err = newTexelBuffers(c, &s.posTexels, &s.nrmTexels, &s.prepTexels); err != nil {
			return nil, err
		}
	}
	if err := s.variants(true); err != nil {
		return nil, err
	}
	if s.listing, err = c.Program("rasterizer/tilelist.comp", nil); err != nil {
		return nil, err
	}
	if s.emit, err = c.Program("rasterizer/tilebin.comp", map[string]string{"TILE": fmt.Sprint(TileSize)}); err != nil {
		return nil, err
	}
	if s.counter, err = gpu.NewBuffer[uint32](c, counterWords); err != nil {
		return nil, err
	}
	return s, nil
}

// recordsBarrier is the barrier between the passes that write the records
// and the tile kernel, which reads them as buffer textures where texels
// says so.
func (s *tiledStage) recordsBarrier() gpu.Barrier {
	if s.texels {
		return gpu.BarrierStorage | gpu.BarrierTexture
	}
	return gpu.BarrierStorage
}

// bindVertices points the buffer textures of the vertices and normals at
// block b's (the setup passes' and the shading tile kernel's), on the GL
// thread; nothing where the kernels read storage blocks.
func (s *tiledStage) bindVertices(b *mesh.GPU) {
	if s.texels {
		s.c.BindTexels(unitPositions, s.posTexels, b.Positions.Slice(0, 3*b.N), gpu.TexelRGBA32F)
		s.c.BindTexels(unitNormals, s.nrmTexels, b.Normals.Slice(0, 3*b.N), gpu.TexelRGBA32F)
	}
}

func (s *tiledStage) delete() {
	s.counter.Delete()
	s.tileCount.Delete()
	s.tileStart.Delete()
	s.list.Delete()
	s.bins.Delete()
	s.prep.Delete()
	s.posTexels.Delete()
	s.nrmTexels.Delete()
	s.prepTexels.Delete()
}

// counterWords is the counts at the head of tiledStage.counter
// (tilesetup.comp): then the tiles that hold a triangle, one word each.
const counterWords = 11

// tiles returns the tile grid of a w x h image.
func tiles(w, h int) (tx, ty int) {
	return (w + TileSize - 1) / TileSize, (h + TileSize - 1) / TileSize
}

// setUp runs tilesetup.comp over the batch: its records in prep, their
// tile counts in tileCount, and the tiles' lists in bins unless one
// overflows its bin (binned says which; the bins then grow for the next
// batch while they fit maxBins). The first pass sets up the triangles
// that need no clipping and lists the others (in list, free until bin),
// the second clips those; so the clipper runs only for the triangles that
// cross the view's planes. Between them the box pass bins the records
// that the first listed (from list[b.n]) for reaching past 2x2 tiles. It
// returns the records and the skip statistics, running again with more
// room when the records outgrew prep; records beyond maxPrep are not made
// (the batch is too large: the caller shrinks it).
// Where culls says so, the culling pass marks the triangles not wholly
// outside the view (in list, past the boxes' records), scan.MarkedIndices lists their
// indices (past the marks), and the setup pass takes only those.
func (s *tiledStage) setUp(sc *scan.Scanner, b *setupBatch, recs *shadeRecords, cullOverride int) (records int, stats raster.SetupStats, err error) {
	if err := s.variants(b.records); err != nil {
		return 0, stats, err
	}
	k := bit(b.records)
	tx, ty := tiles(b.width, b.height)
	nt := tx * ty
	if err := grow(s.c, &s.tileCount, 2*nt, "tile counts"); err != nil {
		return 0, stats, err
	}
	if err := grow(s.c, &s.tileStart, 2*nt, "tile offsets"); err != nil {
		return 0, stats, err
	}
	// The counter's words past the tiles' list: the records whose boxes
	// reach past 2x2 tiles, and the work groups (x, y, z) of the pass
	// that bins them.
	boxWords := counterWords + nt
	if err := grow(s.c, &s.counter, boxWords+4, "tile counters"); err != nil {
		return 0, stats, err
	}
	// The triangles to clip, then (from b.n) the records of those boxes,
	// then, culling, the culling pass's marks (from marks) and the marked
	// triangles (from kept), where a storage binding may start and
	// scan.MarkedIndices may read the marks as texels.
	align := max(s.c.Caps().SSBOOffsetAlignment/4, scan.SmallTexelAlign)
	marks := (2*b.n + align - 1) / align * align
	keptAt := (marks + b.n + align - 1) / align * align
	cull := s.culls(b, cullOverride) && keptAt+b.n <= s.maxList
	s.culledLast, s.culledOut = cull, 0
	room := 2 * b.n
	if cull {
		room = keptAt + b.n
	}
	if err := grow(s.c, &s.list, max(room, 1), "triangles to clip"); err != nil {
		return 0, stats, err
	}
	// Most triangles make one record or none; clipping makes more.
	if err := grow(s.c, &s.prep, min(b.n+b.n/8+64, s.maxPrep), "tile records"); err != nil {
		return 0, stats, err
	}
	binCap := s.binCap
	if nt*binCap > s.maxBins {
		binCap = 0
	}
	if err := grow(s.c, &s.bins, nt*binCap, "tile bins"); err != nil {
		return 0, stats, err
	}
	for {
		s.tileCount.FillRange(0, 2*nt, 0)
		s.counter.FillRange(0, counterWords, 0)
		s.counter.FillRange(8, 2, 1) // the indirect dispatch's y and z
		s.counter.FillRange(boxWords, 2, 0)
		s.counter.FillRange(boxWords+2, 2, 1)
		capacity := s.prep.Len()
		pass := func(p *gpu.Program, n int) {
			s.c.Do(func() {
				gx, gy := raster.Guard(b.width, b.height)
				s.c.BindStorage(bindingPositions, b.pos)
				if s.texels {
					s.c.BindTexels(unitPositions, s.posTexels, b.pos, gpu.TexelRGBA32F)
				}
				s.c.BindStorage(bindingTileCount, s.tileCount.Slice(0, 2*nt))
				s.c.BindStorage(bindingTileCounter, s.counter)
				s.c.BindStorage(bindingTilePreps, s.prep)
				s.c.BindStorage(bindingTileList, s.list)
				s.c.BindStorage(bindingTileBins, s.bins)
				b.recordInputs(s.c, s.nrmTexels, recs, p)
				p.SetMat4("mvp", *b.mvp)
				p.SetUint("numTris", uint32(n))
				p.SetUint("first", uint32(b.first))
				p.SetUint("primBase", b.primBase)
				p.SetIvec2("size", int32(b.width), int32(b.height))
				p.SetVec2("guard", gx, gy)
				p.SetInt("tilesX", int32(tx))
				p.SetUint("numTiles", uint32(nt))
				p.SetUint("capacity", uint32(capacity))
				p.SetUint("binCap", uint32(binCap))
				p.SetUint("listBase", uint32(b.n))
				p.SetUint("boxWords", uint32(boxWords))
				if p == s.cull {
					p.SetUint("cullBase", uint32(marks))
				} else if p == s.culled[k] {
					p.SetUint("cullBase", uint32(keptAt))
				}
				if p == s.boxes {
					// As many groups as the setup pass counted.
					s.c.Barrier(gpu.BarrierCommand)
					p.DispatchIndirect(s.counter, 4*(boxWords+1))
				} else {
					p.DispatchInvocations(n)
				}
				s.c.Barrier(s.recordsBarrier())
			})
		}
		// The tiles that hold a triangle, and whether a bin overflowed,
		// from the counts: after the setup pass, and again after the
		// clipping pass where there is one.
		listTiles := func() {
			s.c.Do(func() {
				s.c.BindStorage(bindingTileCount, s.tileCount.Slice(0, 2*nt))
				s.c.BindStorage(bindingTileCounter, s.counter)
				s.listing.SetUint("numTiles", uint32(nt))
				s.listing.SetUint("binCap", uint32(binCap))
				s.listing.DispatchInvocations(nt)
				s.c.Barrier(gpu.BarrierStorage)
			})
		}
		outside := 0 // the triangles the culling pass left out: outside the view
		if cull {
			pass(s.cull, b.n)
			kept := scan.MarkedIndices(sc, s.list.Slice(keptAt, b.n), s.list.Slice(marks, b.n))
			outside = b.n - kept
			s.culledOut = outside
			pass(s.culled[k], kept)
		} else {
			pass(s.setup[k], b.n)
		}
		pass(s.boxes, 0)
		listTiles()
		v := make([]uint32, counterWords)
		s.counter.Read(0, v)
		if v[5] > 0 {
			pass(s.clip[k], int(v[5]))
			s.counter.FillRange(6, 2, 0)
			s.counter.FillRange(10, 1, 0)
			listTiles()
			s.counter.Read(0, v)
		}
		records = int(v[0])
		outside += int(v[1])
		s.lastInput, s.lastOutside = b.n, outside
		stats = raster.SetupStats{Input: b.n, Outside: outside, Clipped: int(v[2]), NonFinite: int(v[3]), ZeroArea: int(v[4]), Output: records}
		if records <= capacity || records > s.maxPrep {
			s.binned = binCap > 0 && v[6] == 0
			s.filled = int(v[7])
			s.large = v[10] > 0
			s.lastSetUp, s.lastShaded = records, s.filled*TileSize*TileSize
			if need := int(v[6]); need > binCap {
				// The next frames' bins: room for this one's busiest tile.
				c := s.binCap
				for c < need && nt*c*2 <= s.maxBins {
					c *= 2
				}
				s.binCap = c
			}
			return records, stats, nil
		}
		if err := grow(s.c, &s.prep, records, "tile records"); err != nil {
			return 0, stats, err
		}
	}
}

// bin turns the tile counts of n records into the tile lists and reports
// their entries, or false when they would exceed a storage block (the
// batch is then too large). It has nothing to do when setUp binned them.
func (s *tiledStage) bin(sc *scan.Scanner, n, w, h int) (int, bool, error) {
	tx, ty := tiles(w, h)
	nt := tx * ty
	counts := s.tileCount.Slice(0, 2*nt) // the small triangles', then the large ones'
	if n == 0 || s.binned {
		return 0, true, nil
	}
	entries := int(scan.Reduce(sc, counts, scan.Add))
	if entries > s.maxList {
		return entries, false, nil
	}
	scan.ExclusiveScan(sc, s.tileStart.Slice(0, 2*nt), counts, scan.Add, 0)
	if err := grow(s.c, &s.list, entries, "tile lists"); err != nil {
		return 0, false, err
	}
	s.tileCount.FillRange(0, 2*nt, 0)
	s.c.Do(func() {
		s.c.BindStorage(bindingTileCount, counts)
		s.c.BindStorage(bindingTileStart, s.tileStart.Slice(0, 2*nt))
		s.c.BindStorage(bindingTileList, s.list)
		s.c.BindStorage(bindingTilePreps, s.prep)
		s.emit.SetUint("numTris", uint32(n))
		s.emit.SetInt("tilesX", int32(tx))
		s.emit.SetUint("numTiles", uint32(nt))
		s.emit.DispatchInvocations(n)
		s.c.Barrier(gpu.BarrierStorage)
	})
	return entries, true, nil
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
	w, h := r.opts.Width, r.opts.Height
	if r.tiled == nil {
		var err error
		if r.tiled, err = newTiledStage(r.c, r.vis64, r.test); err != nil {
			return 0, err
		}
	}
	mvp := f.mvp
	n := b.N - first
	if f.batch > 0 {
		n = min(n, f.batch)
	}
	sb := &setupBatch{pos: b.Positions.Slice(0, 3*b.N), first: first, primBase: uint32(base + first), mvp: &mvp, width: w, height: h, cull: !f.inView,
		records: f.records, normals: b.Normals.Slice(0, 3*b.N), cam: &f.cam, mat: r.opts.Material}
	var records int
	var stats raster.SetupStats
	for {
		sb.n = n
		err := f.timed(StageTileSetup, func() (err error) {
			records, stats, err = r.tiled.setUp(r.sc, sb, r.recs, r.test.tiledCull)
			return err
		})
		if err != nil {
			return 0, err
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
			return 0, err
		}
		if !ok {
			n = f.shrink(n, entries, r.tiled.maxList)
			continue
		}
		break
	}
	f.st.Setup = addSetupStats(f.st.Setup, stats)
	f.st.Batches++
	switch {
	case !f.cleared && first == 0 && n == b.N && !r.tiled.separateResolve:
		// The frame's first batch takes the whole block: the tiles start
		// from empty buffers and shade as they draw. Should a later
		// block's batch follow, it merges into what this one wrote and
		// resets shaded, and resolve shades the frame.
		shade, err := r.tiled.tileKernel(tileVariant{shade: true, records: f.records, wholeRows: wholeRows(w), large: r.tiled.large})
		if err != nil {
			return 0, err
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
			return 0, err
		}
		f.cleared, f.shaded = true, true
	case records > 0:
		if !f.cleared {
			f.timedGL(StageZPrepare, f.clear)
		}
		p, err := r.tiled.tileKernel(tileVariant{wholeRows: wholeRows(w), large: r.tiled.large})
		if err != nil {
			return 0, err
		}
		f.timedGL(StageTiles, func() { r.tiled.draw(p, r.depth, r.prims, w, h, false) })
		f.shaded = false
	}
	r.clock.read(&f.st.Stages)
	return n, nil
}
