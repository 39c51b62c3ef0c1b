package volume

import (
	"fmt"

	"github.com/dpgl/dpgl/gpu"
)

// GPU is a volume's samples in a GPU storage buffer, in the same order as
// Volume.Data (GLSL: `readonly buffer Field { float field[]; }`), with the
// grid's geometry for the kernels' uniforms.
type GPU struct {
	Dims    [3]int
	Spacing [3]float32
	Origin  [3]float32
	Data    *gpu.Buffer[float32]
}

// Upload copies v to a new GPU buffer. It returns an error (CheckStorage's)
// when the samples exceed the driver's largest storage block (2^25 floats,
// e.g. 322^3, on llvmpipe).
func Upload(c *gpu.Context, v *Volume) (*GPU, error) {
	if err := v.Validate(); err != nil {
		panic("volume: Upload: " + err.Error())
	}
	if err := CheckStorage(v.Dims, c.Caps().MaxSSBOSize); err != nil {
		return nil, fmt.Errorf("volume: Upload: %w", err)
	}
	b, err := gpu.NewBufferFrom(c, v.Data)
	if err != nil {
		return nil, fmt.Errorf("volume: Upload: %dx%dx%d volume: %w", v.Dims[0], v.Dims[1], v.Dims[2], err)
	}
	return &GPU{Dims: v.Dims, Spacing: v.Spacing, Origin: v.Origin, Data: b}, nil
}

// Cells is the number of grid cells.
func (g *GPU) Cells() int {
	return max(g.Dims[0]-1, 0) * max(g.Dims[1]-1, 0) * max(g.Dims[2]-1, 0)
}

// Delete frees the buffer.
func (g *GPU) Delete() { g.Data.Delete() }
