package isosurface

import (
	"math"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// The parallel CPU extraction: marchingCubes' mesh, vertex for vertex and
// face for face, built by goroutines over slabs of cell layers along z
// (the flying-edges idea of touching each sample once and skipping empty
// runs of cells a word at a time, kept to marching cubes' own output).
//
// Each sample layer is classified once into two bit rows per grid row
// (inside: sample > iso; nonFinite: NaN or ±Inf), so that a cell row's
// active cells — those whose eight corners are not all alike and all
// finite — come out 64 cells per word operation. Only active cells look
// at their corners and make triangles.
//
// Slabs number their vertices locally, in the order of first use, as
// marchingCubes does; a vertex on a slab's bottom sample layer, on an x or
// y edge, may already be the slab below's (its top layer): the stitch
// finds those and gives them the lower slab's id. Since every first use in
// slab s comes after every first use in slab s−1, the global id of a new
// vertex is the count of new vertices in the slabs below plus its rank
// among its own slab's new vertices: the serial numbering exactly.

// slabResult is one slab's surface in local vertex ids.
type slabResult struct {
	positions, normals [][3]float32
	faces              [][3]uint32
	nonFinite          int
	// bottom and top list the x and y edge vertices on the slab's first
	// and last sample layers: slot 3·(x+nx·y)+axis and local id.
	bottom, top []slotID
	remap       []uint32 // local id → global id, made by the stitch
}

type slotID struct{ slot, id int32 }

// noID marks a vertex id not yet known.
const noID = math.MaxUint32

// extractParallel is marchingCubes(v, iso, maxFaces, first, z0, z1) on
// up to workers goroutines.
func extractParallel(v *volume.Volume, iso float32, maxFaces, first, z0, z1, workers int) (*mesh.Mesh, Stats, bool) {
	nx, ny, nz := v.Dims[0], v.Dims[1], v.Dims[2]
	if nx < 2 || ny < 2 || nz < 2 || z0 >= z1 || nx*ny >= math.MaxInt32/3 {
		// Degenerate (or a layer too wide for int32 slots): the serial
		// extraction is the definition.
		return marchingCubes(v, iso, maxFaces, first, z0, z1)
	}
	workers = max(1, min(workers, z1-z0))
	// Several slabs a worker so that a surface crowded into a few layers
	// still spreads over the workers; a slab of at least 4 layers keeps
	// the per-slab overhead (two layers of ids) small.
	nslab := min(4*workers, max(1, (z1-z0)/4))
	if workers == 1 {
		nslab = 1
	}
	slabs := make([]slabResult, nslab)
	ok := extractSlabs(slabs, v, iso, maxFaces, first, z0, z1, workers)
	st := Stats{Cells: (nx - 1) * (ny - 1) * (z1 - z0)}
	for i := range slabs {
		st.NonFinite += slabs[i].nonFinite
	}
	if !ok {
		return nil, st, false
	}
	nv, nf := stitch(slabs, nx, ny)
	m := &mesh.Mesh{Positions: make([][3]float32, nv), Normals: make([][3]float32, nv), Faces: make([][3]uint32, nf)}
	scatter(m, slabs, workers)
	st.Triangles = nf
	return m, st, true
}

// extractSlabs extracts layers z0 to z1 into slabs on workers goroutines,
// slab s from layer z0 + (z1-z0)·s/len(slabs). It reports false if a slab
// failed or the slabs together have more than maxFaces triangles.
func extractSlabs(slabs []slabResult, v *volume.Volume, iso float32, maxFaces, first, z0, z1, workers int) bool {
	nx, ny := v.Dims[0], v.Dims[1]
	nslab := len(slabs)
	bound := func(s int) int { return z0 + (z1-z0)*s/nslab }
	var (
		next   atomic.Int64
		faces  atomic.Int64
		failed atomic.Bool
		wg     sync.WaitGroup
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := newSlabScratch(nx, ny)
			for {
				s := int(next.Add(1) - 1)
				if s >= nslab || failed.Load() {
					return
				}
				// Count the slab's triangles first (the cells' cases alone,
				// a fraction of the work): the memory limit is checked
				// before the mesh is made, and the slab's arrays are made
				// once, at their size, not grown by copying.
				r := &slabs[s]
				n := 0
				if !sc.extract(r, v, iso, first, bound(s), bound(s+1), &n, &failed) || faces.Add(int64(n)) > int64(maxFaces) {
					failed.Store(true)
					return
				}
				// A closed surface of marching cubes has about half as many
				// vertices as faces.
				r.faces = make([][3]uint32, 0, n)
				r.positions = make([][3]float32, 0, n/2+n/8+16)
				r.normals = make([][3]float32, 0, cap(r.positions))
				if !sc.extract(r, v, iso, first, bound(s), bound(s+1), nil, &failed) {
					failed.Store(true)
					return
				}
			}
		}()
	}
	wg.Wait()
	return !failed.Load() && faces.Load() <= int64(maxFaces)
}

// scatter writes the stitched slabs into m on workers goroutines: each
// slab the vertices it remaps (those it shares with the slab below
// included, which that slab writes too) and its own run of faces. It
// frees the slabs.
func scatter(m *mesh.Mesh, slabs []slabResult, workers int) {
	nslab := len(slabs)
	fo := make([]int, nslab+1) // slab s's faces go to m.Faces[fo[s]:fo[s+1]]
	for s := range slabs {
		fo[s+1] = fo[s] + len(slabs[s].faces)
	}
	var (
		sn atomic.Int64
		wg sync.WaitGroup
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				s := int(sn.Add(1) - 1)
				if s >= nslab {
					return
				}
				r := &slabs[s]
				for l, g := range r.remap {
					m.Positions[g] = r.positions[l]
					m.Normals[g] = r.normals[l]
				}
				out := m.Faces[fo[s]:fo[s+1]]
				for i, f := range r.faces {
					out[i] = [3]uint32{r.remap[f[0]], r.remap[f[1]], r.remap[f[2]]}
				}
				*r = slabResult{}
			}
		}()
	}
	wg.Wait()
}

// stitch gives every slab's local vertices their global ids (remap) and
// returns the mesh's vertex and face counts.
func stitch(slabs []slabResult, nx, ny int) (nv, nf int) {
	prev := make([]int32, 3*nx*ny) // the slab below's top layer: slot → local id
	for i := range prev {
		prev[i] = -1
	}
	for s := range slabs {
		r := &slabs[s]
		r.remap = make([]uint32, len(r.positions))
		if s > 0 {
			below := &slabs[s-1]
			for _, t := range below.top {
				prev[t.slot] = t.id
			}
			// A shared vertex is marked with the lower slab's local id
			// (+1, so that 0 stays "new"), resolved below once that slab's
			// own ids are known.
			for _, b := range r.bottom {
				if id := prev[b.slot]; id >= 0 {
					r.remap[b.id] = uint32(id) + 1
				}
			}
			for _, t := range below.top {
				prev[t.slot] = -1
			}
		}
		for l, mark := range r.remap {
			if mark != 0 {
				// The lower slab's top-layer vertices are its own (its
				// bottom layer is another sample layer), so their ids are
				// final.
				r.remap[l] = slabs[s-1].remap[mark-1]
				continue
			}
			r.remap[l] = uint32(nv)
			nv++
		}
		nf += len(r.faces)
	}
	return nv, nf
}

// slabScratch is a worker's reusable memory: two sample layers' bit rows
// and two layers of vertex ids, as marchingCubes keeps them.
type slabScratch struct {
	nx, ny, words int
	inside        [2][]uint64 // [layer&1][y·words+k], bit x%64 of word x/64
	nonFinite     [2][]uint64
	ids           [2][]int32 // [layer&1][3·(x+nx·y)+axis], -1 until made
	set           [2][]int32 // slots of ids[layer&1] that are set, to reset
}

func newSlabScratch(nx, ny int) *slabScratch {
	w := (nx + 63) / 64
	sc := &slabScratch{nx: nx, ny: ny, words: w}
	for i := 0; i < 2; i++ {
		sc.inside[i] = make([]uint64, w*ny)
		sc.nonFinite[i] = make([]uint64, w*ny)
		sc.ids[i] = make([]int32, 3*nx*ny)
		for j := range sc.ids[i] {
			sc.ids[i][j] = -1
		}
	}
	return sc
}

// classify fills the bit rows of sample layer z (v's own index).
func (sc *slabScratch) classify(v *volume.Volume, iso float32, z int) {
	nx, w := sc.nx, sc.words
	in, nf := sc.inside[z&1], sc.nonFinite[z&1]
	data := v.Data[z*nx*sc.ny : (z+1)*nx*sc.ny]
	for y := 0; y < sc.ny; y++ {
		row := data[y*nx : (y+1)*nx]
		for k := 0; k < w; k++ {
			var a, b uint64
			chunk := row[64*k : min(64*k+64, nx)]
			for i, s := range chunk {
				if s > iso {
					a |= 1 << uint(i)
				}
				// Exponent all ones: NaN or ±Inf.
				if math.Float32bits(s)&0x7f800000 == 0x7f800000 {
					b |= 1 << uint(i)
				}
			}
			in[y*w+k], nf[y*w+k] = a, b
		}
	}
}

// cellEdge is edge e's lower corner offset from its cell and its axis.
var cellEdge [12][4]int

// initCellEdges runs in tables.go's init, after edgeCorners is made
// (init functions run in file name order).
func initCellEdges() {
	for e := 0; e < 12; e++ {
		lo := edgeCorners[e][0]
		cellEdge[e] = [4]int{lo & 1, lo >> 1 & 1, lo >> 2 & 1, e / 4}
	}
}

// extract makes slab r: cell layers [za, zb) of v; with count not nil,
// it only adds the slab's triangles to *count. It stops, returning false,
// when another worker has failed.
func (sc *slabScratch) extract(r *slabResult, v *volume.Volume, iso float32, first, za, zb int, count *int, failed *atomic.Bool) bool {
	nx, ny, w := sc.nx, sc.ny, sc.words
	for i := 0; i < 2; i++ {
		for _, slot := range sc.set[i] {
			sc.ids[i][slot] = -1
		}
		sc.set[i] = sc.set[i][:0]
	}
	// valid masks the last word's bits to cells x ≤ nx−2.
	lastValid := ^uint64(0)
	if rem := (nx - 1) % 64; rem != 0 {
		lastValid = 1<<uint(rem) - 1
	}
	lastWord := (nx - 2) / 64 // the last word holding a cell
	sc.classify(v, iso, za)
	for z := za; z < zb; z++ {
		// Layer z+1's ids and bits replace layer z−1's.
		up := (z + 1) & 1
		for _, slot := range sc.set[up] {
			sc.ids[up][slot] = -1
		}
		sc.set[up] = sc.set[up][:0]
		sc.classify(v, iso, z+1)
		in0, in1 := sc.inside[z&1], sc.inside[up]
		nf0, nf1 := sc.nonFinite[z&1], sc.nonFinite[up]
		for y := 0; y < ny-1; y++ {
			// The four sample rows of the cell row, and their words
			// shifted by one sample (corner x+1).
			rows := [4][]uint64{in0[y*w : y*w+w], in0[(y+1)*w : (y+1)*w+w], in1[y*w : y*w+w], in1[(y+1)*w : (y+1)*w+w]}
			nfr := [4][]uint64{nf0[y*w : y*w+w], nf0[(y+1)*w : (y+1)*w+w], nf1[y*w : y*w+w], nf1[(y+1)*w : (y+1)*w+w]}
			for k := 0; k <= lastWord; k++ {
				// c[i] holds corner i of the 64 cells: i = dx + 2·dy + 4·dz.
				var c [8]uint64
				var nfAny uint64
				for j := 0; j < 4; j++ {
					a := rows[j][k]
					c[2*j], c[2*j+1] = a, a>>1|word(rows[j], k+1)<<63
					f := nfr[j][k]
					nfAny |= f | f>>1 | word(nfr[j], k+1)<<63
				}
				valid := ^uint64(0)
				if k == lastWord {
					valid = lastValid
				}
				nfAny &= valid
				if count == nil {
					r.nonFinite += bits.OnesCount64(nfAny)
				}
				all, any := c[0], c[0]
				for i := 1; i < 8; i++ {
					all &= c[i]
					any |= c[i]
				}
				active := (any &^ all) & valid &^ nfAny
				for active != 0 {
					b := bits.TrailingZeros64(active)
					active &= active - 1
					cs := 0
					for i := 0; i < 8; i++ {
						cs |= int(c[i]>>uint(b)&1) << i
					}
					if count != nil {
						*count += len(caseTriangles[cs]) / 3
						continue
					}
					sc.cell(r, v, iso, first, 64*k+b, y, z, za, zb, cs)
				}
			}
			if failed.Load() {
				return false
			}
		}
	}
	return true
}

// word is row[k], or 0 beyond the row's end.
func word(row []uint64, k int) uint64 {
	if k < len(row) {
		return row[k]
	}
	return 0
}

// cell makes the triangles of the cell at (x, y, z) with case cs.
func (sc *slabScratch) cell(r *slabResult, v *volume.Volume, iso float32, first, x, y, z, za, zb, cs int) {
	t := caseTriangles[cs]
	nx := sc.nx
	for i := 0; i < len(t); i += 3 {
		var f [3]uint32
		for k := 0; k < 3; k++ {
			e := cellEdge[t[i+k]]
			vx, vy, vz, axis := x+e[0], y+e[1], z+e[2], e[3]
			layer := vz & 1
			slot := int32(3*(vx+nx*vy) + axis)
			id := sc.ids[layer][slot]
			if id < 0 {
				p, n := edgeVertex(v, iso, vx, vy, vz, axis, first)
				id = int32(len(r.positions))
				r.positions = append(r.positions, p)
				r.normals = append(r.normals, n)
				sc.ids[layer][slot] = id
				sc.set[layer] = append(sc.set[layer], slot)
				if axis < 2 {
					switch vz {
					case za:
						r.bottom = append(r.bottom, slotID{slot, id})
					case zb:
						r.top = append(r.top, slotID{slot, id})
					}
				}
			}
			f[k] = uint32(id)
		}
		r.faces = append(r.faces, f)
	}
}

// workers is the goroutines a CPU extraction uses.
func workers() int { return runtime.GOMAXPROCS(0) }
