//go:build meshopt && cgo

package isosurface

/*
#cgo LDFLAGS: -lmeshoptimizer
#include <meshoptimizer.h>
*/
import "C"

import (
	"unsafe"

	"github.com/dpgl/dpgl/rasterizer/mesh"
)

// Meshoptimizer reports whether Simplify runs meshoptimizer: true in a
// build with -tags meshopt.
func Meshoptimizer() bool { return true }

// meshoptSimplify is meshopt_simplify of m to about target faces, border
// locked, the error bound the whole mesh (the target decides).
func meshoptSimplify(m *mesh.Mesh, target int) [][3]uint32 {
	if len(m.Faces) == 0 {
		return nil
	}
	dst := make([][3]uint32, len(m.Faces))
	n := C.meshopt_simplify((*C.uint)(unsafe.Pointer(&dst[0][0])),
		(*C.uint)(unsafe.Pointer(&m.Faces[0][0])), C.size_t(3*len(m.Faces)),
		(*C.float)(unsafe.Pointer(&m.Positions[0][0])), C.size_t(len(m.Positions)), C.size_t(unsafe.Sizeof(m.Positions[0])),
		C.size_t(3*target), 1, C.meshopt_SimplifyLockBorder, nil)
	return dst[:int(n)/3]
}
