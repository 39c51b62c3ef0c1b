package gpu

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	"github.com/go-gl/gl/v4.5-core/gl"

	"github.com/dpgl/dpgl/shaders"
)

// Program is a linked compute program. Programs are cached by their expanded
// source (file contents and defines) and live as long as their Context.
type Program struct {
	ctx       *Context
	id        uint32
	name      string
	LocalSize [3]int // the work group size the shader declares
	uniforms  map[string]int32

	// What it was built from, for Variant.
	fsys    fs.FS
	files   []stageFile
	defines map[string]string
	active  []activeUniform // filled by CopyUniforms on first use
	blocks  []storageBlock  // filled on first dispatch
	decl    declared        // the uniforms and blocks its source declares
	user    bool            // built from a user's files (UserProgram...)
}

type programCache struct {
	sync.Mutex
	byKey map[[32]byte]*Program
}

func (pc *programCache) init() { pc.byKey = map[[32]byte]*Program{} }

func (pc *programCache) deleteAll(c *Context) {
	pc.Lock()
	defer pc.Unlock()
	for k, p := range pc.byKey {
		gl.DeleteProgram(p.id)
		c.track(KindProgram, -1)
		delete(pc.byKey, k)
	}
}

// Program returns the compute program built from the file name in the
// embedded shaders/ tree with the given defines, compiling it on first use.
func (c *Context) Program(name string, defines map[string]string) (*Program, error) {
	return c.ProgramFS(shaders.FS, name, defines)
}

// MustProgram is Program for the module's own shaders, which are linted and
// tested: failing to build one is a bug, so it panics.
func (c *Context) MustProgram(name string, defines map[string]string) *Program {
	p, err := c.Program(name, defines)
	if err != nil {
		panic(err)
	}
	return p
}

// ProgramFS is Program with the source tree fsys.
func (c *Context) ProgramFS(fsys fs.FS, name string, defines map[string]string) (*Program, error) {
	return c.program(fsys, name, []stageFile{{gl.COMPUTE_SHADER, name}}, defines)
}

// GraphicsProgram returns the program linked from a vertex and a fragment
// shader of the embedded tree (the GPU's own pipeline, used as a reference
// renderer and to show images in a window).
func (c *Context) GraphicsProgram(vert, frag string, defines map[string]string) (*Program, error) {
	return c.GraphicsProgramFS(shaders.FS, vert, frag, defines)
}

// GraphicsProgramFS is GraphicsProgram with the source tree fsys.
func (c *Context) GraphicsProgramFS(fsys fs.FS, vert, frag string, defines map[string]string) (*Program, error) {
	return c.program(fsys, vert+"+"+frag, []stageFile{{gl.VERTEX_SHADER, vert}, {gl.FRAGMENT_SHADER, frag}}, defines)
}

type stageFile struct {
	kind uint32
	file string
}

type stageSource struct {
	kind uint32
	src  *Source
}

func (c *Context) program(fsys fs.FS, name string, files []stageFile, defines map[string]string) (*Program, error) {
	h := sha256.New()
	var stages []stageSource
	for _, f := range files {
		src, err := Expand(fsys, f.file, defines)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(h, "%d\x00%s\x00", f.kind, src.Text)
		stages = append(stages, stageSource{f.kind, src})
	}
	var key [32]byte
	h.Sum(key[:0])
	c.programs.Lock()
	p := c.programs.byKey[key]
	c.programs.Unlock()
	if p != nil {
		return p, nil
	}
	var err error
	c.Do(func() { p, err = c.build(name, stages) })
	if err != nil {
		return nil, err
	}
	p.fsys, p.files = fsys, files
	_, p.user = fsys.(*userFS)
	p.defines = make(map[string]string, len(defines))
	for k, v := range defines {
		p.defines[k] = v
	}
	c.programs.Lock()
	if q := c.programs.byKey[key]; q != nil {
		// Another goroutine built the same program meanwhile.
		c.Do(func() { gl.DeleteProgram(p.id); c.track(KindProgram, -1) })
		p = q
	} else {
		c.programs.byKey[key] = p
	}
	c.programs.Unlock()
	return p, nil
}

// build compiles and links the stages; on failure it deletes every object it
// made and returns the driver's log with file names and lines of the
// original files.
func (c *Context) build(name string, stages []stageSource) (*Program, error) {
	var shs []uint32
	defer func() {
		for _, sh := range shs {
			gl.DeleteShader(sh)
			c.track(KindShader, -1)
		}
	}()
	for _, st := range stages {
		sh := gl.CreateShader(st.kind)
		if sh == 0 {
			return nil, fmt.Errorf("gpu: %s: glCreateShader failed (%s)", st.src.Files[0], glError())
		}
		c.track(KindShader, 1)
		shs = append(shs, sh)
		cs, free := gl.Strs(st.src.Text + "\x00")
		length := int32(len(st.src.Text))
		gl.ShaderSource(sh, 1, cs, &length)
		free()
		gl.CompileShader(sh)
		var ok int32
		gl.GetShaderiv(sh, gl.COMPILE_STATUS, &ok)
		if ok == 0 {
			return nil, fmt.Errorf("gpu: compiling %s:\n%s", st.src.Files[0], st.src.MapLog(shaderLog(sh)))
		}
	}
	prog := gl.CreateProgram()
	c.track(KindProgram, 1)
	for _, sh := range shs {
		gl.AttachShader(prog, sh)
	}
	gl.LinkProgram(prog)
	for _, sh := range shs {
		gl.DetachShader(prog, sh)
	}
	var ok int32
	gl.GetProgramiv(prog, gl.LINK_STATUS, &ok)
	if ok == 0 {
		log := programLog(prog)
		gl.DeleteProgram(prog)
		c.track(KindProgram, -1)
		return nil, fmt.Errorf("gpu: linking %s:\n%s", name, stages[0].src.MapLog(log))
	}
	p := &Program{ctx: c, id: prog, name: name, uniforms: map[string]int32{}}
	texts := make([]string, len(stages))
	for i, st := range stages {
		texts[i] = st.src.Text
	}
	p.decl = declarations(texts...)
	if stages[0].kind == gl.COMPUTE_SHADER {
		var ls [3]int32
		gl.GetProgramiv(prog, gl.COMPUTE_WORK_GROUP_SIZE, &ls[0])
		for i := range ls {
			p.LocalSize[i] = int(ls[i])
		}
	}
	c.check("build " + name)
	return p, nil
}

func shaderLog(sh uint32) string {
	var n int32
	gl.GetShaderiv(sh, gl.INFO_LOG_LENGTH, &n)
	if n <= 1 {
		return "(the driver gave no log)"
	}
	buf := make([]byte, n)
	gl.GetShaderInfoLog(sh, n, nil, &buf[0])
	return strings.TrimRight(string(buf), "\x00\n")
}

func programLog(prog uint32) string {
	var n int32
	gl.GetProgramiv(prog, gl.INFO_LOG_LENGTH, &n)
	if n <= 1 {
		return "(the driver gave no log)"
	}
	buf := make([]byte, n)
	gl.GetProgramInfoLog(prog, n, nil, &buf[0])
	return strings.TrimRight(string(buf), "\x00\n")
}

// Name is the shader file the program was built from.
func (p *Program) Name() string { return p.name }

// GroupSize is the number of invocations in one work group.
func (p *Program) GroupSize() int { return p.LocalSize[0] * p.LocalSize[1] * p.LocalSize[2] }

// location returns the uniform's location, -1 for one the driver optimized
// away (setting it is then a no-op, as in GL).
func (p *Program) location(name string) int32 {
	if l, ok := p.uniforms[name]; ok {
		return l
	}
	l := gl.GetUniformLocation(p.id, gl.Str(name+"\x00"))
	p.checkUniform(name, l)
	p.uniforms[name] = l
	return l
}

// The uniform setters run on the GL thread; call them inside Context.Do
// together with the dispatch that uses them.

// SetUint sets a uint uniform.
func (p *Program) SetUint(name string, v uint32) {
	p.ctx.mustOnThread("Program.SetUint")
	gl.ProgramUniform1ui(p.id, p.location(name), v)
	p.ctx.check("glProgramUniform1ui " + name)
}

// SetInt sets an int uniform.
func (p *Program) SetInt(name string, v int32) {
	p.ctx.mustOnThread("Program.SetInt")
	gl.ProgramUniform1i(p.id, p.location(name), v)
	p.ctx.check("glProgramUniform1i " + name)
}

// SetFloat sets a float uniform.
func (p *Program) SetFloat(name string, v float32) {
	p.ctx.mustOnThread("Program.SetFloat")
	gl.ProgramUniform1f(p.id, p.location(name), v)
	p.ctx.check("glProgramUniform1f " + name)
}

// SetUvec2 sets a uvec2 uniform.
func (p *Program) SetUvec2(name string, x, y uint32) {
	p.ctx.mustOnThread("Program.SetUvec2")
	gl.ProgramUniform2ui(p.id, p.location(name), x, y)
	p.ctx.check("glProgramUniform2ui " + name)
}

// SetIvec2 sets an ivec2 uniform.
func (p *Program) SetIvec2(name string, x, y int32) {
	p.ctx.mustOnThread("Program.SetIvec2")
	gl.ProgramUniform2i(p.id, p.location(name), x, y)
	p.ctx.check("glProgramUniform2i " + name)
}

// SetUvec3 sets a uvec3 uniform.
func (p *Program) SetUvec3(name string, x, y, z uint32) {
	p.ctx.mustOnThread("Program.SetUvec3")
	gl.ProgramUniform3ui(p.id, p.location(name), x, y, z)
	p.ctx.check("glProgramUniform3ui " + name)
}

// SetVec2 sets a vec2 uniform.
func (p *Program) SetVec2(name string, x, y float32) {
	p.ctx.mustOnThread("Program.SetVec2")
	gl.ProgramUniform2f(p.id, p.location(name), x, y)
	p.ctx.check("glProgramUniform2f " + name)
}

// SetVec3 sets a vec3 uniform.
func (p *Program) SetVec3(name string, x, y, z float32) {
	p.ctx.mustOnThread("Program.SetVec3")
	gl.ProgramUniform3f(p.id, p.location(name), x, y, z)
	p.ctx.check("glProgramUniform3f " + name)
}

// SetVec4 sets a vec4 uniform.
func (p *Program) SetVec4(name string, x, y, z, w float32) {
	p.ctx.mustOnThread("Program.SetVec4")
	gl.ProgramUniform4f(p.id, p.location(name), x, y, z, w)
	p.ctx.check("glProgramUniform4f " + name)
}

// SetMat4 sets a mat4 uniform from 16 floats in column-major order (as
// mathgl's Mat4 holds them).
func (p *Program) SetMat4(name string, m [16]float32) {
	p.ctx.mustOnThread("Program.SetMat4")
	gl.ProgramUniformMatrix4fv(p.id, p.location(name), 1, false, &m[0])
	p.ctx.check("glProgramUniformMatrix4fv " + name)
}

// Dispatch runs x*y*z work groups. It must run on the GL thread (inside
// Context.Do); counts beyond the driver's limits panic.
func (p *Program) Dispatch(x, y, z int) {
	c := p.ctx
	c.mustOnThread("Program.Dispatch")
	m := c.caps.MaxWorkGroupCount
	if x < 0 || y < 0 || z < 0 || x > m[0] || y > m[1] || z > m[2] {
		panic(fmt.Sprintf("gpu: %s: dispatch of %dx%dx%d groups exceeds the driver's %dx%dx%d", p.name, x, y, z, m[0], m[1], m[2]))
	}
	if x == 0 || y == 0 || z == 0 {
		return
	}
	p.checkBindings()
	gl.UseProgram(p.id)
	gl.DispatchCompute(uint32(x), uint32(y), uint32(z))
	c.shaderWrote()
	c.check("glDispatchCompute " + p.name)
}

// Grid returns the dispatch size for n work groups laid out in x and y when
// n exceeds the driver's x limit. Shaders recover the flat group index with
// dpglGroupIndex() from include/common.glsl and must ignore indices >= n
// (x*y may exceed n by less than one row). For more groups than x*y can
// reach, y exceeds the driver's y limit, which Dispatch refuses.
func (c *Context) Grid(n int) (x, y int) {
	if n <= 0 {
		return 0, 0
	}
	mx := c.caps.MaxWorkGroupCount[0]
	if n <= mx {
		return n, 1
	}
	y = ceilDiv(n, mx)
	x = ceilDiv(n, y) // rows as even as they go: x <= mx, and x*y - n < y
	return x, y
}

// ceilDiv is ceil(n/d) for n >= 0 and d > 0, without n+d-1 overflowing.
func ceilDiv(n, d int) int { return n/d + min(n%d, 1) }

// maxGroups is the most work groups Dispatch1D can run: a full 2-D grid.
func (c *Context) maxGroups() int {
	m := c.caps.MaxWorkGroupCount
	return m[0] * m[1]
}

// Dispatch1D runs n work groups, in a 2-D grid when n exceeds the x limit
// (see Grid). It must run on the GL thread; more groups than the grid can
// hold panic naming the count and the driver's limits.
func (p *Program) Dispatch1D(n int) {
	if n > p.ctx.maxGroups() {
		m := p.ctx.caps.MaxWorkGroupCount
		panic(fmt.Sprintf("gpu: %s: %d work groups exceed the driver's %d x %d (GL_MAX_COMPUTE_WORK_GROUP_COUNT)", p.name, n, m[0], m[1]))
	}
	x, y := p.ctx.Grid(n)
	p.Dispatch(x, y, 1)
}

// The launch helpers below cover a count of invocations or items with the
// program's own work-group size, so that no caller divides by a group size
// that may differ from the one the shader was built with.

// Groups is the number of work groups of p that cover n invocations of a
// 1-D kernel: ceil(n / GroupSize()).
func (p *Program) Groups(n int) int {
	if n < 0 {
		panic(fmt.Sprintf("gpu: %s: Groups of a negative count %d", p.name, n))
	}
	return ceilDiv(n, p.GroupSize())
}

// DispatchInvocations runs a 1-D kernel on at least n invocations (any n:
// past the driver's 65,535 groups per dimension the groups are laid out
// in two, as Dispatch1D does). The kernel finds its index with
// dpglGlobalIndex() of include/common.glsl and returns when it is n or
// more. It must run on the GL thread (inside Context.Do); n beyond what
// the driver's grid can reach panics naming n and the limits.
func (p *Program) DispatchInvocations(n int) { p.DispatchItems(n, 1) }

// DispatchItems runs a 1-D kernel whose invocations handle perInvocation
// items each (a tile of GroupSize()*perInvocation items a group) on
// enough groups for n items: ceil(n / (GroupSize()*perInvocation)),
// laid out as Dispatch1D does. It must run on the GL thread.
func (p *Program) DispatchItems(n, perInvocation int) {
	p.ctx.mustOnThread("Program.DispatchItems")
	if n < 0 || perInvocation <= 0 {
		panic(fmt.Sprintf("gpu: %s: DispatchItems(%d, %d): want n >= 0 and perInvocation > 0", p.name, n, perInvocation))
	}
	g := p.Groups(ceilDiv(n, perInvocation))
	if g > p.ctx.maxGroups() {
		m := p.ctx.caps.MaxWorkGroupCount
		what := fmt.Sprintf("%d invocations", n)
		if perInvocation > 1 {
			what = fmt.Sprintf("%d items at %d an invocation", n, perInvocation)
		}
		panic(fmt.Sprintf("gpu: %s: %s need %d work groups of %d, more than the driver's %d x %d (GL_MAX_COMPUTE_WORK_GROUP_COUNT)",
			p.name, what, g, p.GroupSize(), m[0], m[1]))
	}
	p.Dispatch1D(g)
}

// DispatchInvocations2D runs a 2-D kernel (an image's pixels, say) on at
// least w x h invocations: ceil(w / LocalSize[0]) x ceil(h / LocalSize[1])
// work groups. The kernel returns where gl_GlobalInvocationID.xy falls
// outside w x h. It must run on the GL thread; a grid beyond the driver's
// limits panics.
func (p *Program) DispatchInvocations2D(w, h int) {
	if w < 0 || h < 0 {
		panic(fmt.Sprintf("gpu: %s: DispatchInvocations2D(%d, %d): negative size", p.name, w, h))
	}
	p.Dispatch(ceilDiv(w, p.LocalSize[0]), ceilDiv(h, p.LocalSize[1]), 1)
}

// DispatchIndirect runs the work group counts stored as three uint32 at
// byte offset off of s (which must be 4-byte aligned). Issue BarrierCommand
// after the shader that wrote them.
func (p *Program) DispatchIndirect(s Storage, off int) {
	c := p.ctx
	c.mustOnThread("Program.DispatchIndirect")
	if off%4 != 0 || off < 0 || off+12 > s.ByteSize() {
		panic(fmt.Sprintf("gpu: %s: indirect offset %d invalid for a %d-byte buffer", p.name, off, s.ByteSize()))
	}
	p.checkBindings()
	gl.UseProgram(p.id)
	gl.BindBuffer(gl.DISPATCH_INDIRECT_BUFFER, s.bufferID())
	gl.DispatchComputeIndirect(s.ByteOffset() + off)
	c.shaderWrote()
	c.check("glDispatchComputeIndirect " + p.name)
}
