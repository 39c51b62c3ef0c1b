//go:build !gldebug

package gpu

// debugGL is false without the gldebug build tag; DPGL_GL_DEBUG=1 in the
// environment turns the checked mode on at run time instead.
const debugGL = false
