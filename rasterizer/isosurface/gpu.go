package isosurface

import (
	"fmt"
	"math"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/volume"
	"github.com/dpgl/dpgl/scan"
)

// Tables returns the case table as the GPU kernels read it
// (shaders/isosurface/mc.glsl): 256 triangle counts, then for each case 15
// edge slots, three per triangle, unused ones 0.
func Tables() []uint32 {
	t := make([]uint32, 256+256*3*maxCaseTriangles)
	for c := 0; c < 256; c++ {
		t[c] = uint32(len(caseTriangles[c]) / 3)
		for j, e := range caseTriangles[c] {
			t[256+3*maxCaseTriangles*c+j] = uint32(e)
		}
	}
	return t
}

// wgSize is the work-group size of the kernels.
const wgSize = 256

// Run is the number of cells along x that one invocation of the classify
// and scatter passes handles.
const Run = 4

// runGrid is the number of runs per row of cells and in all.
func runGrid(dims [3]int) (perRow, runs int) {
	perRow = (dims[0] - 1 + Run - 1) / Run
	return perRow, perRow * (dims[1] - 1) * (dims[2] - 1)
}

// Extractor is marching cubes on the GPU, in four data-parallel steps
// (shaders/isosurface/):
//
//  1. classify: counts[j] = the triangles of run j, one invocation per run
//     of Run cells along x (neighbouring cells share samples, and the scan
//     gets Run times shorter);
//  2. scan.ExclusiveScan of counts, in place: offsets[j] = where run j's
//     triangles go; offsets[runs] = the total;
//  3. scatter: each run writes a record (cell, case, triangle) for each of
//     its triangles from its offset on;
//  4. generate: one invocation per triangle writes its vertices, positions
//     interpolated on the cell's edges and normals from the field's
//     gradient, into a mesh.GPU.
//
// Steps 3 and 4 are split so that the vertex arithmetic runs with every
// lane busy: most cells are empty, and a cell-per-lane generate would leave
// most lanes idle. The output is the same as MarchingCubes', triangle for
// triangle in the same order, to rounding; cells with a corner that is NaN or
// ±Inf make no triangles, and Stats counts them. An Extractor keeps its programs
// and scratch buffers between calls (they grow to the largest volume seen:
// 4 bytes a run and 8 a triangle); it is not safe for concurrent use.
type Extractor struct {
	c        *gpu.Context
	s        *scan.Scanner
	ownScan  bool
	classify *gpu.Program
	scatter  *gpu.Program
	generate *gpu.Program
	table    *gpu.Buffer[uint32]
	counts   *gpu.Buffer[uint32]    // runs+1 used: counts, then offsets
	records  *gpu.Buffer[[2]uint32] // per output triangle: cell, case | triangle<<8
	skipped  *gpu.Buffer[uint32]    // cells of the last Dispatch with a corner not finite
	runs     int                    // of the last Dispatch
	cells    int                    // of the last Dispatch
}

// NewExtractor builds the kernels. s may be nil, in which case the
// Extractor makes (and deletes) its own scanner.
func NewExtractor(c *gpu.Context, s *scan.Scanner) (*Extractor, error) {
	e := &Extractor{c: c, s: s}
	var err error
	defs := map[string]string{"WG_SIZE": fmt.Sprint(wgSize), "RUN": fmt.Sprint(Run)}
	if e.classify, err = c.Program("isosurface/classify.comp", defs); err != nil {
		return nil, err
	}
	if e.scatter, err = c.Program("isosurface/scatter.comp", defs); err != nil {
		return nil, err
	}
	if e.generate, err = c.Program("isosurface/generate.comp", defs); err != nil {
		return nil, err
	}
	if e.s == nil {
		if e.s, err = scan.New(c); err != nil {
			return nil, err
		}
		e.ownScan = true
	}
	if e.table, err = gpu.NewBufferFrom(c, Tables()); err != nil {
		e.Delete()
		return nil, err
	}
	if e.skipped, err = gpu.NewBuffer[uint32](c, 1); err != nil {
		e.Delete()
		return nil, err
	}
	return e, nil
}

// Delete frees the scratch buffers (and the scanner, if the Extractor made
// it). Programs belong to the Context.
func (e *Extractor) Delete() {
	e.table.Delete()
	e.counts.Delete()
	e.records.Delete()
	e.skipped.Delete()
	e.table, e.counts, e.records, e.skipped = nil, nil, nil, nil
	if e.ownScan && e.s != nil {
		e.s.Delete()
		e.s = nil
	}
}

// Extract extracts the isosurface of vol at iso into dst, growing dst's
// buffers when the surface does not fit (dst may be nil: a new mesh.GPU is
// made). It returns dst, with N set, or an error when the surface needs
// more than the driver's largest storage block. The one host read-back is
// the triangle count.
func (e *Extractor) Extract(dst *mesh.GPU, vol *volume.GPU, iso float32) (*mesh.GPU, error) {
	if dst == nil {
		var err error
		if dst, err = mesh.NewGPU(e.c, 0); err != nil {
			return nil, err
		}
	}
	if err := e.Dispatch(dst, vol, iso); err != nil {
		return dst, err
	}
	n := e.Count()
	if n > dst.Cap() {
		// Grow with headroom, so that a sweep of isovalues or volumes does
		// not reallocate every time, then run pass 3 again.
		grown, err := mesh.NewGPU(e.c, min(n+n/4, maxTriangles(e.c)))
		if err != nil || grown.Cap() < n {
			if err == nil {
				grown.Delete()
			}
			return dst, fmt.Errorf("isosurface: Extract: the surface has %d triangles, more than the driver's largest storage block holds (%d): %v",
				n, maxTriangles(e.c), err)
		}
		dst.Delete()
		*dst = *grown
		if err := e.growRecords(dst.Cap()); err != nil {
			return dst, err
		}
		e.c.Do(func() { e.emit(dst, vol, iso) })
	}
	dst.N = n
	// Every vertex lies on a cell edge, inside the grid's box.
	lo := vol.Origin
	hi := lo
	for a := 0; a < 3; a++ {
		hi[a] += float32(max(vol.Dims[a]-1, 0)) * vol.Spacing[a]
	}
	dst.SetBounds(lo, hi)
	return dst, nil
}

func maxTriangles(c *gpu.Context) int {
	return int(min(c.Caps().MaxSSBOSize/48, math.MaxInt32/3))
}

// Dispatch records the three steps for vol at iso, writing at most
// dst.Cap() triangles into dst, and returns without waiting for the GPU;
// Count then reads the number of triangles (which may exceed dst.Cap(); dst.N
// is not changed). Extract wraps both. The outputs are ready for the next
// dispatch (BarrierStorage is issued).
func (e *Extractor) Dispatch(dst *mesh.GPU, vol *volume.GPU, iso float32) error {
	if vol == nil || vol.Data == nil || dst == nil {
		panic("isosurface: Extractor.Dispatch: nil volume or mesh")
	}
	if math.IsNaN(float64(iso)) {
		panic("isosurface: Extractor.Dispatch: iso is NaN")
	}
	cells := vol.Cells()
	if int64(vol.Dims[0])*int64(vol.Dims[1])*int64(vol.Dims[2]) > math.MaxUint32 {
		panic(fmt.Sprintf("isosurface: Extractor.Dispatch: %v samples exceed the kernels' 32-bit indices", vol.Dims))
	}
	runs := 0
	if cells > 0 {
		_, runs = runGrid(vol.Dims)
	}
	e.runs, e.cells = runs, cells
	e.skipped.Fill(0)
	if e.counts == nil || e.counts.Len() < runs+1 {
		e.counts.Delete()
		e.counts = nil
		b, err := gpu.NewBuffer[uint32](e.c, runs+1)
		if err != nil {
			return fmt.Errorf("isosurface: Extractor.Dispatch: %d cells: %w", cells, err)
		}
		e.counts = b
	}
	if cells == 0 {
		e.counts.FillRange(0, 1, 0)
		return nil
	}
	if err := e.growRecords(dst.Cap()); err != nil {
		return err
	}
	counts := e.counts.Slice(0, runs+1)
	e.c.Do(func() {
		e.setGrid(e.classify, vol, iso)
		e.c.BindStorage(0, vol.Data)
		e.c.BindStorage(1, e.table)
		e.c.BindStorage(2, counts)
		e.c.BindStorage(3, e.skipped)
		e.classify.DispatchInvocations(runs + 1)
		e.c.Barrier(gpu.BarrierStorage) // the scan reads counts
	})
	scan.ExclusiveScan[uint32](e.s, counts, counts, scan.Add, 0)
	e.c.Do(func() { e.emit(dst, vol, iso) })
	return nil
}

func (e *Extractor) growRecords(capacity int) error {
	if e.records != nil && e.records.Len() >= capacity {
		return nil
	}
	e.records.Delete()
	e.records = nil
	b, err := gpu.NewBuffer[[2]uint32](e.c, capacity)
	if err != nil {
		return fmt.Errorf("isosurface: Extractor: %d triangle records: %w", capacity, err)
	}
	e.records = b
	return nil
}

// emit dispatches passes 3 and 4 into dst, which holds dst.Cap()
// triangles. It runs on the GL thread.
func (e *Extractor) emit(dst *mesh.GPU, vol *volume.GPU, iso float32) {
	runs, capacity := e.runs, dst.Cap()
	if capacity == 0 {
		return
	}
	offsets := e.counts.Slice(0, runs+1)
	e.setGrid(e.scatter, vol, iso)
	e.scatter.SetUint("capacity", uint32(capacity))
	e.c.BindStorage(0, vol.Data)
	e.c.BindStorage(1, e.table)
	e.c.BindStorage(2, offsets)
	e.c.BindStorage(3, e.records)
	e.scatter.DispatchInvocations(runs)
	e.c.Barrier(gpu.BarrierStorage) // generate reads the records

	// One invocation per triangle slot; those past the total return. The
	// total stays on the GPU: dispatching for the capacity avoids a
	// read-back here.
	e.setGrid(e.generate, vol, iso)
	e.generate.SetUint("capacity", uint32(capacity))
	e.c.BindStorage(3, e.records)
	e.c.BindStorage(4, dst.Positions)
	e.c.BindStorage(5, dst.Normals)
	e.generate.DispatchInvocations(capacity)
	e.c.Barrier(gpu.BarrierStorage) // consumers read the soup as storage
}

func (e *Extractor) setGrid(p *gpu.Program, vol *volume.GPU, iso float32) {
	p.SetUvec3("dims", uint32(vol.Dims[0]), uint32(vol.Dims[1]), uint32(vol.Dims[2]))
	p.SetVec3("spacing", vol.Spacing[0], vol.Spacing[1], vol.Spacing[2])
	p.SetVec3("origin", vol.Origin[0], vol.Origin[1], vol.Origin[2])
	p.SetFloat("iso", iso)
	perRow, runs := runGrid(vol.Dims)
	p.SetUint("cells", uint32(vol.Cells()))
	p.SetUint("runs", uint32(runs))
	p.SetUint("runsPerRow", uint32(perRow))
}

// Stats are the last Dispatch's cells, cells skipped for a corner that is
// NaN or ±Inf, and triangles (as Count). They wait for the GPU.
func (e *Extractor) Stats() Stats {
	st := Stats{Cells: e.cells, Triangles: e.Count()}
	if e.skipped != nil {
		st.NonFinite = int(e.skipped.Get(0))
	}
	return st
}

// Count is the number of triangles of the last Dispatch. It waits for the
// GPU.
func (e *Extractor) Count() int {
	if e.counts == nil {
		return 0
	}
	return int(e.counts.Get(e.runs))
}
