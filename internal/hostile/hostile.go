package hostile

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
)

// Kind is the flag a file is given with.
type Kind string

const (
	NIfTI  Kind = "volume" // -volume FILE.nii[.gz]
	PLY    Kind = "mesh"   // -mesh FILE.ply
	DIMACS Kind = "graphs" // bench strategies -graphs FILE.gr
)

// Case is one input file and what must become of it.
type Case struct {
	Name string
	Kind Kind
	Ext  string // file name extension
	Data []byte
	// Want are the words the error message must hold besides the file's
	// path (the field, the value); nil for a case that must draw.
	Want []string
	// Avoid are words the message must not hold (a flag it must not
	// blame).
	Avoid []string
	// Open names a defect, not this package's to fix, that the case
	// still meets: the tests skip it, saying so.
	Open string
	// Say are words a drawing run must print (a count of what it
	// skipped).
	Say []string
	// Like names a case whose picture this one's must resemble (the same
	// shape scaled or in another encoding); "" for none.
	Like string
}

// Draws reports whether the command must succeed with a picture.
func (c Case) Draws() bool { return c.Want == nil }

// Write puts the case's file in dir and returns its path.
func (c Case) Write(dir string) (string, error) {
	path := filepath.Join(dir, c.Name+c.Ext)
	return path, os.WriteFile(path, c.Data, 0o644)
}

// Nii describes a NIfTI-1 file; zero fields take the defaults of a valid
// one: a little-endian 3-D float32 volume with unit spacing.
type Nii struct {
	Order       binary.ByteOrder
	Dim         [8]int16
	Datatype    int16
	Bitpix      int16
	Pixdim      [3]float32
	Slope       float32
	Inter       float32
	Magic       string
	Voxels      []float64 // stored values, len = the dims' product
	Truncate    int       // keep only this many bytes (0: all)
	Gzip        bool
	DropVoxels  int // leave this many voxels out of the file
	ExtraVoxels int // append this many
}

// Bytes encodes n.
func (n Nii) Bytes() []byte {
	bo := n.Order
	if bo == nil {
		bo = binary.LittleEndian
	}
	if n.Datatype == 0 {
		n.Datatype = 16 // float32
	}
	if n.Bitpix == 0 {
		n.Bitpix = 32
	}
	if n.Magic == "" {
		n.Magic = "n+1\x00"
	}
	h := make([]byte, 352)
	bo.PutUint32(h[0:], 348)
	for i, d := range n.Dim {
		bo.PutUint16(h[40+2*i:], uint16(d))
	}
	bo.PutUint16(h[70:], uint16(n.Datatype))
	bo.PutUint16(h[72:], uint16(n.Bitpix))
	for i, p := range n.Pixdim {
		if p == 0 {
			p = 1
		}
		bo.PutUint32(h[80+4*i:], math.Float32bits(p))
	}
	bo.PutUint32(h[108:], math.Float32bits(352))
	bo.PutUint32(h[112:], math.Float32bits(n.Slope))
	bo.PutUint32(h[116:], math.Float32bits(n.Inter))
	copy(h[344:], n.Magic)
	var b bytes.Buffer
	b.Write(h)
	vox := n.Voxels[:len(n.Voxels)-n.DropVoxels]
	for _, v := range vox {
		var w [4]byte
		bo.PutUint32(w[:], math.Float32bits(float32(v)))
		b.Write(w[:])
	}
	b.Write(make([]byte, 4*n.ExtraVoxels))
	out := b.Bytes()
	if n.Truncate > 0 {
		out = out[:n.Truncate]
	}
	if !n.Gzip {
		return out
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(out)
	zw.Close()
	return z.Bytes()
}

// Ball is an nx×ny×nz volume of the distance from the centre's ball of
// radius r (in voxels): positive inside, so the isovalue 0 is a sphere.
// Voxels where hole says are NaN.
func Ball(nx, ny, nz int, r float64, hole func(x, y, z int) bool) Nii {
	n := Nii{Dim: [8]int16{3, int16(nx), int16(ny), int16(nz), 1, 1, 1, 1}}
	for z := 0; z < nz; z++ {
		for y := 0; y < ny; y++ {
			for x := 0; x < nx; x++ {
				dx, dy, dz := float64(x)-float64(nx-1)/2, float64(y)-float64(ny-1)/2, float64(z)-float64(nz-1)/2
				v := r - math.Sqrt(dx*dx+dy*dy+dz*dz)
				if hole != nil && hole(x, y, z) {
					v = math.NaN()
				}
				n.Voxels = append(n.Voxels, v)
			}
		}
	}
	return n
}

// Mesh is a PLY mesh to encode: vertices and polygons, in ASCII or binary.
type Mesh struct {
	Vertices [][3]float64
	Faces    [][]int
	Format   string // "ascii" (default), "binary_little_endian", "binary_big_endian"
	// VertexCount and FaceCount override the header's counts ("" keeps
	// the true ones).
	VertexCount, FaceCount string
}

// Bytes encodes m (float32 coordinates; a face is a uchar count and int
// indices).
func (m Mesh) Bytes() []byte {
	format := m.Format
	if format == "" {
		format = "ascii"
	}
	vc, fc := fmt.Sprint(len(m.Vertices)), fmt.Sprint(len(m.Faces))
	if m.VertexCount != "" {
		vc = m.VertexCount
	}
	if m.FaceCount != "" {
		fc = m.FaceCount
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "ply\nformat %s 1.0\nelement vertex %s\nproperty float x\nproperty float y\nproperty float z\nelement face %s\nproperty list uchar int vertex_indices\nend_header\n", format, vc, fc)
	var bo binary.ByteOrder = binary.LittleEndian
	if format == "binary_big_endian" {
		bo = binary.BigEndian
	}
	for _, v := range m.Vertices {
		if format == "ascii" {
			fmt.Fprintf(&b, "%g %g %g\n", float32(v[0]), float32(v[1]), float32(v[2]))
			continue
		}
		for _, c := range v {
			binary.Write(&b, bo, float32(c))
		}
	}
	for _, f := range m.Faces {
		if format == "ascii" {
			fmt.Fprintf(&b, "%d", len(f))
			for _, i := range f {
				fmt.Fprintf(&b, " %d", i)
			}
			b.WriteByte('\n')
			continue
		}
		b.WriteByte(byte(len(f)))
		for _, i := range f {
			binary.Write(&b, bo, int32(i))
		}
	}
	return b.Bytes()
}

// Cube is the cube [0,s]^3 shifted by off, as 8 shared corners and 6
// quads wound outward.
func Cube(s, off float64) Mesh {
	var m Mesh
	for i := 0; i < 8; i++ {
		m.Vertices = append(m.Vertices, [3]float64{off + s*float64(i&1), off + s*float64(i>>1&1), off + s*float64(i>>2)})
	}
	m.Faces = [][]int{{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}}
	return m
}

// Cases are the hostile files.
func Cases() []Case {
	ball := Ball(12, 10, 11, 4, nil)
	var cs []Case
	nii := func(name string, n Nii, want ...string) {
		cs = append(cs, Case{Name: name, Kind: NIfTI, Ext: ".nii", Data: n.Bytes(), Want: want})
	}
	with := func(f func(n *Nii)) Nii {
		n := ball
		n.Voxels = append([]float64(nil), ball.Voxels...)
		f(&n)
		return n
	}
	nii("ball", ball)
	cs = append(cs, Case{Name: "ball-gz", Kind: NIfTI, Ext: ".nii.gz", Data: with(func(n *Nii) { n.Gzip = true }).Bytes(), Like: "ball"})
	nii("truncated-header", with(func(n *Nii) { n.Truncate = 200 }), "header")
	nii("truncated-voxels", with(func(n *Nii) { n.DropVoxels = 7 }), "voxel")
	gz := with(func(n *Nii) { n.Gzip = true }).Bytes()
	cs = append(cs, Case{Name: "truncated-gzip", Kind: NIfTI, Ext: ".nii.gz", Data: gz[:len(gz)/2], Want: []string{"truncated"}})
	nii("bad-magic", with(func(n *Nii) { n.Magic = "abc\x00" }), "magic")
	nii("dim-zero", with(func(n *Nii) { n.Dim[2] = 0 }), "dim[2]", "0")
	nii("dim-negative", with(func(n *Nii) { n.Dim[1] = -12 }), "dim[1]", "-12")
	nii("dim-huge", with(func(n *Nii) { n.Dim = [8]int16{3, 32767, 32767, 32767, 1, 1, 1, 1} }), "dim", "32767")
	nii("four-d", with(func(n *Nii) { n.Dim[0], n.Dim[4] = 4, 2 }), "dim[4]", "2")
	nii("bad-datatype", with(func(n *Nii) { n.Datatype = 1234 }), "datatype", "1234")
	nii("bad-bitpix", with(func(n *Nii) { n.Bitpix = 7 }), "bitpix", "7")
	nii("pixdim-nan", with(func(n *Nii) { n.Pixdim[0] = float32(math.NaN()) }), "pixdim[1]", "NaN")
	nii("pixdim-inf", with(func(n *Nii) { n.Pixdim[1] = float32(math.Inf(1)) }), "pixdim[2]", "Inf")
	nii("pixdim-negative", with(func(n *Nii) { n.Pixdim[2] = -2 }), "pixdim[3]", "-2")
	cs = append(cs, Case{Name: "pixdim-huge", Kind: NIfTI, Ext: ".nii", Like: "ball",
		Data: with(func(n *Nii) { n.Pixdim = [3]float32{1e30, 1e30, 1e30} }).Bytes()})
	cs = append(cs, Case{Name: "pixdim-tiny", Kind: NIfTI, Ext: ".nii", Like: "ball",
		Data: with(func(n *Nii) { n.Pixdim = [3]float32{1e-20, 1e-20, 1e-20} }).Bytes()})
	nii("slope-nan", with(func(n *Nii) { n.Slope = float32(math.NaN()) }), "scl_slope", "NaN")
	nii("inter-inf", with(func(n *Nii) { n.Slope, n.Inter = 1, float32(math.Inf(-1)) }), "scl_inter", "-Inf")
	// A slope of 1e38 makes every voxel above 3.4 overflow float32: the
	// volume's values are not finite.
	nii("slope-overflow", with(func(n *Nii) { n.Slope = 1e38 }), "scl_slope", "float32")
	cs = append(cs, Case{Name: "slope-scaled", Kind: NIfTI, Ext: ".nii", Like: "ball",
		Data: with(func(n *Nii) { n.Slope, n.Inter = 1e-3, 5 }).Bytes()})
	// NaN along an edge of the grid, as outside a mask: the cells beside
	// it lie farther than 5.7 samples from the centre, outside the
	// surface at the default isovalue (4.7 from it), and the range, so
	// that isovalue, is the ball's: its picture must be the ball's.
	cs = append(cs, Case{Name: "nan-voxels", Kind: NIfTI, Ext: ".nii", Like: "ball", Say: []string{"10 of its 990 cells have a NaN"},
		Data: Ball(12, 10, 11, 4, func(x, y, z int) bool { return x == 0 && y == 0 }).Bytes()})
	nii("all-nan", Ball(6, 6, 6, 2, func(int, int, int) bool { return true }), "finite number")
	cs[len(cs)-1].Avoid = []string{"-iso"}
	nii("constant", with(func(n *Nii) {
		for i := range n.Voxels {
			n.Voxels[i] = 3
		}
	}), "empty", "default isovalue 3")
	cs[len(cs)-1].Avoid = []string{"flag -iso"}
	nii("side-of-one", Ball(1, 9, 9, 3, nil), "side of 1", "1x9x9")
	cs[len(cs)-1].Avoid = []string{"-iso"}

	ply := func(name string, m Mesh, want ...string) {
		cs = append(cs, Case{Name: name, Kind: PLY, Ext: ".ply", Data: m.Bytes(), Want: want})
	}
	cube := Cube(1, 0)
	ply("cube", cube)
	for _, f := range []string{"binary_little_endian", "binary_big_endian"} {
		m := cube
		m.Format = f
		cs = append(cs, Case{Name: "cube-" + f, Kind: PLY, Ext: ".ply", Data: m.Bytes(), Like: "cube"})
	}
	cs = append(cs, Case{Name: "cube-huge", Kind: PLY, Ext: ".ply", Data: Cube(1e20, 3e20).Bytes(), Like: "cube"})
	cs = append(cs, Case{Name: "cube-far", Kind: PLY, Ext: ".ply", Data: Cube(1, 1e7).Bytes(), Like: "cube"})
	m := cube
	m.VertexCount = "-5"
	ply("count-negative", m, "vertex", "-5")
	m = cube
	m.VertexCount = "99999999999"
	ply("count-huge", m, "vertex", "99999999999")
	m = cube
	m.FaceCount = "9"
	ply("count-short", m, "face", "truncated", "9")
	m = cube
	m.Faces = append(append([][]int(nil), cube.Faces...), []int{0, 1, 8})
	ply("index-out-of-range", m, "vertex 8")
	m = cube
	m.Faces = append(append([][]int(nil), cube.Faces...), []int{0, -1, 2})
	ply("index-negative", m, "vertex -1")
	m = Cube(1, 0)
	m.Vertices[3] = [3]float64{math.NaN(), 0, 0}
	ply("coordinate-nan", m, "NaN")
	m = Cube(1, 0)
	m.Vertices[5] = [3]float64{0, math.Inf(1), 0}
	ply("coordinate-inf", m, "Inf")
	m = Cube(1, 0)
	m.Vertices[5] = [3]float64{0, 1e39, 0} // float32 overflow
	ply("coordinate-overflow", m, "Inf")
	ply("no-faces", Mesh{Vertices: cube.Vertices}, "no triangles")
	cs = append(cs, Case{Name: "not-ply", Kind: PLY, Ext: ".ply", Data: []byte("solid cube\nendsolid\n"), Want: []string{"ply"}})

	gr := func(name, text string, want ...string) {
		cs = append(cs, Case{Name: name, Kind: DIMACS, Ext: ".gr", Data: []byte(text), Want: want})
	}
	gr("graph", "c a ring\np sp 4 4\na 1 2 3\na 2 3 1\na 3 4 4\na 4 1 2\n")
	gr("no-problem-line", "a 1 2 3\n", ":1:", "arc before")
	gr("vertex-out-of-range", "p sp 3 1\na 1 4 2\n", ":2:", "4")
	gr("weight-negative", "p sp 3 1\na 1 2 -2\n", ":2:", "-2")
	gr("weight-huge", "p sp 3 1\na 1 2 99999999999999999999999\n", ":2:", "99999999999999999999999", "range")
	gr("vertices-huge", "p sp 9999999999 0\n", ":1:", "9999999999")
	gr("arc-count", "p sp 3 2\na 1 2 2\n", "arcs")
	gr("empty", "", "problem line")
	return cs
}
