package isosurface_test

import (
	"fmt"

	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// The two polygon sets of one surface: marching cubes gives triangles of
// about a cell's size; decimation keeps a tenth of them, large where the
// surface is flat.
func ExampleDecimate() {
	f := volume.Sphere()
	v := f.SampleCube(16)
	balanced := isosurface.MarchingCubes(v, f.Iso)
	unbalanced := isosurface.Decimate(balanced, isosurface.DecimateOptions{TargetFaces: balanced.Len() / 10})
	isosurface.SetFieldNormals(unbalanced, v)
	fmt.Println(balanced.Len(), "triangles from marching cubes,", unbalanced.Len(), "after decimation")
	// Output: 1052 triangles from marching cubes, 104 after decimation
}
