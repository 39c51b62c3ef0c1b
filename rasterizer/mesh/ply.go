package mesh

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/dpgl/dpgl/internal/fileio"
)

// WritePLY writes m as binary little-endian PLY: vertex x y z (and nx ny nz
// when m has normals) as float, faces as a list uchar uint vertex_indices.
// Other tools (MeshLab, Blender, ParaView) read it as is.
func WritePLY(w io.Writer, m *Mesh) error {
	if err := m.Validate(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "ply\nformat binary_little_endian 1.0\ncomment written by dpgl\nelement vertex %d\n", len(m.Positions))
	bw.WriteString("property float x\nproperty float y\nproperty float z\n")
	if m.Normals != nil {
		bw.WriteString("property float nx\nproperty float ny\nproperty float nz\n")
	}
	fmt.Fprintf(bw, "element face %d\nproperty list uchar uint vertex_indices\nend_header\n", len(m.Faces))
	var b [4]byte
	put := func(f float32) {
		binary.LittleEndian.PutUint32(b[:], math.Float32bits(f))
		bw.Write(b[:])
	}
	for i, p := range m.Positions {
		put(p[0])
		put(p[1])
		put(p[2])
		if m.Normals != nil {
			n := m.Normals[i]
			put(n[0])
			put(n[1])
			put(n[2])
		}
	}
	for _, f := range m.Faces {
		bw.WriteByte(3)
		for _, v := range f {
			binary.LittleEndian.PutUint32(b[:], v)
			bw.Write(b[:])
		}
	}
	return bw.Flush()
}

// SavePLY writes m to a file with WritePLY, atomically: a failure leaves
// no partial file and an older file at path as it was.
func SavePLY(path string, m *Mesh) error {
	return fileio.Write(path, func(w io.Writer) error { return WritePLY(w, m) })
}

// LoadPLY reads a file with ReadPLY.
func LoadPLY(path string) (*Mesh, error) {
	f, err := fileio.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := ReadPLY(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// plyMaxElements bounds an element count, and plyMaxList a face's vertex
// count: larger values are taken for damage.
const (
	plyMaxElements = 1 << 28
	plyMaxList     = 1 << 16
)

type plyProp struct {
	name      string
	typ       string // scalar type, or the item type of a list
	countType string // "" for a scalar
}

type plyElement struct {
	name  string
	count int
	props []plyProp
}

var plySizes = map[string]int{
	"char": 1, "int8": 1, "uchar": 1, "uint8": 1, "short": 2, "int16": 2, "ushort": 2, "uint16": 2,
	"int": 4, "int32": 4, "uint": 4, "uint32": 4, "float": 4, "float32": 4, "double": 8, "float64": 8,
}

// ReadPLY reads a PLY mesh in any of the three formats (ascii,
// binary_little_endian, binary_big_endian): vertex positions x y z of any
// numeric type, normals nx ny nz when all three are present, and the face
// list vertex_indices (or vertex_index) with polygons fanned into
// triangles. Other elements and properties are skipped. Malformed headers,
// indices out of range and truncated data are errors.
func ReadPLY(r io.Reader) (*Mesh, error) {
	br := bufio.NewReader(r)
	elems, order, err := readPLYHeader(br)
	if err != nil {
		return nil, err
	}
	var rd plyReader
	if order == nil {
		rd = plyReader{&plyASCII{br: br}}
	} else {
		rd = plyReader{&plyBinary{br: br, order: order}}
	}
	m := &Mesh{}
	haveVertex := false
	for _, el := range elems {
		switch el.name {
		case "vertex":
			if haveVertex {
				return nil, errors.New("mesh: PLY: two vertex elements")
			}
			haveVertex = true
			if err := readPLYVertices(rd, el, m); err != nil {
				return nil, err
			}
		case "face":
			if !haveVertex {
				return nil, errors.New("mesh: PLY: face element before the vertex element")
			}
			if err := readPLYFaces(rd, el, m); err != nil {
				return nil, err
			}
		default:
			for i := 0; i < el.count && len(el.props) > 0; i++ {
				for _, p := range el.props {
					if _, err := rd.read(p, el.name); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	if !haveVertex {
		return nil, errors.New("mesh: PLY: no vertex element")
	}
	return m, m.Validate()
}

func readPLYHeader(br *bufio.Reader) ([]plyElement, binary.ByteOrder, error) {
	// ReadSlice, not ReadString: a line is read within br's 4 KiB buffer,
	// so a file without a newline (/dev/zero) is refused after 4 KiB, not
	// read whole first.
	line := func() (string, error) {
		s, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			return "", fmt.Errorf("mesh: PLY: header line longer than %d bytes", br.Size())
		}
		if err != nil {
			return "", fmt.Errorf("mesh: PLY: header ends without end_header (%w)", unexpectedEOF(err))
		}
		return strings.TrimRight(string(s), "\r\n"), nil
	}
	if s, err := line(); err != nil || s != "ply" {
		return nil, nil, errors.New(`mesh: PLY: magic: the file does not start with "ply"`)
	}
	var elems []plyElement
	var order binary.ByteOrder
	format := false
	for n := 0; ; n++ {
		if n > 10000 {
			return nil, nil, errors.New("mesh: PLY: header has more than 10000 lines")
		}
		s, err := line()
		if err != nil {
			return nil, nil, err
		}
		f := strings.Fields(s)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "comment", "obj_info":
		case "format":
			if len(f) != 3 || f[2] != "1.0" {
				return nil, nil, fmt.Errorf("mesh: PLY: format line %q: want version 1.0", s)
			}
			switch f[1] {
			case "ascii":
			case "binary_little_endian":
				order = binary.LittleEndian
			case "binary_big_endian":
				order = binary.BigEndian
			default:
				return nil, nil, fmt.Errorf("mesh: PLY: format %q is not ascii, binary_little_endian or binary_big_endian", f[1])
			}
			format = true
		case "element":
			if len(f) != 3 {
				return nil, nil, fmt.Errorf("mesh: PLY: element line %q", s)
			}
			c, err := strconv.Atoi(f[2])
			if err != nil || c < 0 || c > plyMaxElements {
				return nil, nil, fmt.Errorf("mesh: PLY: element %s count %q: want 0..%d", f[1], f[2], plyMaxElements)
			}
			elems = append(elems, plyElement{name: f[1], count: c})
		case "property":
			if len(elems) == 0 {
				return nil, nil, fmt.Errorf("mesh: PLY: property %q before any element", s)
			}
			var p plyProp
			switch {
			case len(f) == 3:
				p = plyProp{name: f[2], typ: f[1]}
			case len(f) == 5 && f[1] == "list":
				p = plyProp{name: f[4], typ: f[3], countType: f[2]}
				if _, ok := plySizes[p.countType]; !ok || strings.Contains(p.countType, "float") || p.countType == "double" {
					return nil, nil, fmt.Errorf("mesh: PLY: property %s: list count type %q is not an integer type", p.name, p.countType)
				}
			default:
				return nil, nil, fmt.Errorf("mesh: PLY: property line %q", s)
			}
			if _, ok := plySizes[p.typ]; !ok {
				return nil, nil, fmt.Errorf("mesh: PLY: property %s: unknown type %q", p.name, p.typ)
			}
			el := &elems[len(elems)-1]
			el.props = append(el.props, p)
		case "end_header":
			if !format {
				return nil, nil, errors.New("mesh: PLY: header has no format line")
			}
			return elems, order, nil
		default:
			return nil, nil, fmt.Errorf("mesh: PLY: unknown header keyword %q", f[0])
		}
	}
}

// plyValues reads one value of a PLY type from the body: binary or ascii.
type plyValues interface {
	value(typ, what string) (float64, error)
}

// plyReader reads one property value: a scalar, or a list (returned
// through readList).
type plyReader struct{ v plyValues }

// read reads a scalar property, or skips a list property and returns 0.
func (r plyReader) read(p plyProp, elem string) (float64, error) {
	if p.countType != "" {
		_, err := r.readList(p, elem, nil)
		return 0, err
	}
	return r.v.value(p.typ, elem+"."+p.name)
}

// readList reads a list property into dst[:0].
func (r plyReader) readList(p plyProp, elem string, dst []float64) ([]float64, error) {
	what := elem + "." + p.name
	c, err := r.v.value(p.countType, what)
	if err != nil {
		return nil, err
	}
	if c < 0 || c > plyMaxList {
		return nil, fmt.Errorf("mesh: PLY: %s: list count %v, want 0..%d", what, c, plyMaxList)
	}
	dst = dst[:0]
	for i := 0; i < int(c); i++ {
		v, err := r.v.value(p.typ, what)
		if err != nil {
			return nil, err
		}
		dst = append(dst, v)
	}
	return dst, nil
}

type plyBinary struct {
	br    *bufio.Reader
	order binary.ByteOrder
	buf   [8]byte
}

func (b *plyBinary) value(typ, what string) (float64, error) {
	n := plySizes[typ]
	if _, err := io.ReadFull(b.br, b.buf[:n]); err != nil {
		return 0, fmt.Errorf("mesh: PLY: data truncated in %s (%w)", what, unexpectedEOF(err))
	}
	s := b.buf[:n]
	switch typ {
	case "char", "int8":
		return float64(int8(s[0])), nil
	case "uchar", "uint8":
		return float64(s[0]), nil
	case "short", "int16":
		return float64(int16(b.order.Uint16(s))), nil
	case "ushort", "uint16":
		return float64(b.order.Uint16(s)), nil
	case "int", "int32":
		return float64(int32(b.order.Uint32(s))), nil
	case "uint", "uint32":
		return float64(b.order.Uint32(s)), nil
	case "float", "float32":
		return float64(math.Float32frombits(b.order.Uint32(s))), nil
	}
	return math.Float64frombits(b.order.Uint64(s)), nil
}

// unexpectedEOF is err, with io.EOF made io.ErrUnexpectedEOF: the body
// ended where the header promised more.
func unexpectedEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

type plyASCII struct {
	br *bufio.Reader
}

func (a *plyASCII) token(what string) (string, error) {
	var sb strings.Builder
	for {
		c, err := a.br.ReadByte()
		if err != nil {
			if sb.Len() > 0 && err == io.EOF {
				return sb.String(), nil
			}
			return "", fmt.Errorf("mesh: PLY: data truncated in %s (%w)", what, unexpectedEOF(err))
		}
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			if sb.Len() > 0 {
				return sb.String(), nil
			}
			continue
		}
		if sb.Len() > 64 {
			return "", fmt.Errorf("mesh: PLY: %s: number longer than 64 characters", what)
		}
		sb.WriteByte(c)
	}
}

func (a *plyASCII) value(typ, what string) (float64, error) {
	t, err := a.token(what)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return 0, fmt.Errorf("mesh: PLY: %s: %q is not a number", what, t)
	}
	if !strings.Contains(typ, "float") && typ != "double" && v != math.Trunc(v) {
		return 0, fmt.Errorf("mesh: PLY: %s: %q is not an integer", what, t)
	}
	return v, nil
}

func readPLYVertices(rd plyReader, el plyElement, m *Mesh) error {
	idx := map[string]int{}
	for i, p := range el.props {
		idx[p.name] = i
	}
	for _, c := range []string{"x", "y", "z"} {
		i, ok := idx[c]
		if !ok {
			return fmt.Errorf("mesh: PLY: vertex element has no property %s", c)
		}
		if el.props[i].countType != "" {
			return fmt.Errorf("mesh: PLY: vertex property %s is a list", c)
		}
	}
	_, nx := idx["nx"]
	_, ny := idx["ny"]
	_, nz := idx["nz"]
	normals := nx && ny && nz
	vals := make([]float64, len(el.props))
	m.Positions = make([][3]float32, 0, min(el.count, 1<<16))
	if normals {
		m.Normals = make([][3]float32, 0, min(el.count, 1<<16))
	}
	for i := 0; i < el.count; i++ {
		for j, p := range el.props {
			v, err := rd.read(p, "vertex")
			if err != nil {
				return fmt.Errorf("%w (vertex %d of the %d the header declares)", err, i, el.count)
			}
			vals[j] = v
		}
		var bad error
		get := func(n string) float32 {
			v := vals[idx[n]]
			f := float32(v)
			if bad == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
				bad = fmt.Errorf("mesh: PLY: vertex %d: %s is %v, want a finite number", i, n, v)
			} else if bad == nil && math.IsInf(float64(f), 0) {
				bad = fmt.Errorf("mesh: PLY: vertex %d: %s is %g, beyond float32's ±%g", i, n, v, math.MaxFloat32)
			}
			return f
		}
		m.Positions = append(m.Positions, [3]float32{get("x"), get("y"), get("z")})
		if normals {
			m.Normals = append(m.Normals, [3]float32{get("nx"), get("ny"), get("nz")})
		}
		if bad != nil {
			return bad
		}
	}
	return nil
}

func readPLYFaces(rd plyReader, el plyElement, m *Mesh) error {
	list := -1
	for i, p := range el.props {
		if (p.name == "vertex_indices" || p.name == "vertex_index") && p.countType != "" {
			list = i
		}
	}
	if list < 0 {
		return errors.New("mesh: PLY: face element has no list property vertex_indices")
	}
	if t := el.props[list].typ; strings.Contains(t, "float") || t == "double" {
		return fmt.Errorf("mesh: PLY: face vertex_indices of type %s, want an integer type", t)
	}
	m.Faces = make([][3]uint32, 0, min(el.count, 1<<16))
	var poly []float64
	nv := float64(len(m.Positions))
	for i := 0; i < el.count; i++ {
		for j, p := range el.props {
			if j != list {
				if _, err := rd.read(p, "face"); err != nil {
					return fmt.Errorf("%w (face %d of the %d the header declares)", err, i, el.count)
				}
				continue
			}
			var err error
			if poly, err = rd.readList(p, "face", poly); err != nil {
				return fmt.Errorf("%w (face %d of the %d the header declares)", err, i, el.count)
			}
		}
		if len(poly) < 3 {
			return fmt.Errorf("mesh: PLY: face %d has %d vertices, want at least 3", i, len(poly))
		}
		for _, v := range poly {
			if v < 0 || v >= nv {
				return fmt.Errorf("mesh: PLY: face %d uses vertex %v of %d: vertex_indices must be 0..%d", i, v, len(m.Positions), len(m.Positions)-1)
			}
		}
		for k := 1; k+1 < len(poly); k++ {
			m.Faces = append(m.Faces, [3]uint32{uint32(poly[0]), uint32(poly[k]), uint32(poly[k+1])})
		}
	}
	return nil
}
