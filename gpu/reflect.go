package gpu

import (
	"sort"

	"github.com/go-gl/gl/v4.5-core/gl"
)

// StorageBlock is a shader storage block of a linked program as the driver
// lays it out, from the program interface queries (glGetProgramResource on
// GL_SHADER_STORAGE_BLOCK and GL_BUFFER_VARIABLE): what a test compares
// with the Go types that mirror the GLSL structs, and with the binding
// numbers the Go side binds at.
type StorageBlock struct {
	Name    string // the name after "buffer" in the GLSL
	Binding int    // GL_BUFFER_BINDING
	Vars    []BufferVariable
}

// BufferVariable is one active member of a storage block. For an array of
// structs the driver lists each member of the first element: "tris[0].v2a".
type BufferVariable struct {
	Name string
	// Offset is GL_OFFSET: bytes from the start of the block (of the
	// array's first element, for a member of a top-level array).
	Offset int
	// ArrayStride is GL_ARRAY_STRIDE, the stride of the member's own array
	// (0 when it is not one); TopLevelArrayStride is
	// GL_TOP_LEVEL_ARRAY_STRIDE, the size of one element of the block's
	// top-level array of structs in std430, padding included (0 outside
	// one; for an array of scalars or vectors Mesa reports 0 and
	// ArrayStride holds the stride).
	ArrayStride, TopLevelArrayStride int
}

// StorageBlocks returns the program's active storage blocks, ordered by
// binding, and their active members ordered by offset. A block or member
// the compiler found unused is not active and not listed.
func (p *Program) StorageBlocks() []StorageBlock {
	var out []StorageBlock
	p.ctx.Do(func() {
		var n, nameLen, varNameLen int32
		gl.GetProgramInterfaceiv(p.id, gl.SHADER_STORAGE_BLOCK, gl.ACTIVE_RESOURCES, &n)
		gl.GetProgramInterfaceiv(p.id, gl.SHADER_STORAGE_BLOCK, gl.MAX_NAME_LENGTH, &nameLen)
		gl.GetProgramInterfaceiv(p.id, gl.BUFFER_VARIABLE, gl.MAX_NAME_LENGTH, &varNameLen)
		name := func(iface, i uint32, buf []byte) string {
			var l int32
			gl.GetProgramResourceName(p.id, iface, i, int32(len(buf)), &l, &buf[0])
			return string(buf[:l])
		}
		buf := make([]byte, nameLen+1)
		varBuf := make([]byte, varNameLen+1)
		for i := uint32(0); i < uint32(n); i++ {
			b := StorageBlock{Name: name(gl.SHADER_STORAGE_BLOCK, i, buf)}
			props := [2]uint32{gl.BUFFER_BINDING, gl.NUM_ACTIVE_VARIABLES}
			var vals [2]int32
			gl.GetProgramResourceiv(p.id, gl.SHADER_STORAGE_BLOCK, i, 2, &props[0], 2, nil, &vals[0])
			b.Binding = int(vals[0])
			if vals[1] > 0 {
				vars := make([]int32, vals[1])
				prop := uint32(gl.ACTIVE_VARIABLES)
				gl.GetProgramResourceiv(p.id, gl.SHADER_STORAGE_BLOCK, i, 1, &prop, vals[1], nil, &vars[0])
				for _, v := range vars {
					vp := [3]uint32{gl.OFFSET, gl.ARRAY_STRIDE, gl.TOP_LEVEL_ARRAY_STRIDE}
					var vv [3]int32
					gl.GetProgramResourceiv(p.id, gl.BUFFER_VARIABLE, uint32(v), 3, &vp[0], 3, nil, &vv[0])
					b.Vars = append(b.Vars, BufferVariable{
						Name: name(gl.BUFFER_VARIABLE, uint32(v), varBuf), Offset: int(vv[0]),
						ArrayStride: int(vv[1]), TopLevelArrayStride: int(vv[2]),
					})
				}
				sort.Slice(b.Vars, func(x, y int) bool { return b.Vars[x].Offset < b.Vars[y].Offset })
			}
			out = append(out, b)
		}
		p.ctx.check("storage block queries " + p.name)
	})
	sort.Slice(out, func(x, y int) bool { return out[x].Binding < out[y].Binding })
	return out
}
