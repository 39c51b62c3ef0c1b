// The renderer's storage layout, shared by all its kernels: one binding
// point per buffer, the same in every kernel that touches it, and the
// records that pass between stages. Go mirror: rasterizer/layout.go, whose
// tests check the numbers against this file and, through the driver's
// reflection, the records' sizes and offsets.

// The balancer's processor arrays (shaders/balancer/loop.glsl declares
// them at these bindings; prepare.comp fills them).
#define BINDING_WORKLOAD 0
#define BINDING_PARALLEL_INDEX 1
#define BINDING_PROBLEM 2
// Between the stages.
#define BINDING_TRIS 3       // set-up triangles (Tri, raster.glsl)
#define BINDING_SPANS 4      // spans (Span)
// Per set-up triangle the element of tris that holds it (setup.comp's
// emitting pass, read when the scan-conversion loop's problems are made),
// at the spans' binding point: the spans are made after that.
#define BINDING_TRI_SLOTS BINDING_SPANS
#define BINDING_VISIBILITY 5 // per pixel: the depth, or the packed 64-bit word
#define BINDING_PRIMS 6      // per pixel: the primitive id
#define BINDING_WINNER 7     // per pixel: the emulated 64-bit path's winner
#define BINDING_ROWS 8       // per set-up triangle: its rows (workload)
#define BINDING_SPAN_BASE 9  // per set-up triangle: its first span
#define BINDING_POSITIONS 10 // the mesh's vertices (mesh.GPU)
#define BINDING_NORMALS 11   // the mesh's vertex normals
#define BINDING_SETUP_COUNTS 12 // per input triangle: set-up triangles, then their offset
#define BINDING_SETUP_STATS 13  // outside, clipped, non-finite, zero-area
#define BINDING_IMAGE 14     // per pixel: RGBA8
// (binding 15 is the balancer's strategies', balancer.BindingStrategy)
// The tiled path's (tiled.go), which also writes VISIBILITY and PRIMS and
// reads POSITIONS.
#define BINDING_TILE_COUNT 16   // per tile: its triangles, then the lists' cursor
#define BINDING_TILE_START 17   // per tile: exclusive scan of the counts
#define BINDING_TILE_LIST 18    // the records' indices grouped by tile
#define BINDING_TILE_PREPS 19   // per set-up triangle: its record (Prep)
#define BINDING_TILE_COUNTER 20 // records made, then the skip statistics
// The loops' 32-bit visibility (zbuffer.comp KEYS): each span's first
// test, then the tests' keys.
#define BINDING_Z_KEYS 21
#define BINDING_TILE_BINS 22    // the tiled path's: per tile a bin of binCap records' indices
#define BINDING_SHADE_RECORDS 23 // per primitive id: its shading record (shaderecord.glsl)

// Texture units (samplers' bindings): the tiled path reads the mesh's
// vertices and normals (tilesetup.comp; shade.glsl's SHADE_TEXELS) and its
// records (tile.comp) as buffer textures.
#define UNIT_POSITIONS 0
#define UNIT_NORMALS 1
#define UNIT_TILE_PREPS 2
#define UNIT_SPANS 3 // the z-buffer loop's spans (zbuffer.comp TEXELS)
#define UNIT_TRIS 4  // the loops' set-up triangles, four texels each
#define UNIT_SHADE_RECORDS 5 // the shading records, three texels each (shade.glsl)

// Span is one row of a set-up triangle: the scan-conversion loop's output
// (one per task) and the z-buffer loop's problem data. x1 < x0 when the row
// covers no pixel. Go mirror: rasterizer.span.
struct Span {
    int y;
    int x0;
    int x1;
    int tri; // index into tris
};

// ScanProblem is the scan-conversion loop's problem data. Go mirror:
// rasterizer.scanProblem.
struct ScanProblem {
    uint tri;      // index into tris
    uint spanBase; // the triangle's first span: exclusive scan of the rows
};

// The kernels declare the span and scan-problem buffers as ivec4 (y, x0,
// x1, tri) and uvec2 (tri, spanBase) arrays, the same words as Span and
// ScanProblem: llvmpipe accesses a buffer a lane at a time, a vector for
// about the price of one word, so a record's fields would cost one access
// each.
Span spanOf(ivec4 v) { return Span(v.x, v.y, v.z, v.w); }
ivec4 spanWords(Span s) { return ivec4(s.y, s.x0, s.x1, s.tri); }
