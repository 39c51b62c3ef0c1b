// Package rasterizer is the data-parallel polygon renderer of Ortega, Hansen
// and Ahrens ("Fast data parallel polygon rendering", 1993), the application
// of Ahrens & Hansen's cost-effective load balancing, on compute shaders.
//
// The data's path:
//
//	volume ──(isosurface: marching cubes | decimation)──▶ triangles (mesh.GPU)
//	triangles ──(transform, clip, set up: setup.comp)──▶ set-up triangles, rows each
//	set-up triangles ──(scan-conversion loop: scanconv.comp)──▶ spans
//	spans ──(z-buffer loop: zbuffer.comp)──▶ visibility (depth, primitive id per pixel)
//	visibility ──(resolve.comp)──▶ shaded RGBA image
//
// Each arrow is a stage of a frame, a Stage constant and a file named for
// its kernel: setup.go (StageTransformClip, StageSetup), scanconv.go
// (StageScanPrepare, StageScanLoop), zbuffer.go (StageZPrepare,
// StageZLoop, StageMerge, StageIDPass), resolve.go (StageExtract,
// StageResolve), with prepare.go's small kernels between them; the tiled
// path's are tilesetup.go, tilebin.go and tiledraw.go (StageTileSetup,
// StageTileLists, StageTiles). Each stage takes its inputs and returns its
// outputs explicitly (setupInput and setupOutput, zOutput, resolveInput,
// tiledInput and tiledOutput); frame.go orders them into Render, and
// FrameStats.Stages gives each one's GPU time. layout.go holds what the stages pass each other: the binding
// points (one per buffer, shared with the GLSL through
// shaders/rasterizer/layout.glsl) and the Go twins of the GLSL records.
//
// The two loops are balancer loops (package balancer): each runs as the
// paper's original loop (Figure 1, balancer.Never) or its load-balanced loop
// (Figure 2) under any policy, with any number of Lanes. In the
// scan-conversion loop a processor's problem data is a set-up triangle and a
// task is one scanline it covers; in the z-buffer loop the problem data is a
// span and a task is one pixel.
//
// # Exactness and determinism
//
// Coverage and depth follow package raster's integer rules (1/256-pixel
// vertices, the fill rule, 24-bit depth interpolated in integers),
// and shaders/rasterizer/raster.glsl mirrors them line for line, so the GPU
// image equals raster.Rasterize's bit for bit, given the same snapped
// vertices. The float transform before snapping is written in one order on
// both sides; only a GPU division that is not correctly rounded can move a
// vertex by 1/256 pixel (see raster's clip.go).
//
// Every span is written at its triangle's own place, whichever processor
// produced it, and the visibility buffer keeps the nearest surface with ties
// to the lowest primitive id whatever the order of the depth tests (a 64-bit
// atomicMin where the driver has 64-bit atomics; otherwise, in 32-bit
// atomics, a depth filter and the key (depth, primitive id) of each test
// that passes it swapped into the pixel's winner by compare-and-swap,
// merged after the batch (the last batch's by the resolve pass as it
// shades), with two passes of the z-buffer loop as the
// fallback for a batch whose keys outgrow a storage block; tests on
// drivers without 64-bit atomics also run the 64-bit path on a lock-free
// stand-in, zbuffer.comp's VIS64_EMULATE). So the image is the same under
// every policy and Lanes value, run after run.
//
// # The tiled path
//
// Options.Tiled draws the same image, bit for bit, without the loops: one
// pass transforms, clips and sets up the triangles (setup.comp's
// arithmetic) and appends each to the bins of the TileSize x TileSize
// screen tiles its edges reach (where a bin overflows, a scan of the
// counts and a second pass make the tiles' lists, a counting sort by
// tile), and one work group a tile rasterizes its list a chunk at a
// time into 32-bit keys in shared memory (depth above, the triangle's rank
// by primitive id below, one atomicMin), each pixel's owner keeping the
// least (depth, id) over the chunks; a frame of one batch is shaded by the
// same work groups as they finish (shade.glsl, the resolve pass's code), so
// it needs no clearing or resolve pass. A tile's large triangles (128
// pixels of area or more, listed apart) are drawn before its chunks, each
// row's owner testing its row's pixels against one triangle at a time:
// a triangle that covers most of a tile would otherwise hold a chunk's
// vector of lanes for every pixel it covers. A chunk skips the triangles whose
// nearest vertex lies beyond the tile's farthest pixel so far, and a list
// whose last triangle is nearer than its first is taken from its end; the
// kernels read the vertices, normals and records as buffer textures where
// the driver allows (gpu.TexelBuffer). Coverage is the same edge test and
// depth the same integers as the loops', and a minimum does not depend on
// the order it is taken in, so neither the lists' order nor the batches
// change a pixel (TestTiledMatchesPaperRenderer); it needs no 64-bit
// atomics and no id pass. It is the fastest configuration (bench render
// prints it beside the GL pipeline) and the viewer's default; the loops
// remain the paper's experiment.
//
// # Meshes larger than a storage block
//
// A mesh.GPU larger than one storage block is a chain of blocks, and the
// renderer's own per-triangle and per-span buffers have the same bound (64
// bytes a set-up triangle, 16 a span: 2 and 8 million in llvmpipe's 128
// MiB). Render therefore takes the triangles in batches whose set-up
// triangles and spans fit, each through setup and both loops into the same
// visibility buffer, with global primitive ids; by the rule above the
// order of the batches cannot change a pixel, and the image is the
// unbatched one bit for bit (TestRenderBatches). A mesh that fits is one
// batch, so the loops' iterations and balancing are the paper's; with more
// batches FrameStats adds their runs. The image's own buffers (8 bytes a
// pixel for the 64-bit path) are checked when the Renderer is made.
//
// # Coordinates and shading
//
// Positions are float32 on the GPU, but the camera is built in float64
// (package view) and normals are computed in float64 (package mesh), so a
// surface with coordinates of 1e30 or 1e-20 renders as the same surface at
// unit size does; mesh.Mesh.Normalize brings a loaded mesh into the unit box
// and records the frame it came from. A frame that nothing could be drawn
// in for want of finite numbers (a camera matrix with NaN, a mesh of
// non-finite triangles) is an error, not a blank image.
//
// Material.Shading chooses the normal: Smooth interpolates the vertex
// normals, Flat lights each triangle by its face normal (a cube shows its
// faces). The light sits at the eye; under an orthographic projection it
// shines along the viewing rays. The setup passes store, for each triangle
// they set up, a 3x3 matrix that gives its normal at any pixel (a shading
// record, shaders/rasterizer/shaderecord.glsl), and the shading of a pixel
// reads its winner's: a matrix product a pixel instead of the triangle's
// transform and interpolation (the resolve pass took 40% less time on the
// paper's balanced set). A mesh whose records would not fit a storage
// block, and Resolve's words, are shaded from the vertices by the same
// operations: the same bits.
//
// Triangles outside the view volume keep workload 0 (idle processors, as in
// the paper); triangles crossing the near or far plane or the guard band are
// clipped, not dropped; triangles with NaN or infinite coordinates and
// triangles of zero area are skipped and counted in FrameStats.Setup.
//
// # Tuning
//
// Which path and kernel variant a frame takes on this driver (buffer
// textures or storage blocks, the tile kernel's barriers, the tiled
// setup's culling pass, the listed tiles, the shading records) is decided
// in tuning.go, each choice a named policy with its reason, from gpu.Caps
// and the last frame's counts; TUNING.md keeps what was measured. No
// choice changes a pixel. The renderer's own scans (offsets of counts,
// the culling pass's marks) take the caller's scan.Scanner's small-input
// path (scan.Offsets, scan.MarkedIndices).
//
// # Costs
//
// The cost-driven policies compare what balancing saves with its cost in
// iterations of each loop's solution phase. DefaultOptions starts from the
// paper's CM-5 costs (PaperCosts); Calibrate measures this GPU's on
// warmed-up frames of the caller's scenes, Costs.Save and LoadCosts keep
// them in a balancer.Calibration file (where `bench calibrate` saves
// them), and Costs.Apply puts them in Options.
//
// HardwareRenderer draws the same triangles with the GPU's own pipeline
// (vertex and fragment shaders, depth test), writing primitive ids: the
// reference for visibility and the baseline for speed.
//
// Visibility reads a frame's visibility words (depth above, primitive id
// below) and Resolve shades given words: frames of parts of a mesh, their
// ids made global, composite by an elementwise minimum into the frame of
// the whole, bit for bit (package distributed does it across MPI ranks).
//
// Subpackages: raster (the exact rules and the CPU reference renderer),
// mesh (triangle meshes, GPU layout, PLY), volume (grids, built-in fields,
// NIfTI-1), isosurface (marching cubes on CPU and GPU, quadric-error
// decimation), dataset (balanced and unbalanced polygon sets of one surface),
// view (the paper's four views), workload (the paper's Table 1),
// distributed (sort-last rendering across processes).
package rasterizer
