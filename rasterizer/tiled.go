package rasterizer

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer/mesh"
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
