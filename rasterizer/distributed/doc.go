// Package distributed is sort-last rendering across processes: each rank
// draws a share of a mesh's triangles into its own visibility buffer, and
// the shares are composited by an elementwise minimum of the visibility
// words.
//
// A visibility word (rasterizer.Renderer.Visibility) holds a pixel's depth
// above its primitive id, so the nearest surface, ties to the lowest id,
// is the smallest word. Once every rank's ids are made global (Globalize:
// offset by the share's first triangle), the minimum over the ranks'
// words is the word a single renderer of the whole mesh writes, bit for
// bit, whatever the partition. Composite does it as the issue asks: a
// reduce-scatter with MIN (each of N ranks composites 1/N of the image),
// then a gather of the composited blocks at the root, which resolves
// (rasterizer.Renderer.Resolve) the image.
//
// The ranks talk through Comm: MPI in bench distributed (package
// internal/mpi, build tag mpi), Local (goroutines of one process) in the
// tests.
//
// Balancing between ranks moves the boundaries of the triangle shares
// after each frame, from the ranks' measured times (every rank computes
// the same boundaries from the same allgathered times, so no rank decides
// for the others):
//
//   - Static keeps the first, equal partition;
//   - LeftRightHandoff pairs neighbouring ranks, left and right partners in
//     alternate rounds; in each pair the slower rank hands off a slab of
//     triangles from the end nearest its partner, at most the part of its
//     share it would not have reached by the checkpoint fraction;
//   - CostEffective is the paper's decision made globally: repartition
//     all boundaries so that the predicted times are equal, but only when
//     the predicted saving (the slowest rank's time less the mean) exceeds
//     the cost of moving the triangles.
//
// Either way a triangle's predicted cost is its rank's measured time over
// its share (the cost is uniform within a share, as the rank measured
// it).
package distributed
