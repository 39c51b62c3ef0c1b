package distributed

import (
	"fmt"

	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/mesh"
)

// ExtractBrick extracts a brick's cell layers (l.Z0 to l.Z1, from l's
// samples with their one-layer overlap: isosurface.Slab) one layer at a
// time, and returns their triangles concatenated in z order — the whole
// surface's triangles l.Z0 to l.Z1 in the whole surface's order, bit for
// bit (isosurface.ExtractLayers) — and each layer's triangle count, from
// which LayerOffsets makes the triangles' global ids.
func ExtractBrick(l isosurface.Layers, iso float32) (*mesh.Mesh, []int, error) {
	m := &mesh.Mesh{Positions: [][3]float32{}, Normals: [][3]float32{}, Faces: [][3]uint32{}}
	counts := make([]int, l.Z1-l.Z0)
	for z := l.Z0; z < l.Z1; z++ {
		one := l
		one.Z0, one.Z1 = z, z+1
		lm, _, err := isosurface.ExtractLayers(one, iso)
		if err != nil {
			return nil, nil, fmt.Errorf("distributed: brick [%d, %d), layer %d: %w", l.Z0, l.Z1, z, err)
		}
		// Layers share the vertices on the sample layer between them;
		// each keeps its own copy (positions equal bit for bit).
		off := uint32(len(m.Positions))
		m.Positions = append(m.Positions, lm.Positions...)
		m.Normals = append(m.Normals, lm.Normals...)
		for _, f := range lm.Faces {
			m.Faces = append(m.Faces, [3]uint32{f[0] + off, f[1] + off, f[2] + off})
		}
		counts[z-l.Z0] = lm.Len()
	}
	return m, counts, nil
}

// LayerOffsets joins every rank's layer counts into the global ids of the
// layers' first triangles: first[z] for z in [0, layers], first[layers]
// the surface's triangle count. Rank r passes the counts of its layers
// [lo, lo+len(counts)); together the ranks must count each layer once.
// It is an exclusive scan over the layers in global cell order, done as
// an allgather of the counts, so that every rank learns every layer's
// offset: moving layers between ranks needs them. A layer counted by no
// rank or by two is an error naming it.
func LayerOffsets(c Comm, layers, lo int, counts []int) ([]int, error) {
	if lo < 0 || lo+len(counts) > layers {
		panic(fmt.Sprintf("distributed: LayerOffsets: layers [%d, %d) of %d", lo, lo+len(counts), layers))
	}
	// −1 marks a layer this rank does not count; float64 holds counts
	// exactly up to 2^53.
	send := make([]float64, layers)
	for z := range send {
		send[z] = -1
	}
	for i, n := range counts {
		send[lo+i] = float64(n)
	}
	all := make([]float64, layers*c.Size())
	if err := c.AllgatherFloat64(send, all); err != nil {
		return nil, err
	}
	first := make([]int, layers+1)
	for z := 0; z < layers; z++ {
		by := -1
		for r := 0; r < c.Size(); r++ {
			if n := all[r*layers+z]; n >= 0 {
				if by >= 0 {
					return nil, fmt.Errorf("distributed: layer %d is counted by ranks %d and %d", z, by, r)
				}
				by = r
				first[z+1] = first[z] + int(n)
			}
		}
		if by < 0 {
			return nil, fmt.Errorf("distributed: layer %d is counted by no rank", z)
		}
	}
	return first, nil
}
