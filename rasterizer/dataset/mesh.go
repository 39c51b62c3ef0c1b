package dataset

import (
	"errors"
	"fmt"
	"slices"

	"github.com/dpgl/dpgl/rasterizer/mesh"
)

// FromMesh makes a pair of a mesh read from a file: m is the balanced set
// as it is, and its quadric-error decimation to 1/reduction of its
// triangles the unbalanced one, as FromVolume does for an isosurface. A
// mesh without normals gets area-weighted vertex normals. Both sets are
// moved and scaled into the unit box (Pair.Frame maps them back); m is not
// changed. The pair has no volume (Volume is nil, Iso 0). A mesh without
// triangles is an error.
func FromMesh(name string, m *mesh.Mesh, reduction int) (*Pair, error) {
	if reduction < 1 {
		panic(fmt.Sprintf("dataset: FromMesh: reduction %d, want >= 1", reduction))
	}
	if m.Len() == 0 {
		return nil, errors.New("dataset: the mesh has no triangles")
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	// The GPU transforms positions in float32: a small mesh far from the
	// origin (a unit cube at 1e7) would lose its shape to cancellation
	// against the camera's translation. Moved and scaled in float64 into
	// the unit box, every mesh reaches the GPU well conditioned, and a mesh
	// draws the same picture wherever it lies and whatever its scale.
	c := *m
	c.Positions = slices.Clone(m.Positions)
	frame := c.ToUnitBox()
	if c.Normals == nil {
		c.ComputeNormals()
	}
	m = &c
	p := &Pair{Name: name, Balanced: m, Unbalanced: Unbalance(m, nil, reduction), Frame: frame}
	p.Lo, p.Hi, _ = m.Bounds()
	return p, nil
}
