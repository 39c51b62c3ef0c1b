package gpu

import (
	"fmt"
	"os"
	"unsafe"

	"github.com/go-gl/gl/v4.5-core/gl"
)

// check is called after every GL call of this package. In debug mode it reads
// glGetError and panics naming the call: a GL error is a bug in this module
// (bad arguments are refused before they reach GL), and a panic with the name
// of the call finds it at once. Outside debug mode it costs a branch.
func (c *Context) check(name string) {
	if !c.debug {
		return
	}
	if err := glError(); err != "" {
		panic(fmt.Sprintf("gpu: %s: %s", name, err))
	}
}

// glError drains the GL error queue and returns the errors it held, or "".
func glError() string {
	s := ""
	for i := 0; i < 8; i++ {
		e := gl.GetError()
		if e == gl.NO_ERROR {
			break
		}
		if s != "" {
			s += ", "
		}
		s += glErrorName(e)
	}
	return s
}

func glErrorName(e uint32) string {
	switch e {
	case gl.INVALID_ENUM:
		return "GL_INVALID_ENUM"
	case gl.INVALID_VALUE:
		return "GL_INVALID_VALUE"
	case gl.INVALID_OPERATION:
		return "GL_INVALID_OPERATION"
	case gl.INVALID_FRAMEBUFFER_OPERATION:
		return "GL_INVALID_FRAMEBUFFER_OPERATION"
	case gl.OUT_OF_MEMORY:
		return "GL_OUT_OF_MEMORY"
	case gl.STACK_OVERFLOW:
		return "GL_STACK_OVERFLOW"
	case gl.STACK_UNDERFLOW:
		return "GL_STACK_UNDERFLOW"
	}
	return fmt.Sprintf("GL error 0x%04x", e)
}

// enableDebugOutput routes the driver's KHR_debug messages (errors and
// performance warnings, not notifications) to standard error, synchronously
// so that they are printed inside the GL call that caused them.
func enableDebugOutput() {
	gl.Enable(gl.DEBUG_OUTPUT)
	gl.Enable(gl.DEBUG_OUTPUT_SYNCHRONOUS)
	gl.DebugMessageControl(gl.DONT_CARE, gl.DONT_CARE, gl.DEBUG_SEVERITY_NOTIFICATION, 0, nil, false)
	gl.DebugMessageCallback(func(source, typ, id, severity uint32, length int32, message string, _ unsafe.Pointer) {
		fmt.Fprintf(os.Stderr, "gpu: GL debug (type 0x%x, severity 0x%x): %s\n", typ, severity, message)
	}, nil)
}
