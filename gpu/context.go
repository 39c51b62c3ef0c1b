package gpu

import (
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
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
	calls    chan *call
	cur      atomic.Pointer[call] // the call the GL thread runs now
	stall    atomic.Pointer[stallReport]
	stopped  chan struct{}
	deleted  atomic.Bool

	caps  Caps
	debug bool
	// flushStamps: flush after each timestamp (timer.go), on Mesa's own
	// CPU renderers and not on zink.
	flushStamps bool

	programs programCache
	bound    []Storage // what BindStorage bound at each binding, for the layout check (GL thread only)
	vao      uint32    // the empty vertex array that attribute-less draws need
	// Memory barriers (barrier.go; GL thread only): the bits no barrier
	// has issued since the last dispatch or draw, how many barriers were
	// issued and the last one's bits (for tests).
	unissued    Barrier
	barriers    int
	lastBarrier Barrier
	live        [numKinds]atomic.Int64
	made        [numKinds]atomic.Int64
	readBacks   atomic.Int64 // GPU-to-host copies made (ReadBacks)
}

type call struct {
	f     func()
	done  chan any
	since time.Time // when the GL thread started it
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
		calls:    make(chan *call),
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
	glThreads.Store(c.tid, c)
	defer glThreads.Delete(c.tid)
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
		k.since = time.Now()
		c.cur.Store(k)
		p := runCall(k.f)
		c.cur.Store(nil)
		k.done <- p
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
	c.flushStamps = c.caps.Software && !strings.Contains(strings.ToLower(c.caps.Renderer), "zink")
	lim, err := probeLoopLimit()
	if err != nil {
		return fmt.Errorf("gpu: %s (%s): %v", name, c.caps.Renderer, err)
	}
	c.caps.LoopLimit = lim
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
	k := &call{f: f, done: make(chan any, 1)}
	select {
	case c.calls <- k:
	default:
		c.wait(k)
	}
	if p := <-k.done; p != nil {
		panic(p)
	}
}

// A Do whose function waits for another goroutine that itself calls Do
// (Buffer.Read, scan.Reduce, ...) deadlocks: the GL thread runs one
// function at a time, and the inner Do waits for the outer one to end. Go
// cannot see that dependency, so wait watches for its symptom: a Do that
// has waited a long time for a GL thread held all that time by one other
// call. It reports that once per waiting Do and keeps waiting (a call may
// just be slow); it never reports while the thread serves other calls.

type stallReport struct {
	after  time.Duration
	report func(msg string)
}

// DefaultStallReport is how long a Do waits for a GL thread held by one
// other call before the stall is reported on standard error.
const DefaultStallReport = 60 * time.Second

// SetStallReport sets how long a Do may wait for a GL thread held all that
// time by one other call of Do before report is called with a message
// naming both callers and the likely cause (a Do that waits for a
// goroutine calling Do). after <= 0 turns the report off; report nil
// writes to standard error. The default: DefaultStallReport, to standard
// error.
func (c *Context) SetStallReport(after time.Duration, report func(msg string)) {
	if report == nil {
		report = func(msg string) { fmt.Fprintln(os.Stderr, msg) }
	}
	c.stall.Store(&stallReport{after, report})
}

// wait hands k to the GL thread when it is busy, reporting a stall.
func (c *Context) wait(k *call) {
	sr := c.stall.Load()
	if sr == nil {
		sr = &stallReport{DefaultStallReport, func(msg string) { fmt.Fprintln(os.Stderr, msg) }}
	}
	if sr.after <= 0 {
		c.calls <- k
		return
	}
	t := time.NewTimer(sr.after)
	defer t.Stop()
	start := time.Now()
	for {
		select {
		case c.calls <- k:
			return
		case <-t.C:
			if cur := c.cur.Load(); cur != nil && time.Since(cur.since) >= sr.after {
				held := time.Since(cur.since).Round(time.Millisecond)
				sr.report(fmt.Sprintf("gpu: a Do called from %s has waited %v for the GL thread, which one Do (of %s) has held for %v: "+
					"if that Do's function waits for a goroutine that calls Do (a Buffer method, scan.Reduce, ...), they are deadlocked; "+
					"call such work from the Do's own function, where Do runs at once, or after it",
					callerOutsideGPU(), time.Since(start).Round(time.Millisecond), funcName(cur.f), held))
				c.calls <- k
				return
			}
			t.Reset(sr.after)
		}
	}
}

// callerOutsideGPU names the first caller outside this package.
func callerOutsideGPU() string {
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, "github.com/dpgl/dpgl/gpu.") {
			return fmt.Sprintf("%s (%s:%d)", f.Function, f.File, f.Line)
		}
		if !more {
			return "?"
		}
	}
}

func funcName(f func()) string {
	if fn := runtime.FuncForPC(reflect.ValueOf(f).Pointer()); fn != nil {
		file, line := fn.FileLine(fn.Entry())
		return fmt.Sprintf("%s, %s:%d", fn.Name(), file, line)
	}
	return "?"
}

// OnThread reports whether the caller runs on the GL thread (inside Do).
func (c *Context) OnThread() bool { return syscall.Gettid() == c.tid }

// mustOnThread is the check behind every raw GL call of this package: a GL
// call on another thread silently reads garbage, so it is refused loudly.
func (c *Context) mustOnThread(what string) {
	tid := syscall.Gettid()
	if tid == c.tid {
		return
	}
	if other, ok := glThreads.Load(tid); ok && other != c {
		panic("gpu: " + what + " called inside the Do of another Context than the one it belongs to; run it in its own Context's Do (GL objects cannot be shared between contexts)")
	}
	panic("gpu: " + what + " called off the GL thread; wrap it in Context.Do")
}

// glThreads maps the thread ids of the GL threads of live contexts to their
// Context, so that a call on the wrong one says so.
var glThreads sync.Map

// Caps returns the capabilities read when the context was made.
func (c *Context) Caps() *Caps { return &c.caps }

// Debug reports whether every GL call is checked with glGetError (build tag
// gldebug, or DPGL_GL_DEBUG set in the environment).
func (c *Context) Debug() bool { return c.debug }

// ReadBacks returns how many times the context has copied GPU memory to the
// host (Buffer.Read, Download and Get; Texture.Read; ReadDefault): each
// waits for the GPU to finish what it was given. A chain of kernels whose
// results stay on the GPU makes none between its steps, and a test can
// count them.
func (c *Context) ReadBacks() int { return int(c.readBacks.Load()) }

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
