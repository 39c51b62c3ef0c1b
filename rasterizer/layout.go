package rasterizer

import "github.com/dpgl/dpgl/rasterizer/raster"

// The renderer's storage layout: the Go side of
// shaders/rasterizer/layout.glsl. Every buffer has one binding point, the
// same in every kernel that reads or writes it (TestBindingsMatchGLSL
// checks the numbers against the GLSL, TestBindingsMatchDriver the
// driver's reflection of every kernel), and every record that passes
// between stages has a Go twin whose size and field offsets
// TestRecordsMatchDriver compares with the driver's std430 layout.
const (
	// The balancer's processor arrays, where shaders/balancer/loop.glsl
	// reads them; prepare.comp fills them.
	bindingWorkload      = 0
	bindingParallelIndex = 1
	bindingProblem       = 2
	bindingTris          = 3  // set-up triangles (gpuTri)
	bindingSpans         = 4  // spans (span)
	bindingTriSlots      = 4  // per set-up triangle the element of tris that holds it, before the spans exist
	bindingVisibility    = 5  // per pixel: the depth, or the packed 64-bit word
	bindingPrims         = 6  // per pixel: the primitive id
	bindingWinner        = 7  // per pixel: the emulated 64-bit path's winner
	bindingRows          = 8  // per set-up triangle: its rows
	bindingSpanBase      = 9  // per set-up triangle: its first span
	bindingPositions     = 10 // the mesh's vertices
	bindingNormals       = 11 // the mesh's vertex normals
	bindingSetupCounts   = 12 // per input triangle: set-up triangles, then their offset
	bindingSetupStats    = 13 // outside, clipped, non-finite, zero-area
	bindingImage         = 14 // per pixel: RGBA8
	// 15 is the balancer's strategies' (balancer.BindingStrategy).
	bindingTileCount   = 16 // tiled path: per tile its triangles, then the lists' cursor
	bindingTileStart   = 17 // tiled path: per tile the exclusive scan of the counts
	bindingTileList    = 18 // tiled path: the records' indices grouped by tile
	bindingTilePreps   = 19 // tiled path: per set-up triangle its record
	bindingTileCounter = 20 // tiled path: records made, then the skip statistics
	bindingZKeys       = 21 // 32-bit visibility: each span's first test, then the tests' keys
	bindingTileBins    = 22 // tiled path: per tile a bin of records' indices
	bindingShadeRecs   = 23 // per primitive id: its shading record (shaderecord.glsl)

	// numBindings is how many binding points the renderer needs: the
	// driver must offer that many (GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS).
	numBindings = 24

	// Texture units: the tiled path reads the mesh's vertices and normals
	// (tilesetup.comp; shade.glsl's SHADE_TEXELS) and its records
	// (tile.comp) as buffer textures.
	unitPositions = 0
	unitNormals   = 1
	unitTilePreps = 2
	unitSpans     = 3 // the z-buffer loop's spans (zbuffer.comp TEXELS)
	unitTris      = 4 // the loops' set-up triangles, four texels each
	unitShadeRecs = 5 // the shading records, three texels each
)

// gpuTri mirrors struct Tri of shaders/rasterizer/raster.glsl (std430,
// 64 bytes): a set-up triangle as raster.Triangle holds it. The GLSL packs
// it into four vectors: v01 = (X0, Y0, X1, Y1), v2a = (X2, Y2, AreaLo,
// AreaHi), z = (Z0, Z1, Z2, Prim), rows = (YLo, YHi, Flipped, _).
type gpuTri struct {
	X0, Y0, X1, Y1 int32
	X2, Y2         int32
	AreaLo, AreaHi uint32 // twice the area, an int64 in two words
	Z0, Z1, Z2     uint32
	Prim           uint32
	YLo, YHi       int32
	Flipped        int32
	_              int32
}

func (g gpuTri) triangle() raster.Triangle {
	return raster.Triangle{
		V:       [3]raster.Vertex{{X: g.X0, Y: g.Y0, Z: g.Z0}, {X: g.X1, Y: g.Y1, Z: g.Z1}, {X: g.X2, Y: g.Y2, Z: g.Z2}},
		Area2:   int64(uint64(g.AreaHi)<<32 | uint64(g.AreaLo)),
		YLo:     g.YLo,
		YHi:     g.YHi,
		Flipped: g.Flipped != 0,
		Prim:    g.Prim,
	}
}

// span mirrors struct Span of shaders/rasterizer/layout.glsl (16 bytes):
// row Y of set-up triangle Tri covers pixels X0..X1 (none when X1 < X0).
// The scan-conversion loop writes one per task; each is a processor of the
// z-buffer loop.
type span struct {
	Y, X0, X1 int32
	Tri       int32 // index into the set-up triangles
}

// scanProblem mirrors struct ScanProblem of shaders/rasterizer/layout.glsl:
// the scan-conversion loop's problem record.
type scanProblem struct {
	Tri      uint32 // set-up triangle
	SpanBase uint32 // its first span
}
