package distributed

import (
	"errors"
	"fmt"

	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// Samples makes any run of a volume's sample layers without the whole
// volume: what a rank of a volume that outgrows one host holds is the
// sample layers of its brick's cells and the one-layer overlap (Brick),
// never the whole grid.
type Samples struct {
	// Name says where the samples come from, for errors.
	Name string
	// Dims are the whole volume's dimensions.
	Dims [3]int
	// Layers makes sample layers [z0, z1): a slab as isosurface.Layers
	// takes it, at the whole volume's Origin and Spacing, bit for bit the
	// whole volume's layers.
	Layers func(z0, z1 int) (*volume.Volume, error)
}

// FieldSamples samples f on a grid of dims, a slab at a time
// (volume.Field.SampleLayers).
func FieldSamples(f volume.Field, dims [3]int) (Samples, error) {
	if _, err := f.SampleLayers(dims, 0, 1); err != nil {
		return Samples{}, fmt.Errorf("distributed: %w", err)
	}
	return Samples{Name: fmt.Sprintf("%s %dx%dx%d", f.Name, dims[0], dims[1], dims[2]), Dims: dims,
		Layers: func(z0, z1 int) (*volume.Volume, error) { return f.SampleLayers(dims, z0, z1) }}, nil
}

// NIfTISamples reads a NIfTI-1 file a slab at a time
// (volume.LoadNIfTILayers: each slab reads the whole stream through but
// keeps only its layers). When res > 0 and the volume's longest side is
// longer, the volume is resampled to res along it as volume.Resample
// does, bit for bit: a slab of the resampled volume reads the source
// layers the box filter's footprint covers (volume.ResampleSources),
// which reach up to half an output spacing and one source layer beyond
// the slab's own span, and filters them (volume.ResampleLayers).
func NIfTISamples(path string, res int) (Samples, error) {
	h, err := volume.LoadNIfTIHeader(path)
	if err != nil {
		return Samples{}, fmt.Errorf("distributed: %w", err)
	}
	src := [3]int{int(h.Dim[1]), int(h.Dim[2]), int(h.Dim[3])}
	if res <= 0 || max(src[0], src[1], src[2]) <= res {
		return Samples{Name: path, Dims: src, Layers: func(z0, z1 int) (*volume.Volume, error) {
			v, _, err := volume.LoadNIfTILayers(path, z0, z1)
			return v, err
		}}, nil
	}
	dims, _, err := volume.ResampleGrid(src, [3]float32{1, 1, 1}, res)
	if err != nil {
		return Samples{}, fmt.Errorf("distributed: %s: %w", path, err)
	}
	return Samples{Name: path, Dims: dims, Layers: func(k0, k1 int) (*volume.Volume, error) {
		if k0 < 0 || k1 <= k0 || k1 > dims[2] {
			return nil, fmt.Errorf("distributed: %s resampled to %v: sample layers [%d, %d)", path, dims, k0, k1)
		}
		s0, s1 := volume.ResampleSources(src, res, k0, k1)
		v, _, err := volume.LoadNIfTILayers(path, s0, s1)
		if err != nil {
			return nil, err
		}
		return volume.ResampleLayers(v, s0, src, res, k0, k1)
	}}, nil
}

// Brick makes the samples of cell layers [z0, z1) and their one-layer
// overlap (isosurface.SlabSamples), and nothing else, as the Layers
// ExtractBrick takes: equal, bit for bit, to isosurface.Slab of the whole
// volume.
func (s Samples) Brick(z0, z1 int) (isosurface.Layers, error) {
	depth := s.Dims[2]
	if depth < 2 || z0 < 0 || z1 < z0 || z1 > depth-1 {
		return isosurface.Layers{}, fmt.Errorf("distributed: %s: cell layers [%d, %d) of a volume of %d sample layers", s.Name, z0, z1, depth)
	}
	lo, end := isosurface.SlabSamples(depth, z0, z1)
	v, err := s.Layers(lo, end)
	if err != nil {
		return isosurface.Layers{}, err
	}
	if v.Dims[2] != end-lo || v.Dims[0] != s.Dims[0] || v.Dims[1] != s.Dims[1] {
		return isosurface.Layers{}, errors.New("distributed: " + s.Name + ": Samples.Layers made a slab of the wrong size")
	}
	return isosurface.Layers{Samples: v, First: lo, Depth: depth, Z0: z0, Z1: z1}, nil
}
