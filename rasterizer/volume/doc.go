// Package volume holds the scalar fields that the renderer's polygon
// datasets are extracted from: the first stage of
//
//	volume → isosurface → triangles → scan conversion → spans → z-buffer → image
//
// A Volume is a field sampled on a regular grid (dimensions, spacing,
// origin; x varies fastest). Volumes come from two places:
//
//   - Built-in fields, evaluated at any resolution with Field.Sample and
//     needing no files: PerforatorJet (the default: a synthetic shaped-charge
//     perforator, in the spirit of the paper's oil-well perforator
//     simulation), MarschnerLobb, Sphere, Torus and Gyroid. Each field is
//     positive inside its object and names the isovalue of its surface.
//   - NIfTI-1 files (.nii, .nii.gz) read by ReadNIfTI / LoadNIfTI: uint8,
//     int8, int16, uint16, int32, uint32, float32 and float64 voxels in
//     either byte order, with scl_slope/scl_inter scaling and pixdim
//     spacing, decoded straight from the (gzip) stream into the voxels, and
//     placed in RAS+ world coordinates by the file's sform or qform (the
//     voxels turned to the nearest RAS+ axes, Volume.RAS set, so that
//     cameras show a head upright: view.RAS). The
//     reader is strict (damaged files are rejected with an error naming the
//     header field and its value) and fuzzed. Debian's mricron-data
//     installs real MRI volumes, e.g. /usr/share/mricron/templates/ch2.nii.gz.
//
// Volumes from files often hold NaN (or ±Inf) outside a mask. Finite tells
// them; Range, Summary, FiniteRange and DefaultIso (the isovalue to use
// when the user names none) ignore them, and FiniteRange and DefaultIso
// return an error for a volume with no finite sample at all. Marching cubes
// makes no triangles in a cell with such a corner.
//
// Resample changes a volume's resolution, low-pass filtering when it
// shrinks (each output sample is the average of what it covers) so that a
// reduced MRI volume does not alias, and keeping the volume's box. It
// works on slabs of layers, so that beyond the volume and its result it
// takes at most 64 MiB (one layer's float64 grids, at least).
//
// Requests are bounded before anything is allocated (limits.go):
// MemoryLimit is the host memory one request may use (half of the
// machine's physical memory unless SetMemoryLimit says otherwise),
// CheckGrid refuses grids whose samples need more than half of it or more
// than MaxSamples, and CheckStorage grids that exceed a GPU storage block.
// Field.SampleGrid, ReadNIfTI, Resample and Upload apply them, with errors
// naming the dimensions, the bytes and the limit; command lines call them
// to validate flags.
//
// Upload copies a volume to a GPU buffer for package isosurface's kernels.
//
//	v := volume.Default().SampleCube(128)        // or volume.LoadNIfTI(path)
//	m := isosurface.MarchingCubes(v, volume.Default().Iso)
package volume
