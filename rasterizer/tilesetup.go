package rasterizer

import (
	"fmt"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/scan"
)

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
// outside the view (in list, past the boxes' records),
// scan.MarkedIndices lists their indices (past the marks), and the setup
// pass takes only those.
func (s *tiledStage) setUp(sc *scan.Scanner, b *setupBatch, recs *shadeRecords, cullOverride int) (records int, stats raster.SetupStats, err error) {
	l, err := s.layOut(b, cullOverride)
	if err != nil {
		return 0, stats, err
	}
	for {
		capacity := s.prep.Len()
		v, outside := s.setupPasses(sc, l, recs, capacity)
		records = int(v[0])
		s.lastInput, s.lastOutside = b.n, outside
		stats = raster.SetupStats{Input: b.n, Outside: outside, Clipped: int(v[2]), NonFinite: int(v[3]), ZeroArea: int(v[4]), Output: records}
		if records <= capacity || records > s.maxPrep {
			s.keepCounts(l, v, records)
			return records, stats, nil
		}
		if err := grow(s.c, &s.prep, records, "tile records"); err != nil {
			return 0, stats, err
		}
	}
}

// tileSetupLayout is where one batch's setup passes put their words:
// its kernels' variant k (bit(records)), the tile grid (tx tiles a row,
// nt in all), the counter's words past the tiles' list (from boxWords:
// the records whose boxes reach past 2x2 tiles, and the work groups x,
// y, z of the pass that bins them), and in list, past the triangles to
// clip and the boxes' records, the culling pass's marks (from marks) and
// the marked triangles (from keptAt) where it culls; binCap is the bins'
// capacity this batch (0: no bins).
type tileSetupLayout struct {
	b                       *setupBatch
	k, tx, nt               int
	boxWords, marks, keptAt int
	cull                    bool
	binCap                  int
}

// layOut makes the kernels and the room that batch b's setup needs.
func (s *tiledStage) layOut(b *setupBatch, cullOverride int) (l tileSetupLayout, err error) {
	if err := s.variants(b.records); err != nil {
		return l, err
	}
	tx, ty := tiles(b.width, b.height)
	l = tileSetupLayout{b: b, k: bit(b.records), tx: tx, nt: tx * ty, boxWords: counterWords + tx*ty}
	nt := l.nt
	if err := grow(s.c, &s.tileCount, 2*nt, "tile counts"); err != nil {
		return l, err
	}
	if err := grow(s.c, &s.tileStart, 2*nt, "tile offsets"); err != nil {
		return l, err
	}
	if err := grow(s.c, &s.counter, l.boxWords+4, "tile counters"); err != nil {
		return l, err
	}
	// The marks and the marked triangles start where a storage binding
	// may start and scan.MarkedIndices may read the marks as texels.
	align := max(s.c.Caps().SSBOOffsetAlignment/4, scan.SmallTexelAlign)
	l.marks = (2*b.n + align - 1) / align * align
	l.keptAt = (l.marks + b.n + align - 1) / align * align
	l.cull = s.culls(b, cullOverride) && l.keptAt+b.n <= s.maxList
	s.culledLast, s.culledOut = l.cull, 0
	room := 2 * b.n
	if l.cull {
		room = l.keptAt + b.n
	}
	if err := grow(s.c, &s.list, max(room, 1), "triangles to clip"); err != nil {
		return l, err
	}
	// Most triangles make one record or none; clipping makes more.
	if err := grow(s.c, &s.prep, min(b.n+b.n/8+64, s.maxPrep), "tile records"); err != nil {
		return l, err
	}
	l.binCap = s.binCap
	if nt*l.binCap > s.maxBins {
		l.binCap = 0
	}
	if err := grow(s.c, &s.bins, nt*l.binCap, "tile bins"); err != nil {
		return l, err
	}
	return l, nil
}

// setupPasses runs the setup passes once, with room for capacity records
// (what the counts past it say is how many there would have been), and
// returns the counter's head (counterWords words) and the triangles
// wholly outside the view.
func (s *tiledStage) setupPasses(sc *scan.Scanner, l tileSetupLayout, recs *shadeRecords, capacity int) (v []uint32, outside int) {
	b, nt := l.b, l.nt
	s.tileCount.FillRange(0, 2*nt, 0)
	s.counter.FillRange(0, counterWords, 0)
	s.counter.FillRange(8, 2, 1) // the indirect dispatch's y and z
	s.counter.FillRange(l.boxWords, 2, 0)
	s.counter.FillRange(l.boxWords+2, 2, 1)
	if l.cull {
		s.setupPass(l, s.cull, b.n, recs, capacity)
		kept := scan.MarkedIndices(sc, s.list.Slice(l.keptAt, b.n), s.list.Slice(l.marks, b.n))
		outside = b.n - kept // the triangles the culling pass left out
		s.culledOut = outside
		s.setupPass(l, s.culled[l.k], kept, recs, capacity)
	} else {
		s.setupPass(l, s.setup[l.k], b.n, recs, capacity)
	}
	s.setupPass(l, s.boxes, 0, recs, capacity)
	s.listFilled(l)
	v = make([]uint32, counterWords)
	s.counter.Read(0, v)
	if v[5] > 0 {
		s.setupPass(l, s.clip[l.k], int(v[5]), recs, capacity)
		s.counter.FillRange(6, 2, 0)
		s.counter.FillRange(10, 1, 0)
		s.listFilled(l)
		s.counter.Read(0, v)
	}
	return v, outside + int(v[1])
}

// setupPass dispatches p, one of tilesetup.comp's passes, over n
// triangles (the box pass: as many groups as the setup pass counted).
func (s *tiledStage) setupPass(l tileSetupLayout, p *gpu.Program, n int, recs *shadeRecords, capacity int) {
	b := l.b
	s.c.Do(func() {
		gx, gy := raster.Guard(b.width, b.height)
		s.c.BindStorage(bindingPositions, b.pos)
		if s.texels {
			s.c.BindTexels(unitPositions, s.posTexels, b.pos, gpu.TexelRGBA32F)
		}
		s.c.BindStorage(bindingTileCount, s.tileCount.Slice(0, 2*l.nt))
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
		p.SetInt("tilesX", int32(l.tx))
		p.SetUint("numTiles", uint32(l.nt))
		p.SetUint("capacity", uint32(capacity))
		p.SetUint("binCap", uint32(l.binCap))
		p.SetUint("listBase", uint32(b.n))
		p.SetUint("boxWords", uint32(l.boxWords))
		if p == s.cull {
			p.SetUint("cullBase", uint32(l.marks))
		} else if p == s.culled[l.k] {
			p.SetUint("cullBase", uint32(l.keptAt))
		}
		if p == s.boxes {
			s.c.Barrier(gpu.BarrierCommand)
			p.DispatchIndirect(s.counter, 4*(l.boxWords+1))
		} else {
			p.DispatchInvocations(n)
		}
		s.c.Barrier(s.recordsBarrier())
	})
}

// listFilled lists the tiles that hold a triangle, and says whether a bin
// overflowed, from the counts (tilelist.comp): after the setup pass, and
// again after the clipping pass where there is one.
func (s *tiledStage) listFilled(l tileSetupLayout) {
	s.c.Do(func() {
		s.c.BindStorage(bindingTileCount, s.tileCount.Slice(0, 2*l.nt))
		s.c.BindStorage(bindingTileCounter, s.counter)
		s.listing.SetUint("numTiles", uint32(l.nt))
		s.listing.SetUint("binCap", uint32(l.binCap))
		s.listing.DispatchInvocations(l.nt)
		s.c.Barrier(gpu.BarrierStorage)
	})
}

// keepCounts keeps what the tile kernel and the next frames need from a
// batch's counter head v and its records: whether the bins hold the
// lists, the tiles that hold a triangle, whether a tile holds a large
// one, and the bins' capacity for the next frames (room for this one's
// busiest tile).
func (s *tiledStage) keepCounts(l tileSetupLayout, v []uint32, records int) {
	s.binned = l.binCap > 0 && v[6] == 0
	s.filled = int(v[7])
	s.large = v[10] > 0
	s.lastSetUp, s.lastShaded = records, s.filled*TileSize*TileSize
	if need := int(v[6]); need > l.binCap {
		c := s.binCap
		for c < need && l.nt*c*2 <= s.maxBins {
			c *= 2
		}
		s.binCap = c
	}
}
