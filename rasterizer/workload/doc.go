// Package workload measures the paper's Table-1 statistics of a polygon set
// at a view: how much work each triangle brings to the renderer's two
// data-parallel loops,
//
//	triangles → scan conversion (a task per scanline) → spans → z-buffer (a task per pixel)
//
// and so how unbalanced the loops are: the maximum over the average is the
// factor by which a loop that gives every processor one triangle (or one
// span) and waits for the slowest takes longer than a balanced one.
//
// The rules follow the renderer's (package raster) in floating point:
//
//   - each triangle is transformed by the MVP matrix and clipped against the
//     near and far planes; a triangle wholly outside the view volume, or of
//     zero area on screen, has workload 0 (an idle processor);
//   - window coordinates put row 0 at the bottom; row y's centre is y+0.5;
//     they are snapped to 1/raster.One pixel, the renderer's precision;
//   - a triangle's scanlines are the rows whose centres lie within its
//     (clipped) y range, clamped to the image;
//   - each scanline is one span: the pixels of that row whose centres lie
//     within the triangle's x range at the row's centre, clamped to the
//     image (possibly none).
//
// The scanline counts are the renderer's, except where its float32
// transform rounds a vertex to the other side of a 1/512-pixel boundary or
// it clips a triangle against its guard band (and counts the pieces'
// rows). Spans here hold the pixel centres on both of a triangle's edges,
// where the renderer's fill rule gives a shared edge's centres to
// one triangle only, so pixel counts run about 1% higher.
//
// Measure gives the Stats of a triangle soup at one camera (the columns of
// Table 1: maximum and average scanlines per triangle, pixels per span,
// and their ratios); Workloads gives the two loops' workload arrays
// themselves, as package balancer takes them; Each walks the triangles
// with both counts, for callers that want other statistics. All are plain
// Go in float64, on the CPU, and deterministic: the same soup, matrix and
// image size give the same counts on every run. Positions must come in
// threes and the image must have a positive size, or they panic.
package workload
