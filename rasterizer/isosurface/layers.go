package isosurface

import (
	"fmt"

	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// Layers is a slab of a volume's cell layers along z with the samples
// they need: the brick one rank of a distributed renderer owns (package
// rasterizer/distributed). Slab cuts one from a whole volume; a rank
// reading a file would read the same sample layers.
type Layers struct {
	// Samples holds the whole volume's sample layers First to
	// First+Samples.Dims[2]−1, at the whole volume's Origin and Spacing:
	// vertices are placed from the whole volume's indices, so that they
	// come out bit for bit as MarchingCubes of the whole places them.
	Samples *volume.Volume
	First   int
	// Depth is the whole volume's number of sample layers (its Dims[2]).
	Depth int
	// Z0 and Z1 bound the cell layers to extract: cells z in [Z0, Z1) of
	// the whole volume, cell z lying between sample layers z and z+1.
	Z0, Z1 int
}

// Slab cuts cell layers [z0, z1) of v out as Layers: sample layers
// z0−1 to z1+1, where v has them. Layers z0 and z1 are the cells' own
// corners; z0−1 and z1+1 are the one-layer overlap with the neighbouring
// slabs that the normals' central differences (volume.Gradient) need at
// z0 and z1. It panics unless 0 ≤ z0 ≤ z1 ≤ v.Dims[2]−1.
func Slab(v *volume.Volume, z0, z1 int) Layers {
	nz := v.Dims[2]
	if z0 < 0 || z1 < z0 || z1 > max(nz-1, 0) {
		panic(fmt.Sprintf("isosurface: Slab: cell layers [%d, %d) of a volume of %d sample layers", z0, z1, nz))
	}
	lo, end := SlabSamples(nz, z0, z1)
	hi := end - 1 // sample layers lo to hi
	layer := v.Dims[0] * v.Dims[1]
	s := &volume.Volume{Dims: [3]int{v.Dims[0], v.Dims[1], hi - lo + 1}, Spacing: v.Spacing, Origin: v.Origin}
	s.Data = append([]float32(nil), v.Data[lo*layer:(hi+1)*layer]...)
	return Layers{Samples: s, First: lo, Depth: nz, Z0: z0, Z1: z1}
}

// SlabSamples is the sample layers [lo, end) that Slab keeps of a volume
// of depth sample layers for cell layers [z0, z1): the cells' own and the
// one-layer overlap beyond each face, where the volume has them. A rank
// that reads or samples only these holds the brick without the whole
// volume (volume.Field.SampleLayers, volume.ReadNIfTILayers). It panics
// unless 0 ≤ z0 ≤ z1 ≤ depth−1.
func SlabSamples(depth, z0, z1 int) (lo, end int) {
	if z0 < 0 || z1 < z0 || z1 > max(depth-1, 0) {
		panic(fmt.Sprintf("isosurface: SlabSamples: cell layers [%d, %d) of a volume of %d sample layers", z0, z1, depth))
	}
	return max(z0-1, 0), min(z1+1, depth-1) + 1
}

// check panics unless l's samples cover what its cells need.
func (l Layers) check() {
	s := l.Samples
	last := l.First + s.Dims[2] - 1 // the whole volume's index of s's last layer
	switch {
	case l.Z0 < 0 || l.Z1 < l.Z0 || l.Z1 > max(l.Depth-1, 0):
		panic(fmt.Sprintf("isosurface: Layers: cell layers [%d, %d) of a volume of %d sample layers", l.Z0, l.Z1, l.Depth))
	case l.First < 0 || last > l.Depth-1:
		panic(fmt.Sprintf("isosurface: Layers: sample layers %d to %d outside the volume's 0 to %d", l.First, last, l.Depth-1))
	case l.Z0 < l.Z1 && (l.First > max(l.Z0-1, 0) || last < min(l.Z1+1, l.Depth-1)):
		panic(fmt.Sprintf("isosurface: Layers: cell layers [%d, %d) need sample layers %d to %d (one beyond each face, for the normals), have %d to %d",
			l.Z0, l.Z1, max(l.Z0-1, 0), min(l.Z1+1, l.Depth-1), l.First, last))
	}
}

// ExtractLayers is Extract of cell layers [l.Z0, l.Z1) alone, from l's
// samples: the triangles MarchingCubes of the whole volume makes in those
// cells, in the same order, with the same positions and normals bit for
// bit. Cell order is x fastest, then y, then z, so a slab's triangles are
// one contiguous run of the whole surface's: slabs taken in z order and
// concatenated are the whole surface, face for face, and a slab's first
// triangle's index in it is the sum of the triangle counts of the slabs
// below (an exclusive scan over the slabs' counts).
//
// The normals come out as the whole's because l holds the sample layer
// beyond each face (Slab cuts it so), where central differences read, and
// the whole volume's own faces are l's faces there, where they are
// one-sided alike. It returns an error for a non-finite isovalue and for a
// surface beyond the memory limit, as Extract does; a slab with no finite
// sample is no error (its cells make no triangles), since other slabs of
// the volume may have some. It panics when l's samples miss a layer its
// cells need.
func ExtractLayers(l Layers, iso float32) (*mesh.Mesh, Stats, error) {
	l.check()
	if !volume.Finite(iso) {
		return nil, Stats{}, fmt.Errorf("isosurface: isovalue %v is not a finite number", iso)
	}
	if err := l.Samples.Validate(); err != nil {
		return nil, Stats{}, fmt.Errorf("isosurface: %w", err)
	}
	maxFaces := int(volume.MemoryLimit() / BytesPerTriangle)
	m, st, ok := extractParallel(l.Samples, iso, maxFaces, l.First, l.Z0-l.First, l.Z1-l.First, workers())
	if !ok {
		v := l.Samples
		return nil, st, fmt.Errorf("isosurface: the surface of cell layers [%d, %d) of the %dx%dx%d volume at %v has more than %d triangles, more than the memory limit of %s holds",
			l.Z0, l.Z1, v.Dims[0], v.Dims[1], l.Depth, iso, maxFaces, volume.FormatBytes(volume.MemoryLimit()))
	}
	return m, st, nil
}
