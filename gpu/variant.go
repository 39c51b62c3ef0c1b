package gpu

import (
	"fmt"
	"strings"

	"github.com/go-gl/gl/v4.5-core/gl"
)

// Variant returns the program built from the same files as p with defines
// added to p's own (a define of the same name replaces p's value). Like any
// program it is cached by its expanded text: asking again expands and
// hashes the source but builds nothing, and a variant whose defines equal
// p's is p. A library that runs its users' kernels several ways (package
// balancer's strategies) builds what it needs from the program it is given.
func (p *Program) Variant(defines map[string]string) (*Program, error) {
	merged := make(map[string]string, len(p.defines)+len(defines))
	for k, v := range p.defines {
		merged[k] = v
	}
	for k, v := range defines {
		merged[k] = v
	}
	return p.ctx.program(p.fsys, p.name, p.files, merged)
}

// activeUniform is one active default-block uniform (or one element of an
// array of them).
type activeUniform struct {
	name string
	typ  uint32
}

// activeUniforms lists p's default-block uniforms, arrays element by
// element. On the GL thread.
func (p *Program) activeUniforms() []activeUniform {
	if p.active != nil {
		return p.active
	}
	var n, maxLen int32
	gl.GetProgramiv(p.id, gl.ACTIVE_UNIFORMS, &n)
	gl.GetProgramiv(p.id, gl.ACTIVE_UNIFORM_MAX_LENGTH, &maxLen)
	buf := make([]byte, maxLen+1)
	out := []activeUniform{}
	for i := int32(0); i < n; i++ {
		var length, size int32
		var typ uint32
		gl.GetActiveUniform(p.id, uint32(i), int32(len(buf)), &length, &size, &typ, &buf[0])
		name := string(buf[:length])
		if p.location(name) < 0 {
			continue // a member of a uniform block, or an atomic counter
		}
		if size == 1 {
			out = append(out, activeUniform{name, typ})
			continue
		}
		// An array "a[0]": each element has a location of its own.
		base := strings.TrimSuffix(name, "[0]")
		for k := int32(0); k < size; k++ {
			out = append(out, activeUniform{fmt.Sprintf("%s[%d]", base, k), typ})
		}
	}
	p.active = out
	p.ctx.check("glGetActiveUniform " + p.name)
	return out
}

// uniformShape says how a uniform type is read and written: its scalar kind
// ('f', 'i' or 'u'), its components, and for matrices the column count.
func uniformShape(typ uint32) (kind byte, n, cols int, ok bool) {
	switch typ {
	case gl.FLOAT:
		return 'f', 1, 0, true
	case gl.FLOAT_VEC2:
		return 'f', 2, 0, true
	case gl.FLOAT_VEC3:
		return 'f', 3, 0, true
	case gl.FLOAT_VEC4:
		return 'f', 4, 0, true
	case gl.FLOAT_MAT2:
		return 'f', 4, 2, true
	case gl.FLOAT_MAT3:
		return 'f', 9, 3, true
	case gl.FLOAT_MAT4:
		return 'f', 16, 4, true
	case gl.INT, gl.BOOL, gl.SAMPLER_BUFFER, gl.INT_SAMPLER_BUFFER, gl.UNSIGNED_INT_SAMPLER_BUFFER:
		// A sampler's value is its texture unit.
		return 'i', 1, 0, true
	case gl.INT_VEC2, gl.BOOL_VEC2:
		return 'i', 2, 0, true
	case gl.INT_VEC3, gl.BOOL_VEC3:
		return 'i', 3, 0, true
	case gl.INT_VEC4, gl.BOOL_VEC4:
		return 'i', 4, 0, true
	case gl.UNSIGNED_INT:
		return 'u', 1, 0, true
	case gl.UNSIGNED_INT_VEC2:
		return 'u', 2, 0, true
	case gl.UNSIGNED_INT_VEC3:
		return 'u', 3, 0, true
	case gl.UNSIGNED_INT_VEC4:
		return 'u', 4, 0, true
	}
	return 0, 0, 0, false
}

// CanCopyUniforms reports whether CopyUniforms copies every uniform of p:
// none is of a type it refuses (doubles, 64-bit integers, samplers other
// than buffer textures'). It must run on the GL thread.
func (p *Program) CanCopyUniforms() bool {
	p.ctx.mustOnThread("Program.CanCopyUniforms")
	for _, u := range p.activeUniforms() {
		if _, _, _, ok := uniformShape(u.typ); !ok {
			return false
		}
	}
	return true
}

// CopyUniforms sets every uniform of dst that p also has to p's current
// value, so that a Variant runs with the uniforms its user set on p. The
// uniforms p lacks keep dst's values. Scalars, vectors and float matrices
// of 32-bit types (and arrays of them) and buffer textures' samplers
// (their unit) are copied; a uniform of another type (other samplers,
// doubles, 64-bit integers), or of a different type in dst, panics. It must run on the GL thread.
func (p *Program) CopyUniforms(dst *Program) {
	p.ctx.mustOnThread("Program.CopyUniforms")
	if dst == nil || dst.ctx != p.ctx {
		panic("gpu: Program.CopyUniforms: dst is nil or of another context")
	}
	if dst == p {
		return
	}
	types := map[string]uint32{}
	for _, u := range dst.activeUniforms() {
		types[u.name] = u.typ
	}
	for _, u := range p.activeUniforms() {
		dt, ok := types[u.name]
		if !ok {
			continue
		}
		if dt != u.typ {
			panic(fmt.Sprintf("gpu: Program.CopyUniforms: uniform %s has type 0x%x in %s but 0x%x in the destination", u.name, u.typ, p.name, dt))
		}
		kind, n, cols, ok := uniformShape(u.typ)
		if !ok {
			panic(fmt.Sprintf("gpu: Program.CopyUniforms: uniform %s of %s has type 0x%x, which CopyUniforms does not copy", u.name, p.name, u.typ))
		}
		src, loc := p.location(u.name), dst.location(u.name)
		switch kind {
		case 'f':
			var v [16]float32
			gl.GetUniformfv(p.id, src, &v[0])
			switch {
			case cols == 2:
				gl.ProgramUniformMatrix2fv(dst.id, loc, 1, false, &v[0])
			case cols == 3:
				gl.ProgramUniformMatrix3fv(dst.id, loc, 1, false, &v[0])
			case cols == 4:
				gl.ProgramUniformMatrix4fv(dst.id, loc, 1, false, &v[0])
			case n == 1:
				gl.ProgramUniform1fv(dst.id, loc, 1, &v[0])
			case n == 2:
				gl.ProgramUniform2fv(dst.id, loc, 1, &v[0])
			case n == 3:
				gl.ProgramUniform3fv(dst.id, loc, 1, &v[0])
			default:
				gl.ProgramUniform4fv(dst.id, loc, 1, &v[0])
			}
		case 'i':
			var v [4]int32
			gl.GetUniformiv(p.id, src, &v[0])
			switch n {
			case 1:
				gl.ProgramUniform1iv(dst.id, loc, 1, &v[0])
			case 2:
				gl.ProgramUniform2iv(dst.id, loc, 1, &v[0])
			case 3:
				gl.ProgramUniform3iv(dst.id, loc, 1, &v[0])
			default:
				gl.ProgramUniform4iv(dst.id, loc, 1, &v[0])
			}
		case 'u':
			var v [4]uint32
			gl.GetUniformuiv(p.id, src, &v[0])
			switch n {
			case 1:
				gl.ProgramUniform1uiv(dst.id, loc, 1, &v[0])
			case 2:
				gl.ProgramUniform2uiv(dst.id, loc, 1, &v[0])
			case 3:
				gl.ProgramUniform3uiv(dst.id, loc, 1, &v[0])
			default:
				gl.ProgramUniform4uiv(dst.id, loc, 1, &v[0])
			}
		}
		p.ctx.check("CopyUniforms " + u.name)
	}
}
