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

// A surface for a program: Extract runs marching cubes on every CPU and
// checks what a user's volume may get wrong; its mesh is MarchingCubes'
// exactly, vertex for vertex and face for face.
func ExampleExtract() {
	f := volume.Torus()
	v := f.SampleCube(40)
	m, st, err := isosurface.Extract(v, f.Iso)
	if err != nil {
		fmt.Println(err)
		return
	}
	ref := isosurface.MarchingCubes(v, f.Iso)
	fmt.Println(st.Cells, "cells,", m.Len(), "triangles; the reference has", ref.Len())
	// Output: 59319 cells, 6608 triangles; the reference has 6608
}
