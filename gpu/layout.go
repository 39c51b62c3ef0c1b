package gpu

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/go-gl/gl/v4.5-core/gl"
)

// The struct-layout check. A Buffer[T] holds Go values byte for byte; the
// shader reads them with the std430 layout of the block it is bound to. When
// the block's array has another stride than T's size (a Go record of 8 bytes
// where the GLSL struct has 12), every element after the first is read from
// the wrong place and the results are silently wrong. So each dispatch
// compares, for every active storage block of the program that ends in an
// array, the array stride the driver reports (the program interface query
// GL_TOP_LEVEL_ARRAY_STRIDE; for an array of scalars, vectors or matrices,
// for which Mesa reports 0, the std430 stride of the element's GL_TYPE, see
// std430.go) with the element size of the Buffer or Range
// bound at the block's binding (BindStorage records it), and panics naming
// the block and both sizes (see storageBlock.fits for the views of words and
// vectors it allows). Storage of other types (not a Buffer or Range) is not
// checked.

// storageBlock is one active shader storage block of a program.
type storageBlock struct {
	name    string
	binding int
	stride  int    // the stride of its last top-level array, 0 when it has none
	records bool   // that array's elements are structs
	elem    string // their GLSL type where they are not: "vec3"
	comp    int    // the size of elem's components (4 or 8 bytes)
	padded  bool   // elem holds padding (vec3, mat3: std430.go)
}

// fits reports whether storage of Go elements of size bytes, records
// (structs or arrays) or not, may be bound to b. A Go record bound to an
// array of GLSL structs is the twin of that struct and must have exactly
// its size. An array of scalars, vectors or matrices without padding is a
// dense run of components, which storage of any whole number of components
// may be a view of (a buffer of records bound to a uint[] that moves them
// word by word, or to a uvec4[] that loads four records' words at a time;
// a Buffer[uint32] read as uvec4s). Other pairs are views where one size
// must divide the other: a padded vec3[] read from [4]float32s, or a buffer
// holding GLSL structs whose layout only the shaders know; a [3]float32
// bound to a vec3[] is neither.
func (b storageBlock) fits(size int, record bool) bool {
	switch {
	case b.stride == 0 || size == b.stride:
		return true
	case b.elem != "" && !b.padded:
		return size%b.comp == 0 || b.comp%size == 0
	case record && b.records:
		return false
	}
	return size%b.stride == 0 || b.stride%size == 0
}

// ofType names the GLSL type of b's array elements for a message: " (an
// array of vec3)", or nothing for structs.
func (b storageBlock) ofType() string {
	if b.elem == "" {
		return ""
	}
	return " (an array of " + b.elem + ")"
}

// elemStorage is what Buffer[T] and Range[T] tell the layout check.
type elemStorage interface {
	elemSize() int
	elemType() string
	elemRecord() bool
	isDeleted() bool
	owner() *Context
}

func (b *Buffer[T]) elemSize() int       { return esize[T]() }
func (b *Buffer[T]) elemType() string    { return fmt.Sprintf("%T", *new(T)) }
func (b *Buffer[T]) isDeleted() bool     { return b.deleted }
func (b *Buffer[T]) storageKind() string { return "Buffer" }
func (b *Buffer[T]) owner() *Context     { return b.ctx }
func (r Range[T]) owner() *Context {
	if r.Buf == nil {
		return nil
	}
	return r.Buf.ctx
}
func (b *Buffer[T]) elemRecord() bool { return isRecord[T]() }
func (r Range[T]) elemRecord() bool   { return isRecord[T]() }
func (r Range[T]) elemSize() int      { return esize[T]() }
func (r Range[T]) elemType() string   { return fmt.Sprintf("%T", *new(T)) }
func (r Range[T]) isDeleted() bool    { return r.Buf != nil && r.Buf.deleted }

func isRecord[T any]() bool {
	k := reflect.TypeFor[T]().Kind()
	return k == reflect.Struct || k == reflect.Array
}

// storageBlocks lists p's active storage blocks, queried once. On the GL
// thread.
func (p *Program) storageBlocks() []storageBlock {
	if p.blocks != nil {
		return p.blocks
	}
	var n, nameLen, varNameLen int32
	gl.GetProgramInterfaceiv(p.id, gl.SHADER_STORAGE_BLOCK, gl.ACTIVE_RESOURCES, &n)
	gl.GetProgramInterfaceiv(p.id, gl.SHADER_STORAGE_BLOCK, gl.MAX_NAME_LENGTH, &nameLen)
	gl.GetProgramInterfaceiv(p.id, gl.BUFFER_VARIABLE, gl.MAX_NAME_LENGTH, &varNameLen)
	buf := make([]byte, nameLen+1)
	varBuf := make([]byte, varNameLen+1)
	blocks := make([]storageBlock, 0, n)
	for i := uint32(0); i < uint32(n); i++ {
		var length int32
		gl.GetProgramResourceName(p.id, gl.SHADER_STORAGE_BLOCK, i, int32(len(buf)), &length, &buf[0])
		b := storageBlock{name: string(buf[:length])}
		var props = [2]uint32{gl.BUFFER_BINDING, gl.NUM_ACTIVE_VARIABLES}
		var vals [2]int32
		gl.GetProgramResourceiv(p.id, gl.SHADER_STORAGE_BLOCK, i, 2, &props[0], 2, nil, &vals[0])
		b.binding = int(vals[0])
		if vals[1] > 0 {
			vars := make([]int32, vals[1])
			prop := uint32(gl.ACTIVE_VARIABLES)
			gl.GetProgramResourceiv(p.id, gl.SHADER_STORAGE_BLOCK, i, 1, &prop, vals[1], nil, &vars[0])
			// The block's array is its last member: the active variable
			// with the largest offset that is a top-level array.
			last := -1
			for _, v := range vars {
				vp := [6]uint32{gl.OFFSET, gl.TOP_LEVEL_ARRAY_SIZE, gl.TOP_LEVEL_ARRAY_STRIDE, gl.TYPE, gl.IS_ROW_MAJOR, gl.ARRAY_STRIDE}
				var vv [6]int32
				gl.GetProgramResourceiv(p.id, gl.BUFFER_VARIABLE, uint32(v), 6, &vp[0], 6, nil, &vv[0])
				if int(vv[0]) <= last {
					continue
				}
				// "recs[0].a" is a member of an array of structs,
				// "words[0]" an element of an array of scalars,
				// vectors or matrices (a block with an instance name
				// prefixes them: "V.words[0]").
				var l int32
				gl.GetProgramResourceName(p.id, gl.BUFFER_VARIABLE, uint32(v), int32(len(varBuf)), &l, &varBuf[0])
				name := strings.TrimPrefix(string(varBuf[:l]), b.name+".")
				i := strings.IndexByte(name, ']')
				records := i >= 0 && strings.Contains(name[i:], ".")
				stride, elem, comp, padded := 0, "", 0, false
				switch {
				case vv[2] > 0 && vv[1] != 1:
					stride = int(vv[2])
				case i >= 0 && !strings.Contains(name, ".") && strings.Count(name, "[") == 1:
					// Mesa reports neither a top-level size nor a
					// stride for these (std430.go): the type's std430
					// stride, or the driver's own array stride where
					// they differ (a std140 block) or the type is not
					// listed. (Arrays of arrays are not checked.)
					stride, elem, comp, padded = std430Elem(uint32(vv[3]), vv[4] != 0)
					if vv[5] > 0 && int(vv[5]) != stride {
						stride = int(vv[5])
					}
				}
				if stride > 0 {
					last, b.stride, b.records = int(vv[0]), stride, records
					b.elem, b.comp, b.padded = elem, comp, padded
				}
			}
		}
		blocks = append(blocks, b)
	}
	sort.Slice(blocks, func(i, j int) bool { return blocks[i].binding < blocks[j].binding })
	p.blocks = blocks
	p.ctx.check("storage block queries " + p.name)
	return blocks
}

// checkBindings runs before every dispatch of p: the layout check, and,
// for a user's program (UserProgram...), the check that every block the
// driver reports active has live storage bound, or was unbound on purpose
// (BindStorage with nil or an empty array: a block that only some
// dispatches touch). Both read what BindStorage recorded in c.bound, the
// only way storage is bound, and the blocks queried once per program: no
// GL call, a few loads and compares per block (gpu/checks_test.go measures
// it against the dispatch). dpgl's own programs are exempt from the second:
// they leave unbound the blocks of the paths a dispatch does not take, and
// their tests cover them.
func (p *Program) checkBindings() {
	c := p.ctx
	for _, b := range p.storageBlocks() {
		var s Storage
		if b.binding < len(c.bound) {
			s = c.bound[b.binding]
		}
		es, isElem := s.(elemStorage)
		if isElem && es.elemSize() != b.stride && !b.fits(es.elemSize(), es.elemRecord()) {
			panic(fmt.Sprintf("gpu: %s: storage block %s (binding %d) has an array stride of %d bytes in GLSL%s, but the %s bound there has elements of %d bytes (%s): the Go type must match the std430 layout, padding included",
				p.name, b.name, b.binding, b.stride, b.ofType(), storageKind(s), es.elemSize(), es.elemType()))
		}
		if !p.user {
			continue
		}
		if isElem && es.isDeleted() {
			panic(fmt.Sprintf("gpu: %s: storage block %s (binding %d): the %s[%s] bound there was deleted", p.name, b.name, b.binding, storageKind(s), es.elemType()))
		}
		if s == nil {
			panic(fmt.Sprintf("gpu: %s: storage block %s (binding %d) is used by the shader, but no buffer is bound there; bind one, or BindStorage(%d, nil) where this dispatch does not touch it", p.name, b.name, b.binding, b.binding))
		}
	}
}

// noStorage marks a binding unbound on purpose by BindStorage.
type noStorage struct{}

func (noStorage) bufferID() uint32 { return 0 }
func (noStorage) ByteOffset() int  { return 0 }
func (noStorage) ByteSize() int    { return 0 }

func storageKind(s Storage) string {
	if _, ok := s.(interface{ storageKind() string }); ok {
		return "Buffer"
	}
	return "Range"
}

// Declarations found in a program's source, for the checks of names:
// "buffer Name {" and "uniform type a, b[3];". They are read from the
// expanded text, so a declaration that the preprocessor drops still counts
// (a name set but never used is harmless); a name never declared is a
// misspelling.
var (
	blockDeclRe   = regexp.MustCompile(`\bbuffer\s+([A-Za-z_]\w*)\s*\{`)
	uniformDeclRe = regexp.MustCompile(`(?m)^\s*(?:layout\s*\([^)]*\)\s*)?uniform\s+(?:(?:highp|mediump|lowp)\s+)?[A-Za-z_]\w*\s+([^;{]+);`)
	arrayOrInitRe = regexp.MustCompile(`\s*(\[[^\]]*\]|=.*)`)
)

// declared is the set of names a program's sources declare.
type declared struct {
	blocks, uniforms map[string]bool
}

func declarations(texts ...string) declared {
	d := declared{map[string]bool{}, map[string]bool{}}
	for _, t := range texts {
		for _, m := range blockDeclRe.FindAllStringSubmatch(t, -1) {
			d.blocks[m[1]] = true
		}
		for _, m := range uniformDeclRe.FindAllStringSubmatch(t, -1) {
			for _, n := range strings.Split(m[1], ",") {
				n = strings.TrimSpace(arrayOrInitRe.ReplaceAllString(n, ""))
				if n != "" {
					d.uniforms[n] = true
				}
			}
		}
	}
	return d
}

func sortedKeys(m map[string]bool) string {
	k := make([]string, 0, len(m))
	for n := range m {
		k = append(k, n)
	}
	sort.Strings(k)
	return strings.Join(k, ", ")
}

// Bind binds s to the storage block of p named block (the name after
// "buffer" in the GLSL), at the binding the shader declares for it, and
// checks at once that the elements of s have the size of the block's array
// stride. A name that p's source does not declare panics, listing the
// blocks it has; a block the driver optimized away (declared, never used)
// binds nothing. It must run on the GL thread, with the dispatch.
func (p *Program) Bind(block string, s Storage) {
	c := p.ctx
	c.mustOnThread("Program.Bind")
	for _, b := range p.storageBlocks() {
		if b.name != block {
			continue
		}
		if es, ok := s.(elemStorage); ok && s.ByteSize() > 0 && !b.fits(es.elemSize(), es.elemRecord()) {
			panic(fmt.Sprintf("gpu: %s: Bind %s: the block's array stride is %d bytes in GLSL%s, but the %s has elements of %d bytes (%s): the Go type must match the std430 layout, padding included",
				p.name, block, b.stride, b.ofType(), storageKind(s), es.elemSize(), es.elemType()))
		}
		c.BindStorage(b.binding, s)
		return
	}
	if !p.decl.blocks[block] {
		panic(fmt.Sprintf("gpu: %s: Bind: the shader declares no storage block %q (it has: %s)", p.name, block, sortedKeys(p.decl.blocks)))
	}
}

// checkUniform panics when name (a uniform p's driver does not know) is
// not declared in p's source either: a misspelt name would otherwise set
// nothing, silently. It runs once per program and name (location caches
// the answer), in every build.
func (p *Program) checkUniform(name string, loc int32) {
	if loc >= 0 {
		return
	}
	base := name
	if i := strings.IndexByte(base, '['); i >= 0 {
		base = base[:i]
	}
	if !p.decl.uniforms[base] {
		panic(fmt.Sprintf("gpu: %s: no uniform named %q (it declares: %s)", p.name, name, sortedKeys(p.decl.uniforms)))
	}
}
