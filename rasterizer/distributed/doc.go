// Package distributed is sort-last rendering across processes: each rank
// draws its share of the data into its own visibility buffer, and the
// shares are composited by an elementwise minimum of the visibility words.
//
//	volume → [brick per rank] → isosurface → triangles → … → visibility ─┐
//	                                                     MIN reduce-scatter, gather → resolve at rank 0
//
// # Shares
//
// A rank's share is a range of units cut into pieces (Pieces) that it
// renders one at a time:
//
//   - triangles of a mesh: the id of a share's triangle is its index in
//     the mesh;
//   - cell layers of a volume (bricks): a rank holds the sample layers of
//     its cells and one beyond each face (isosurface.SlabSamples: the
//     overlap the normals' central differences read) and nothing more of
//     the volume: Samples.Brick samples them (FieldSamples) or reads them
//     from the file (NIfTISamples: the stream read through, only the slab
//     kept; resampled from the source layers the filter's footprint
//     covers), bit for bit isosurface.Slab of the whole volume. It
//     extracts their surface itself
//     (ExtractBrick) and renders it. Marching cubes orders triangles by
//     cell, x fastest, then y, then z, so a z-slab's triangles are one
//     contiguous run of the whole surface's; LayerOffsets, an exclusive
//     scan of the layers' triangle counts in global cell order, gives each
//     layer's first global id. The bricks' triangles are the whole
//     volume's, bit for bit, with the whole volume's ids: no seams.
//
// # Compositing
//
// A visibility word (rasterizer.Renderer.Visibility) holds a pixel's depth
// above its primitive id, so the nearest surface, ties to the lowest id,
// is the smallest word. Once every rank's ids are made global (Globalize:
// offset by the piece's first triangle), the minimum over the ranks' words
// is the word a single renderer of the whole mesh writes, bit for bit,
// whatever the partition and whichever rank rendered which piece.
// Composite does it as the issue asks: a reduce-scatter with MIN (each of
// N ranks composites 1/N of the image), then a gather of the composited
// blocks at the root, which resolves (rasterizer.Renderer.Resolve) the
// image from the whole mesh. CompositeAll allgathers the blocks instead,
// and ResolveShare lets each rank shade the pixels its own pieces won,
// leaving the others 0; a bitwise OR (Comm.ReduceOr) joins them into the
// same image, bit for bit, without any rank holding another's triangles.
//
// The ranks talk through Comm: MPI in package cluster (build tag mpi),
// Local (goroutines of one process) in the tests and examples.
//
// # A frame in a few calls
//
// Scene is one rank's side of it all, frame after frame: NewScene takes a
// Source (Triangles of a mesh every rank holds, or NewBricks of a volume
// no rank holds whole) and uploads the rank's share in pieces; Frame
// renders them at a camera, composites the ranks' shares, and moves the
// boundaries as the SceneOptions' Policy decides; Visibility (and, with
// ResolveAtRanks, Pixels) is the composite at rank 0; Compare checks it
// against one renderer's frame. A rank's failure is every rank's error
// (Agree), so that the ranks never wait on one that gave up. bench
// distributed is a client of Scene and cluster.
//
// # Balancing
//
//   - Static keeps the first, equal partition;
//   - LeftRightHandoff balances within each frame, between neighbours
//     only, with no central control (Handoff): ranks race in pairs,
//     alternating left and right partners from frame to frame; the first
//     to render the checkpoint fraction of its pieces signals its partner,
//     which, if it is still short of its own checkpoint, hands it whole
//     pieces from the end nearest it. The moved boundary stays for the
//     next frames, so work diffuses from busy ranks to idle ones;
//   - CostEffective is the paper's decision made globally between frames
//     from every rank's time (an allgather; Balancer): repartition all
//     boundaries so that the predicted times are equal, but only when the
//     predicted saving (the slowest rank's time less the mean) exceeds the
//     cost of moving the units. A unit's predicted cost is its rank's
//     measured time over its share.
package distributed
