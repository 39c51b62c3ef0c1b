package mesh_test

import (
	"fmt"

	"github.com/dpgl/dpgl/rasterizer/mesh"
)

// A triangle 2e20 wide, far from the origin, brought into the unit box:
// the camera and the GPU then see coordinates near 1, and the frame maps
// them back.
func ExampleMesh_ToUnitBox() {
	m := &mesh.Mesh{
		Positions: [][3]float32{{1e21, 0, 0}, {1.2e21, 0, 0}, {1e21, 1e20, 0}},
		Faces:     [][3]uint32{{0, 1, 2}},
	}
	f := m.ToUnitBox()
	fmt.Println(m.Positions)
	fmt.Printf("centre %.3g, scale %.3g\n", f.Center, f.Scale)
	fmt.Printf("vertex 1 back in the world: %.3g\n", f.World(m.Positions[1]))
	fmt.Println("face normal:", m.FaceNormal(0))
	// Output:
	// [[-1 -0.5 0] [1 -0.5 0] [-1 0.5 0]]
	// centre [1.1e+21 5e+19 0], scale 1e+20
	// vertex 1 back in the world: [1.2e+21 0 0]
	// face normal: [0 0 1]
}
