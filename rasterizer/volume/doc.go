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
//     spacing. The reader is strict (damaged files are rejected with an
//     error naming the header field) and fuzzed. Debian's mricron-data
//     installs real MRI volumes, e.g. /usr/share/mricron/templates/ch2.nii.gz.
//
// Upload copies a volume to a GPU buffer for package isosurface's kernels.
//
//	v := volume.Default().SampleCube(128)        // or volume.LoadNIfTI(path)
//	m := isosurface.MarchingCubes(v, volume.Default().Iso)
package volume
