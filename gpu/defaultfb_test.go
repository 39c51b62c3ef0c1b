package gpu_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
)

// TestReadDefaultHeadless: a headless context has no window to read, and
// says so with an error rather than returning garbage. The window side is
// tested in gpu/window.
func TestReadDefaultHeadless(t *testing.T) {
	c := gputest.Context(t)
	if _, err := c.ReadDefault(4, 4); !errors.Is(err, gpu.ErrNoDefaultFramebuffer) {
		t.Fatalf("ReadDefault on a headless context: %v, want ErrNoDefaultFramebuffer", err)
	}
}

func TestDefaultFramebufferMisuse(t *testing.T) {
	c := gputest.Context(t)
	tex, err := gpu.NewTexture(c, 2, 2, gpu.RGBA8)
	if err != nil {
		t.Fatal(err)
	}
	defer tex.Delete()
	fb, err := gpu.NewFramebuffer(c, nil, tex)
	if err != nil {
		t.Fatal(err)
	}
	defer fb.Delete()
	mustPanic := func(what, want string, f func()) {
		t.Helper()
		defer func() {
			r := recover()
			if r == nil || !strings.Contains(r.(string), want) {
				t.Errorf("%s: panic %v, want one naming %q", what, r, want)
			}
		}()
		f()
	}
	mustPanic("ReadDefault(0, 4)", "ReadDefault: size 0x4", func() { c.ReadDefault(0, 4) })
	mustPanic("BlitToDefaultRect off the GL thread", "off the GL thread", func() { c.BlitToDefaultRect(fb, 0, 0, 2, 2) })
	mustPanic("BlitToDefaultRect(nil)", "BlitToDefaultRect: f is nil", func() { c.Do(func() { c.BlitToDefaultRect(nil, 0, 0, 2, 2) }) })
	mustPanic("BlitToDefaultRect 2x0", "BlitToDefaultRect: size 2x0", func() { c.Do(func() { c.BlitToDefaultRect(fb, 0, 0, 2, 0) }) })
}
