// Package isosurface extracts triangle meshes from volumes: the stage that
// makes the renderer's polygon datasets,
//
//	volume → isosurface → triangles → scan conversion → spans → z-buffer → image
//	         ^^^^^^^^^^
//
// Two algorithms give two very different polygon sets of the same surface,
// as the paper's two isosurface algorithms did (its Table 1):
//
//   - Marching cubes (MarchingCubes on the CPU, Extractor on the GPU): one
//     to five triangles per grid cell, all about the cell's size — the
//     balanced set. The GPU version classifies cells (triangles per cell),
//     turns the counts into output offsets with an exclusive scan (package
//     scan), and generates the triangles straight into a mesh.GPU the
//     renderer reads; the CPU version is its reference, triangle for
//     triangle.
//   - Quadric-error decimation of the marching-cubes mesh (Decimate,
//     Garland and Heckbert 1997): collapses edges while the surface moves
//     less than a tolerance, so flat and gently curved regions end up as a
//     few long triangles while curved detail keeps small ones — the
//     unbalanced set. Simplify is the same kind of decimation through
//     meshoptimizer in a build with -tags meshopt (several times faster,
//     a different set), and Decimate otherwise; the paper's sets keep
//     Decimate, whose output, and so the paper's images, is fixed.
//
// Extract, the CPU extraction for programs, runs marching cubes on every
// CPU: each sample layer is classified once into bit rows, so that a row's
// cells that the surface crosses come out 64 at a time, and slabs of cell
// layers are extracted on goroutines and stitched into MarchingCubes' mesh
// exactly, vertex for vertex and face for face (the slab's vertices on its
// bottom layer are the slab below's). ExtractOnGPU says which extraction
// is faster on a driver: on a software renderer the CPU's. TUNING.md has
// the measurements, beside VTK's flying edges and meshoptimizer (bench
// peers).
//
// Surfaces separate samples above the isovalue (inside) from the rest.
// Triangles are wound counter-clockwise seen from outside, and normals,
// from the field's gradient, point outside. Marching cubes decides each
// cell face from that face's corners alone (separating inside corners on
// ambiguous faces), so neighbouring cells agree and the surface has no
// cracks: a surface inside the grid is closed and watertight.
//
// A cell with a corner that is NaN or ±Inf (volume.Finite: float volumes
// mark a mask's outside so) makes no triangles, on the GPU as on the CPU;
// Stats (Extract's, Extractor.Stats) counts those cells. Extract, the
// CPU entry point for programs, returns errors for what MarchingCubes, the
// reference, takes as given: an isovalue that is not finite, a volume with
// no finite sample, a surface beyond volume.MemoryLimit (checked as it
// grows, at BytesPerTriangle a triangle).
package isosurface
