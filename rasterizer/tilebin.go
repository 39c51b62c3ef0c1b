package rasterizer

import (
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan"
)

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
