package gpu

import (
	"fmt"
	"strings"
	"testing"

	"github.com/go-gl/gl/v4.5-core/gl"
)

func TestDebugModeNamesTheFailingCall(t *testing.T) {
	t.Setenv("DPGL_GL_DEBUG", "1")
	c, err := NewHeadless()
	if err != nil {
		t.Skipf("no OpenGL 4.3+ context: %v", err)
	}
	defer c.Delete()
	if !c.Debug() {
		t.Fatal("DPGL_GL_DEBUG=1 did not turn debug mode on")
	}
	var r any
	c.Do(func() {
		defer func() { r = recover() }()
		gl.BindBuffer(0xdead, 0) // not a buffer target
		c.check("glBindBuffer")
	})
	if r == nil || !strings.Contains(fmt.Sprint(r), "gpu: glBindBuffer: GL_INVALID_ENUM") {
		t.Fatalf("debug check recovered %v", r)
	}
}
