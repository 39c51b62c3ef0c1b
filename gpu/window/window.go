package window

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"unsafe"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/dpgl/dpgl/gpu"
)

// Options configure a window.
type Options struct {
	Title         string
	Width, Height int
	Hidden        bool // no window on the screen (tests, scripted capture)
	Resizable     bool
}

// Window is a GLFW window whose context is a gpu.Context.
type Window struct {
	Ctx *gpu.Context
	p   *platform
}

var glfwState struct {
	sync.Mutex
	refs int
}

// ErrNoDisplay is returned (wrapped) when there is no display to open a
// window on.
var ErrNoDisplay = errors.New("no display")

// Open opens a window with an OpenGL 4.5 core context (4.3 at least).
// Without a display it returns an error wrapping ErrNoDisplay that says to
// run under xvfb-run or use the headless renderer.
func Open(o Options) (*Window, error) {
	if o.Width <= 0 || o.Height <= 0 {
		return nil, fmt.Errorf("window: size %dx%d is not positive", o.Width, o.Height)
	}
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		// glfw.Init succeeds without a display on some builds and only logs;
		// find out before it can.
		return nil, fmt.Errorf("window: %w: neither DISPLAY nor WAYLAND_DISPLAY is set; run under a display, or under `xvfb-run -a`, or render headless (gpu.NewHeadless)", ErrNoDisplay)
	}
	p := &platform{opts: o}
	c, err := gpu.New(p)
	if err != nil {
		return nil, err
	}
	return &Window{Ctx: c, p: p}, nil
}

// GLFW is the underlying window. Use it only inside Ctx.Do.
func (w *Window) GLFW() *glfw.Window { return w.p.win }

// Close destroys the window and its context.
func (w *Window) Close() { w.Ctx.Delete() }

type platform struct {
	opts Options
	win  *glfw.Window
}

func (p *platform) Open(debug bool) (func(string) unsafe.Pointer, string, error) {
	glfwState.Lock()
	defer glfwState.Unlock()
	if glfwState.refs == 0 {
		if err := initGLFW(); err != nil {
			return nil, "", err
		}
	}
	glfwState.refs++
	var lastErr error
	for _, v := range [][2]int{{4, 6}, {4, 5}, {4, 3}} {
		glfw.DefaultWindowHints()
		glfw.WindowHint(glfw.ContextVersionMajor, v[0])
		glfw.WindowHint(glfw.ContextVersionMinor, v[1])
		glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
		glfw.WindowHint(glfw.OpenGLForwardCompatible, glfw.True)
		glfw.WindowHint(glfw.OpenGLDebugContext, boolHint(debug))
		glfw.WindowHint(glfw.Visible, boolHint(!p.opts.Hidden))
		glfw.WindowHint(glfw.Resizable, boolHint(p.opts.Resizable))
		win, err := createWindow(p.opts)
		if err == nil {
			p.win = win
			win.MakeContextCurrent()
			return func(name string) unsafe.Pointer { return glfw.GetProcAddress(name) }, "GLFW window", nil
		}
		lastErr = err
	}
	p.release()
	return nil, "", fmt.Errorf("window: no OpenGL 4.3+ core context with a window: %v", lastErr)
}

// initGLFW initializes GLFW. go-gl's glfw.Init only logs a platform
// error (a DISPLAY naming no X server: "X11: Failed to open display :99")
// and returns nil, leaving GLFW uninitialized, so that the next call
// panics; the error is read back from GLFW itself.
func initGLFW() error {
	glfwLastError() // drop an error of an earlier, finished use
	err := glfw.Init()
	if code, desc := glfwLastError(); err == nil && code != 0 {
		err = errors.New(desc)
	}
	if err == nil {
		return nil
	}
	glfw.Terminate() // nothing to do if the init failed; cleans up if it half worked
	where := "the display"
	if d := os.Getenv("DISPLAY"); d != "" {
		where = fmt.Sprintf("the X server of DISPLAY=%s", d)
	} else if d := os.Getenv("WAYLAND_DISPLAY"); d != "" {
		where = fmt.Sprintf("the Wayland compositor of WAYLAND_DISPLAY=%s", d)
	}
	return fmt.Errorf("window: %w: GLFW cannot open %s (%v): is it running? Run under `xvfb-run -a`, or render headless (gpu.NewHeadless)", ErrNoDisplay, where, err)
}

// createWindow turns GLFW's panics (go-gl reports some errors that way) into
// errors.
func createWindow(o Options) (w *glfw.Window, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	title := o.Title
	if title == "" {
		title = "dpgl"
	}
	return glfw.CreateWindow(o.Width, o.Height, title, nil, nil)
}

func (p *platform) Close() {
	if p.win != nil {
		glfw.DetachCurrentContext()
		p.win.Destroy()
		p.win = nil
	}
	glfwState.Lock()
	p.release()
	glfwState.Unlock()
}

func (p *platform) release() {
	glfwState.refs--
	if glfwState.refs == 0 {
		glfw.Terminate()
	}
}

func boolHint(b bool) int {
	if b {
		return glfw.True
	}
	return glfw.False
}
