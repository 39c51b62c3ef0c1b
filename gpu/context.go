package gpu

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"

	"github.com/go-gl/gl/v4.5-core/gl"
)

// Platform makes an OpenGL context current on the context's GL thread. The
// headless EGL platform lives in this package; the GLFW window platform lives
// in gpu/window so that headless programs do not link X11.
type Platform interface {
	// Open runs on the locked GL thread. It makes a context current and
	// returns a function that looks up GL entry points, and a short name for
	// the platform (for messages and Caps.Platform) whose first word names
	// the entry-point loader ("EGL device 0", "GLFW window").
	Open(debug bool) (procAddr func(name string) unsafe.Pointer, name string, err error)
	// Close runs on the GL thread and destroys what Open made.
	Close()
}

// Context is an OpenGL context owned by one locked OS thread. Every GL call
// of this module runs on that thread through Do; methods of Context and of
// the objects it creates may be called from any goroutine.
type Context struct {
	platform Platform
	tid      int
	calls    chan call
	stopped  chan struct{}
	deleted  atomic.Bool

	caps  Caps
	debug bool

	programs programCache
	vao      uint32 // the empty vertex array that attribute-less draws need
	live     [numKinds]atomic.Int64
	made     [numKinds]atomic.Int64
}

type call struct {
	f    func()
	done chan any
}

// glLoad guards go-gl's global function pointers, which are loaded once per
// kind of platform: every context of one process shares them.
var glLoad struct {
	sync.Mutex
	by string
}

// NewHeadless returns a headless context made through EGL without any
// display: the EGL device platform (NVIDIA GPUs, Mesa's software device),
// then Mesa's surfaceless platform.
func NewHeadless() (*Context, error) {
	return New(&eglPlatform{})
}

// New starts a GL thread, makes a context current on it with p, loads the GL
// entry points and reads the capabilities. It fails with a descriptive error
// when the context cannot be made or offers less than OpenGL 4.3 core.
func New(p Platform) (*Context, error) {
	c := &Context{
		platform: p,
		calls:    make(chan call),
		stopped:  make(chan struct{}),
		debug:    debugGL || os.Getenv("DPGL_GL_DEBUG") != "",
	}
	c.programs.init()
	ready := make(chan error)
	go c.loop(ready)
	if err := <-ready; err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Context) loop(ready chan<- error) {
	runtime.LockOSThread()
	// The thread is never unlocked: a thread that held a GL context is left
	// to die with its goroutine rather than be handed to other goroutines.
	c.tid = syscall.Gettid()
	procAddr, name, err := c.platform.Open(c.debug)
	if err != nil {
		close(c.stopped)
		ready <- err
		return
	}
	if err := c.start(procAddr, name); err != nil {
		c.platform.Close()
		close(c.stopped)
		ready <- err
		return
	}
	ready <- nil
	for k := range c.calls {
		k.done <- runCall(k.f)
	}
	c.programs.deleteAll(c)
	if c.vao != 0 {
		gl.DeleteVertexArrays(1, &c.vao)
		c.track(KindVertexArray, -1)
	}
	c.platform.Close()
	close(c.stopped)
}

// runCall runs f and returns what it panicked with, so that a panic on the
// GL thread reaches the goroutine that called Do.
func runCall(f func()) (p any) {
	defer func() { p = recover() }()
	f()
	return nil
}

func (c *Context) start(procAddr func(string) unsafe.Pointer, name string) error {
	glLoad.Lock()
	// Entry points depend on the loader (EGL, GLFW), which a platform names
	// first: "EGL device 0", "EGL surfaceless" share one set.
	loader := strings.Fields(name + " ?")[0]
	if glLoad.by != loader {
		if err := gl.InitWithProcAddrFunc(procAddr); err != nil {
			glLoad.Unlock()
			return fmt.Errorf("gpu: loading OpenGL entry points through %s: %v", name, err)
		}
		glLoad.by = loader
	}
	glLoad.Unlock()
	var major, minor int32
	gl.GetIntegerv(gl.MAJOR_VERSION, &major)
	gl.GetIntegerv(gl.MINOR_VERSION, &minor)
	if major < 4 || major == 4 && minor < 3 {
		return fmt.Errorf("gpu: %s gave OpenGL %d.%d (%s); compute shaders need 4.3 core or newer",
			name, major, minor, gl.GoStr(gl.GetString(gl.RENDERER)))
	}
	c.caps = readCaps(name)
	if c.debug {
		enableDebugOutput()
	}
	return nil
}

// Do runs f on the GL thread and returns when it has run. Calls from the GL
// thread itself (f calling Do again) run at once. A panic in f is raised
// again in the caller. Do panics if the context has been deleted.
func (c *Context) Do(f func()) {
	if syscall.Gettid() == c.tid {
		f()
		return
	}
	if c.deleted.Load() {
		panic("gpu: Context used after Delete")
	}
	done := make(chan any, 1)
	c.calls <- call{f, done}
	if p := <-done; p != nil {
		panic(p)
	}
}

// OnThread reports whether the caller runs on the GL thread (inside Do).
func (c *Context) OnThread() bool { return syscall.Gettid() == c.tid }

// mustOnThread is the check behind every raw GL call of this package: a GL
// call on another thread silently reads garbage, so it is refused loudly.
func (c *Context) mustOnThread(what string) {
	if syscall.Gettid() != c.tid {
		panic("gpu: " + what + " called off the GL thread; wrap it in Context.Do")
	}
}

// Caps returns the capabilities read when the context was made.
func (c *Context) Caps() *Caps { return &c.caps }

// Debug reports whether every GL call is checked with glGetError (build tag
// gldebug, or DPGL_GL_DEBUG set in the environment).
func (c *Context) Debug() bool { return c.debug }

// Flush submits the queued GL commands without waiting for them.
func (c *Context) Flush() { c.Do(func() { gl.Flush(); c.check("glFlush") }) }

// Finish waits until every queued GL command has completed.
func (c *Context) Finish() { c.Do(func() { gl.Finish(); c.check("glFinish") }) }

// Delete frees the cached programs, destroys the GL context and stops the GL
// thread. Buffers and timers must be deleted by their owners first; Live
// tells which are left. Delete is idempotent.
func (c *Context) Delete() {
	if c.deleted.Swap(true) {
		return
	}
	close(c.calls)
	<-c.stopped
}

// Object kinds counted by Live.
const (
	KindBuffer = iota
	KindProgram
	KindShader
	KindQuery
	KindTexture
	KindFramebuffer
	KindVertexArray
	numKinds
)

var kindNames = [numKinds]string{"buffers", "programs", "shaders", "queries", "textures", "framebuffers", "vertex arrays"}

// Objects counts GL objects by kind.
type Objects [numKinds]int64

func (o Objects) String() string {
	s := ""
	for k, n := range o {
		if n != 0 {
			if s != "" {
				s += ", "
			}
			s += fmt.Sprintf("%d %s", n, kindNames[k])
		}
	}
	if s == "" {
		return "none"
	}
	return s
}

// Live returns how many GL objects of each kind exist now; Made how many
// were ever created. Tests use Live to find leaks.
func (c *Context) Live() Objects {
	var o Objects
	for k := range o {
		o[k] = c.live[k].Load()
	}
	return o
}

// Made returns how many GL objects of each kind the context has created.
func (c *Context) Made() Objects {
	var o Objects
	for k := range o {
		o[k] = c.made[k].Load()
	}
	return o
}

func (c *Context) track(kind int, n int) {
	c.live[kind].Add(int64(n))
	if n > 0 {
		c.made[kind].Add(int64(n))
	}
}

// eglPlatform is the headless platform.
type eglPlatform struct{ e *eglContext }

func (p *eglPlatform) Open(debug bool) (func(string) unsafe.Pointer, string, error) {
	e, err := newEGL(debug)
	if err != nil {
		return nil, "", err
	}
	p.e = e
	return e.procAddr, e.platform, nil
}

func (p *eglPlatform) Close() {
	if p.e != nil {
		p.e.destroy()
		p.e = nil
	}
}
