package distributed

import (
	"fmt"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/mesh"
)

// Source is a polygon set as the ranks split it into units, and how a
// rank makes a piece of those units on its GPU.
type Source struct {
	Split string // "triangles" or "bricks"
	Unit  string // what a unit is: "triangle", "cell layer"
	Units int
	// Wire is the bytes that moving one unit to another node would send:
	// a triangle's three vertices (positions and normals), or a sample
	// layer of the volume.
	Wire int64
	// Upload makes units [lo, hi) a mesh on the rank's GPU.
	Upload func(lo, hi int) (*mesh.GPU, error)
	// First is the global primitive id of unit lo's first triangle.
	First func(lo int) uint32
}

// Triangles is the triangles split of m: a unit is a triangle, and a
// triangle's global id is its index in m. Every rank holds m.
func Triangles(c *gpu.Context, m *mesh.Mesh) *Source {
	return &Source{Split: "triangles", Unit: "triangle", Units: m.Len(), Wire: 3 * 2 * 12,
		Upload: func(lo, hi int) (*mesh.GPU, error) { return UploadShare(c, m, lo, hi) },
		First:  func(lo int) uint32 { return uint32(lo) },
	}
}

// UploadShare uploads triangles [lo, hi) of m.
func UploadShare(c *gpu.Context, m *mesh.Mesh, lo, hi int) (*mesh.GPU, error) {
	return mesh.Upload(c, &mesh.Mesh{Positions: m.Positions, Normals: m.Normals, Faces: m.Faces[lo:hi]})
}

// Bricks is the bricks split of a volume's isosurface, with what the
// ranks learnt of the whole while making it.
type Bricks struct {
	*Source
	Iso       float32
	Triangles int // the whole surface's
	// Lo and Hi bound the whole surface (the cameras' box): the bricks'
	// bounds joined, or the volume's box when no brick has a triangle.
	Lo, Hi [3]float32
	// Held is every rank's number of samples held, in rank order.
	Held []float64
	// First is this rank's first, static brick's surface.
	First *mesh.Mesh
}

// NewBricks makes the bricks split of the isosurface of s at iso: each
// rank samples or reads only its first, static brick (its cell layers'
// sample layers and one beyond each face), extracts its surface, and the
// ranks join the layers' triangle counts into global ids (LayerOffsets)
// and their bounds. Every rank calls it; a rank's failure is every rank's
// error (Agree). A piece outside the rank's own slab is sampled or read
// anew by Upload (across nodes it would come from the neighbour).
func NewBricks(comm Comm, c *gpu.Context, s Samples, iso float32) (*Bricks, error) {
	layers := s.Dims[2] - 1
	var err error
	if layers < 1 {
		err = fmt.Errorf("%s: %d sample layers, no cell layer", s.Name, s.Dims[2])
	}
	if err := Agree(comm, "reading the volume's header", err); err != nil {
		return nil, err
	}
	rank, size := comm.Rank(), comm.Size()
	b := Partition(layers, size)
	mine, err := s.Brick(b[rank], b[rank+1])
	var m *mesh.Mesh
	var counts []int
	if err == nil {
		m, counts, err = ExtractBrick(mine, iso)
	}
	if err != nil {
		// Every rank must reach LayerOffsets' allgather: count none.
		counts = nil
	}
	if err := Agree(comm, "extracting the first bricks", err); err != nil {
		return nil, err
	}
	SetPhase(comm, "joining the layers' triangle counts")
	offsets, err := LayerOffsets(comm, layers, b[rank], counts)
	if err != nil {
		return nil, err
	}
	lo, hi, held, err := joinBounds(comm, m, mine, s)
	if err != nil {
		return nil, err
	}
	depth := s.Dims[2]
	src := &Source{Split: "bricks", Unit: "cell layer", Units: layers, Wire: int64(4 * s.Dims[0] * s.Dims[1]),
		Upload: func(lo, hi int) (*mesh.GPU, error) {
			// Cut from the rank's own slab where it holds the layers;
			// layers handed to it from a neighbour's brick are made anew.
			l := mine
			l.Z0, l.Z1 = lo, hi
			if a, e := isosurface.SlabSamples(depth, lo, hi); a < mine.First || e > mine.First+mine.Samples.Dims[2] {
				var err error
				if l, err = s.Brick(lo, hi); err != nil {
					return nil, err
				}
			}
			bm, _, err := ExtractBrick(l, iso)
			if err != nil {
				return nil, err
			}
			if bm.Len() != offsets[hi]-offsets[lo] {
				return nil, fmt.Errorf("distributed: cell layers [%d, %d) made %d triangles, the layer counts say %d", lo, hi, bm.Len(), offsets[hi]-offsets[lo])
			}
			return mesh.Upload(c, bm)
		},
		First: func(lo int) uint32 { return uint32(offsets[lo]) },
	}
	return &Bricks{Source: src, Iso: iso, Triangles: offsets[layers], Lo: lo, Hi: hi, Held: held, First: m}, nil
}

// joinBounds joins the bricks' bounds into the surface's: the minimum and
// maximum of the bricks' (float32 in float64, exactly), or the volume's
// box when no brick has a triangle, as dataset.New takes it; and every
// rank's samples held.
func joinBounds(comm Comm, m *mesh.Mesh, mine isosurface.Layers, s Samples) (lo, hi [3]float32, held []float64, err error) {
	size := comm.Size()
	lo, hi, _ = m.Bounds()
	send := make([]float64, 7)
	for a := 0; a < 3; a++ {
		send[a], send[3+a] = float64(lo[a]), float64(hi[a])
	}
	send[6] = float64(len(mine.Samples.Data))
	all := make([]float64, 7*size)
	SetPhase(comm, "joining the bricks' bounds")
	if err := comm.AllgatherFloat64(send, all); err != nil {
		return lo, hi, nil, err
	}
	held = make([]float64, size)
	for r := 0; r < size; r++ {
		for a := 0; a < 3; a++ {
			lo[a], hi[a] = min(lo[a], float32(all[7*r+a])), max(hi[a], float32(all[7*r+3+a]))
		}
		held[r] = all[7*r+6]
	}
	if lo[0] > hi[0] {
		v := mine.Samples
		for a := 0; a < 3; a++ {
			lo[a], hi[a] = v.Origin[a], v.Origin[a]+float32(s.Dims[a]-1)*v.Spacing[a]
		}
	}
	return lo, hi, held, nil
}
