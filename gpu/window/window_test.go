package window

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu"
)

func needDisplay(t *testing.T) {
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		if os.Getenv("DPGL_REQUIRE_DISPLAY") != "" {
			t.Fatal("DPGL_REQUIRE_DISPLAY is set but there is no DISPLAY")
		}
		t.Skip("no display: run under xvfb-run -a")
	}
}

func TestOpenRunsCompute(t *testing.T) {
	needDisplay(t)
	w, err := Open(Options{Title: "test", Width: 64, Height: 48, Hidden: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	c := w.Ctx
	if c.Caps().Platform != "GLFW window" {
		t.Fatalf("platform %q", c.Caps().Platform)
	}
	src := []uint32{1, 2, 3, 4, 5, 6, 7, 8}
	s, _ := gpu.NewBufferFrom(c, src)
	d, _ := gpu.NewBuffer[uint32](c, 8)
	defer s.Delete()
	defer d.Delete()
	p := c.MustProgram("copy/copy.comp", nil)
	c.Do(func() {
		c.BindStorage(0, s)
		c.BindStorage(1, d)
		p.SetUint("n4", 2)
		p.Dispatch1D(1)
		ww, hh := w.GLFW().GetFramebufferSize()
		if ww != 64 || hh != 48 {
			t.Errorf("framebuffer %dx%d", ww, hh)
		}
	})
	got := d.Download()
	for i := range src {
		if got[i] != src[i] {
			t.Fatalf("copy in a window context: %v", got)
		}
	}
}

func TestNoDisplayIsAClearError(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	_, err := Open(Options{Width: 10, Height: 10})
	if !errors.Is(err, ErrNoDisplay) || !strings.Contains(err.Error(), "xvfb-run") {
		t.Fatalf("Open without a display: %v", err)
	}
	if _, err := Open(Options{Width: 0, Height: 10}); err == nil {
		t.Fatal("a 0x10 window was accepted")
	}
}

// TestDeadDisplayIsAClearError: a DISPLAY that names no X server makes
// glfw.Init log and return nil; Open must still fail with ErrNoDisplay and
// a message naming the display, not panic at the first GLFW call, and
// GLFW must work again for the next window.
func TestDeadDisplayIsAClearError(t *testing.T) {
	live := os.Getenv("DISPLAY")
	t.Setenv("WAYLAND_DISPLAY", "")
	t.Setenv("DISPLAY", ":4093") // no X server listens there (checked below)
	if _, err := os.Stat("/tmp/.X11-unix/X4093"); err == nil {
		t.Skip("an X server runs on :4093")
	}
	for i := 0; i < 2; i++ {
		_, err := Open(Options{Width: 10, Height: 10, Hidden: true})
		if !errors.Is(err, ErrNoDisplay) || !strings.Contains(err.Error(), "DISPLAY=:4093") || !strings.Contains(err.Error(), "xvfb-run") {
			t.Fatalf("Open on a dead display: %v", err)
		}
	}
	if live == "" {
		return
	}
	os.Setenv("DISPLAY", live)
	w, err := Open(Options{Width: 10, Height: 10, Hidden: true})
	if err != nil {
		t.Fatalf("after a dead display, a live one: %v", err)
	}
	w.Close()
}
