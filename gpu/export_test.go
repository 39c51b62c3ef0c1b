package gpu

// Barriers returns how many memory barriers the context has issued and the
// bits of the last one, for the tests of the barrier bookkeeping.
func (c *Context) Barriers() (n int, last Barrier) {
	c.Do(func() { n, last = c.barriers, c.lastBarrier })
	return n, last
}

// LockstepLanes is lockstepLanes, for the test of the renderer strings.
func LockstepLanes(renderer string) int { return lockstepLanes(renderer) }

// Std430Elem is std430Elem, for the test of each GLSL type's stride.
func Std430Elem(typ uint32, rowMajor bool) (stride int, name string, comp int, padded bool) {
	return std430Elem(typ, rowMajor)
}

// GLSLTypes lists the GL_TYPE enums std430Stride knows.
func GLSLTypes() []uint32 {
	var ts []uint32
	for t := range glslTypes {
		ts = append(ts, t)
	}
	return ts
}

// CheckBindings runs the checks of a dispatch without the dispatch, for the
// benchmark of their cost.
func (p *Program) CheckBindings() { p.checkBindings() }
