// Package picture draws pictures of one surface, headless, with the
// fastest of the renderer's paths (rasterizer.Options.Tiled): the short way
// from a volume or a mesh to PNG files, without the paper's balanced and
// unbalanced sets, its policies or its measurements.
//
//	volume → isosurface → triangles → tiled rasterizer → image per camera
//
// Volume extracts a volume's isosurface (isosurface.Extract, every cell,
// no decimation) and draws it; Mesh draws a mesh as it is; both look from
// each view in the dataset's frame (view.RAS for a volume in RAS+, as
// volume.ReadNIfTI gives a NIfTI file with an orientation, so that (0,0)
// faces a head upright; the paper's y-up frame otherwise). A Drawer keeps
// the renderer for many meshes and views. Every GL object is released when
// a call returns or Drawer.Delete is called, on error paths too.
//
//	c, _ := gpu.NewHeadless()
//	v, _, _ := volume.LoadNIfTI("/usr/share/mricron/templates/ch2.nii.gz")
//	views, _ := view.ParseList("(0,0) (90,0) (30,15)x2.5")
//	imgs, _ := picture.Volume(c, v, 60, views, picture.DefaultOptions())
//	png.Encode(f, imgs[1]) // the left side of the head
//
// Bad input (an isovalue that is not finite, a volume without cells, an
// empty surface, a size outside 1..raster.MaxImageSize) is an error naming
// the value; the bench command "bench image" is this package on a command
// line.
package picture
