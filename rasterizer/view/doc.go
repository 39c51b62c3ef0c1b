// Package view holds the viewing and magnification transformations of the
// paper's experiments (Table 1): the views (0,0) and (45,45), and the
// magnified M(0,0) and M(45,45), as camera presets for mathgl.
//
// A View is an orbit around the dataset: azimuth and elevation in degrees
// and a magnification. Camera fits the dataset's bounding sphere in the
// image at magnification 1, so the unmagnified views show the whole surface
// from any angle; the magnified views (Magnified = 3) show the middle third
// and clip the rest, as the paper's did (its M(0,0) has triangles taller
// than the 512-row image).
//
// The projection is orthographic by default, so that magnification is a
// pure zoom and view (0,0) looks straight down the grid's z axis: the
// workload differences between datasets then come from the datasets, not
// from perspective. Set FOV for a perspective camera.
//
//	cam := view.Paper()[0].Fit(lo, hi, 512, 512) // (0,0)
//	mvp := cam.MVP()
//
// Any other view is written in the paper's notation generalised, which
// Parse reads and Named writes: "(az,el)" for any azimuth and elevation in
// degrees, "M(az,el)" magnified as the paper's M views are, and a zoom
// "(az,el)x2.5". Paper lists the four views in Table 1's order (Names their
// names), and ParseList reads the lists of views that bench's and the
// viewer's flags take ("(0,0) (90,0) (30,15)x2.5"), refusing malformed or
// repeated views with an error naming them; View.Camera and View.Fit turn a
// view into a Camera, a model-view and a projection matrix.
//
// A Frame orients the orbit: YUp, the paper's and the zero Frame's, looks
// down −z with y up at (0,0); RAS shows anatomy in RAS+ coordinates (as
// volume.ReadNIfTI gives them) upright, facing the viewer at (0,0) and
// from the left side at (90,0). View.In gives a view its dataset's frame.
// View.LookingAt aims a view at a point other than the box's centre.
// The matrices are built in float64 and rounded once, so a scene far from
// the origin or of any scale keeps its shape; the same view of the same box
// gives the same matrices, bit for bit, on every run. Bad input to Camera
// (a radius, aspect or magnification that is not positive, an elevation of
// ±90 or more) panics naming the view and the values: callers take them
// from bounds and image sizes they have checked. No GL: the matrices go to
// the GPU through package rasterizer.
package view
