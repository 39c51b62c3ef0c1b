//go:build !(meshopt && cgo)

package isosurface

import "github.com/dpgl/dpgl/rasterizer/mesh"

// Meshoptimizer reports whether Simplify runs meshoptimizer: true in a
// build with -tags meshopt.
func Meshoptimizer() bool { return false }

func meshoptSimplify(m *mesh.Mesh, target int) [][3]uint32 {
	panic("isosurface: meshoptSimplify in a build without meshoptimizer")
}
