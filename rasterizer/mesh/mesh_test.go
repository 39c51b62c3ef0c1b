package mesh

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
)

// tetra is a closed tetrahedron wound outward, with normals.
func tetra() *Mesh {
	m := &Mesh{
		Positions: [][3]float32{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
		Faces:     [][3]uint32{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}},
	}
	m.ComputeNormals()
	return m
}

func TestSoupRoundTrip(t *testing.T) {
	m := tetra()
	pos, nrm := m.Soup()
	if len(pos) != 12 || pos[3*3+1] != m.Positions[2] {
		t.Fatalf("soup: %v", pos)
	}
	back := FromSoup(pos, nrm)
	if len(back.Positions) != 4 || len(back.Faces) != 4 {
		t.Fatalf("FromSoup welded to %d vertices, %d faces", len(back.Positions), len(back.Faces))
	}
	p2, n2 := back.Soup()
	for i := range pos {
		if p2[i] != pos[i] || n2[i] != nrm[i] {
			t.Fatalf("vertex %d: %v %v, want %v %v", i, p2[i], n2[i], pos[i], nrm[i])
		}
	}
	lo, hi, ok := m.Bounds()
	if !ok || lo != [3]float32{} || hi != [3]float32{1, 1, 1} {
		t.Fatalf("bounds %v %v %v", lo, hi, ok)
	}
	for i := range m.Faces {
		c := [3]float32{0.25, 0.25, 0.25}
		f := m.Faces[i]
		if Dot(m.FaceNormal(i), Sub(m.Positions[f[0]], c)) <= 0 {
			t.Fatalf("tetra face %d faces inward", i)
		}
	}
	if n := m.Normals[0]; math.Abs(float64(Dot(n, n))-1) > 1e-6 || n[0] >= 0 {
		t.Fatalf("vertex 0 normal %v", n)
	}
}

func TestPLYRoundTrip(t *testing.T) {
	for _, withNormals := range []bool{true, false} {
		m := tetra()
		if !withNormals {
			m.Normals = nil
		}
		var buf bytes.Buffer
		if err := WritePLY(&buf, m); err != nil {
			t.Fatal(err)
		}
		got, err := ReadPLY(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if !equalMesh(got, m) {
			t.Fatalf("normals %v: read back %+v, want %+v", withNormals, got, m)
		}
	}
}

func equalMesh(a, b *Mesh) bool {
	if len(a.Positions) != len(b.Positions) || len(a.Faces) != len(b.Faces) || (a.Normals == nil) != (b.Normals == nil) {
		return false
	}
	for i := range a.Positions {
		if a.Positions[i] != b.Positions[i] || a.Normals != nil && a.Normals[i] != b.Normals[i] {
			return false
		}
	}
	for i := range a.Faces {
		if a.Faces[i] != b.Faces[i] {
			return false
		}
	}
	return true
}

const asciiQuad = `ply
format ascii 1.0
comment a unit quad and a pentagon, with colours to skip
element vertex 6
property double x
property double y
property double z
property uchar red
element material 1
property list uchar float values
element face 2
property uchar flags
property list uchar int vertex_index
end_header
0 0 0 255
1 0 0 0
1 1 0 0
0 1 0 0
2 0 0 9
2 1 0 9
3 0.5 0.25 1
7 4 0 1 2 3
1 5 1 4 5 2 3
`

func TestPLYASCIIAndPolygons(t *testing.T) {
	m, err := ReadPLY(strings.NewReader(asciiQuad))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Positions) != 6 || m.Normals != nil || len(m.Faces) != 2+3 {
		t.Fatalf("read %d vertices, normals %v, %d faces", len(m.Positions), m.Normals != nil, len(m.Faces))
	}
	if m.Faces[1] != [3]uint32{0, 2, 3} || m.Faces[2] != [3]uint32{1, 4, 5} || m.Positions[5] != [3]float32{2, 1, 0} {
		t.Fatalf("fanned faces %v, positions %v", m.Faces, m.Positions)
	}
}

// bigEndianPLY hand-encodes one triangle as big-endian doubles with short
// indices counted by an int.
func bigEndianPLY() []byte {
	var b bytes.Buffer
	b.WriteString("ply\nformat binary_big_endian 1.0\nelement vertex 3\nproperty double x\nproperty double y\nproperty double z\n" +
		"property float nx\nproperty float ny\nproperty float nz\nelement face 1\nproperty list int ushort vertex_indices\nend_header\n")
	for i, p := range [][3]float64{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}} {
		for _, c := range p {
			binary.Write(&b, binary.BigEndian, c)
		}
		binary.Write(&b, binary.BigEndian, [3]float32{0, 0, float32(i)})
	}
	binary.Write(&b, binary.BigEndian, int32(3))
	binary.Write(&b, binary.BigEndian, [3]uint16{0, 1, 2})
	return b.Bytes()
}

func TestPLYBigEndian(t *testing.T) {
	m, err := ReadPLY(bytes.NewReader(bigEndianPLY()))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Faces) != 1 || m.Faces[0] != [3]uint32{0, 1, 2} || m.Positions[1] != [3]float32{1, 0, 0} || m.Normals[2] != [3]float32{0, 0, 2} {
		t.Fatalf("big-endian: %+v", m)
	}
}

func TestPLYRejects(t *testing.T) {
	var good bytes.Buffer
	WritePLY(&good, tetra())
	g := good.Bytes()
	cases := []struct{ name, file, want string }{
		{"empty", "", "magic"},
		{"magic", "plx\n", "magic"},
		{"no end_header", "ply\nformat ascii 1.0\n", "end_header"},
		{"no format", "ply\nelement vertex 0\nend_header\n", "no format"},
		{"format", "ply\nformat binary 1.0\nend_header\n", "format \"binary\""},
		{"version", "ply\nformat ascii 2.0\nend_header\n", "version 1.0"},
		{"count", "ply\nformat ascii 1.0\nelement vertex -1\nend_header\n", "count \"-1\""},
		{"huge count", "ply\nformat ascii 1.0\nelement vertex 99999999999\nend_header\n", "count"},
		{"type", "ply\nformat ascii 1.0\nelement vertex 1\nproperty quad x\nend_header\n", "unknown type"},
		{"float count", "ply\nformat ascii 1.0\nelement face 1\nproperty list float int vertex_indices\nend_header\n", "count type"},
		{"no x", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float y\nproperty float z\nend_header\n1 2\n", "no property x"},
		{"no vertex", "ply\nformat ascii 1.0\nend_header\n", "no vertex element"},
		{"face first", "ply\nformat ascii 1.0\nelement face 0\nproperty list uchar int vertex_indices\nelement vertex 0\nproperty float x\nproperty float y\nproperty float z\nend_header\n", "before the vertex"},
		{"index", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n3 0 0 1\n", "uses vertex 1 of 1"},
		{"two-gon", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n2 0 0\n", "at least 3"},
		{"not a number", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 zero 0\n", "not a number"},
		{"fraction index", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n3 0 0.5 0\n", "not an integer"},
		{"nan", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 nan 0\n", "vertex 0: y is NaN, want a finite number"},
		{"truncated binary", string(g[:len(g)-5]), "truncated"},
		{"truncated vertices", string(g[:len(g)-4*13-20]), "truncated in vertex"},
	}
	for _, c := range cases {
		_, err := ReadPLY(strings.NewReader(c.file))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func TestGPURoundTrip(t *testing.T) {
	c := gputest.Context(t)
	before := c.Live()
	m := tetra()
	g, err := Upload(c, m)
	if err != nil {
		t.Fatal(err)
	}
	if g.N != 4 || g.Cap() != 4 {
		t.Fatalf("N %d Cap %d", g.N, g.Cap())
	}
	// The bounds, without a download.
	lo, hi, ok := g.Bounds()
	mlo, mhi, _ := m.Bounds()
	if !ok || lo != mlo || hi != mhi {
		t.Fatalf("GPU bounds %v %v %v, the mesh's %v %v", lo, hi, ok, mlo, mhi)
	}
	raw := g.Positions.Download()
	if raw[3*3+2] != (Vec4{0, 0, 1, 1}) || g.Normals.Get(0)[3] != 0 {
		t.Fatalf("layout: triangle 3 vertex 2 is %v, want (0,0,1,1)", raw[3*3+2])
	}
	// Download welds vertices in order of first use: compare the soups.
	p1, n1 := g.Download().Soup()
	p0, n0 := m.Soup()
	for i := range p0 {
		if p1[i] != p0[i] || n1[i] != n0[i] {
			t.Fatalf("download: vertex %d is %v %v, want %v %v", i, p1[i], n1[i], p0[i], n0[i])
		}
	}
	g.Delete()
	// Without normals, Upload computes them and leaves m alone.
	m.Normals = nil
	g, err = Upload(c, m)
	if err != nil {
		t.Fatal(err)
	}
	if m.Normals != nil || g.Download().Normals == nil {
		t.Fatal("Upload of a mesh without normals")
	}
	g.Delete()
	e, err := NewGPU(c, 0)
	if err != nil || e.N != 0 || len(e.Download().Faces) != 0 {
		t.Fatalf("empty GPU mesh: %v", err)
	}
	if _, _, ok := e.Bounds(); ok {
		t.Fatal("bounds of an empty GPU mesh")
	}
	e.Delete()
	if after := c.Live(); after != before {
		t.Fatalf("GL objects leaked: %v before, %v after", before, after)
	}
	if _, err := NewGPU(c, int(c.Caps().MaxSSBOSize/48)+1); err == nil || !strings.Contains(err.Error(), "mesh: NewGPU") {
		t.Fatalf("over-limit NewGPU: %v", err)
	}
	if after := c.Live(); after != before {
		t.Fatalf("failed NewGPU leaked: %v before, %v after", before, after)
	}
}

// FuzzReadPLY: ReadPLY must never panic, and what it accepts must be a
// valid mesh that survives a write and a read unchanged.
func FuzzReadPLY(f *testing.F) {
	var b bytes.Buffer
	WritePLY(&b, tetra())
	f.Add(b.Bytes())
	f.Add([]byte(asciiQuad))
	f.Add(bigEndianPLY())
	f.Fuzz(func(t *testing.T, file []byte) {
		m, err := ReadPLY(bytes.NewReader(file))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "mesh: ") {
				t.Fatalf("error without the package prefix: %v", err)
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := WritePLY(&out, m); err != nil {
			t.Fatal(err)
		}
		back, err := ReadPLY(&out)
		if err != nil || !equalMesh(back, m) {
			t.Fatalf("write and read back: %v", err)
		}
	})
}
