package mesh

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// binaryPLY encodes vertices as doubles (x y z) and faces as lists of
// uchar count and int indices, in the given byte order, with the counts
// the header declares (which may differ from what follows).
func binaryPLY(order binary.ByteOrder, nv, nf int, verts [][3]float64, faces [][]int32) []byte {
	var b bytes.Buffer
	name := "binary_little_endian"
	if order == binary.BigEndian {
		name = "binary_big_endian"
	}
	fmt.Fprintf(&b, "ply\nformat %s 1.0\nelement vertex %d\nproperty double x\nproperty double y\nproperty double z\n"+
		"element face %d\nproperty list uchar int vertex_indices\nend_header\n", name, nv, nf)
	for _, v := range verts {
		binary.Write(&b, order, v)
	}
	for _, f := range faces {
		b.WriteByte(byte(len(f)))
		binary.Write(&b, order, f)
	}
	return b.Bytes()
}

// hostilePLY are damaged files and what ReadPLY must say of each: the
// element, the item and the value.
func hostilePLY() []struct {
	name string
	file []byte
	want string
} {
	tri := [][3]float64{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}
	face := [][]int32{{0, 1, 2}}
	type c = struct {
		name string
		file []byte
		want string
	}
	var out []c
	for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		o := order.String()
		out = append(out,
			c{o + " more vertices declared than present", binaryPLY(order, 1000, 1, tri, face), "data truncated in vertex.y (unexpected EOF) (vertex 3 of the 1000 the header declares)"},
			c{o + " more faces declared than present", binaryPLY(order, 3, 7, tri, face), "(face 1 of the 7 the header declares)"},
			c{o + " index out of range", binaryPLY(order, 3, 1, tri, [][]int32{{0, 1, 3}}), "face 0 uses vertex 3 of 3: vertex_indices must be 0..2"},
			c{o + " negative index", binaryPLY(order, 3, 1, tri, [][]int32{{0, -1, 2}}), "face 0 uses vertex -1 of 3"},
			c{o + " NaN coordinate", binaryPLY(order, 3, 1, [][3]float64{{0, 0, 0}, {1, math.NaN(), 0}, {0, 1, 0}}, face), "vertex 1: y is NaN, want a finite number"},
			c{o + " Inf coordinate", binaryPLY(order, 3, 1, [][3]float64{{0, 0, 0}, {1, 0, 0}, {0, 1, math.Inf(-1)}}, face), "vertex 2: z is -Inf, want a finite number"},
			c{o + " coordinate beyond float32", binaryPLY(order, 3, 1, [][3]float64{{1e300, 0, 0}, {1, 0, 0}, {0, 1, 0}}, face), "vertex 0: x is 1e+300, beyond float32's"},
		)
	}
	out = append(out,
		c{"list count beyond the limit", []byte("ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list int int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n70000 0 1 2\n"),
			"face.vertex_indices: list count 70000, want 0..65536 (face 0 of the 1 the header declares)"},
		c{"negative list count", []byte("ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list char int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n-3 0 1 2\n"),
			"list count -3"},
		c{"count beyond the limit", []byte("ply\nformat ascii 1.0\nelement vertex 268435457\nend_header\n"), "element vertex count \"268435457\": want 0..268435456"},
		c{"count not a number", []byte("ply\nformat ascii 1.0\nelement vertex many\nend_header\n"), "element vertex count \"many\""},
	)
	return out
}

func TestPLYHostile(t *testing.T) {
	dir := t.TempDir()
	for i, c := range hostilePLY() {
		path := filepath.Join(dir, fmt.Sprintf("hostile%d.ply", i))
		if err := os.WriteFile(path, c.file, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadPLY(path)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), path+": mesh: PLY: ") {
			t.Errorf("%s: error %v, want one starting with the file's name and containing %q", c.name, err, c.want)
		}
	}
}

// TestPLYBothByteOrders: the same triangles in either byte order read the
// same, huge but finite coordinates included (the renderer brings them into
// range; the reader must not refuse them).
func TestPLYBothByteOrders(t *testing.T) {
	verts := [][3]float64{{0, 0, 0}, {1e20, 0, 0}, {0, -1e20, 3}, {2, 2, 2}}
	faces := [][]int32{{0, 1, 2}, {0, 2, 3, 1}}
	var first *Mesh
	for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		m, err := ReadPLY(bytes.NewReader(binaryPLY(order, 4, 2, verts, faces)))
		if err != nil {
			t.Fatalf("%s: %v", order, err)
		}
		if len(m.Faces) != 3 || m.Positions[1] != [3]float32{1e20, 0, 0} || m.Positions[2] != [3]float32{0, -1e20, 3} || m.Faces[2] != [3]uint32{0, 3, 1} {
			t.Fatalf("%s: %+v", order, m)
		}
		if first != nil && !equalMesh(first, m) {
			t.Fatalf("the byte orders differ: %+v and %+v", first, m)
		}
		first = m
	}
}
