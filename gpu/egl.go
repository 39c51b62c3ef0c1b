package gpu

/*
#cgo pkg-config: egl
#include <stdlib.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>

// Extension entry points are looked up at run time: the EGL loader (glvnd)
// exports them only through eglGetProcAddress.
static PFNEGLQUERYDEVICESEXTPROC dpglQueryDevices;
static PFNEGLGETPLATFORMDISPLAYEXTPROC dpglGetPlatformDisplay;
static PFNEGLQUERYDEVICESTRINGEXTPROC dpglQueryDeviceString;

static void dpglLoad(void) {
	if (!dpglGetPlatformDisplay) {
		dpglQueryDevices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
		dpglGetPlatformDisplay = (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
		dpglQueryDeviceString = (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
	}
}

static const char* dpglClientExtensions(void) {
	const char* s = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
	return s ? s : "";
}

// dpglDevices fills devs with up to max devices and returns how many there are.
static int dpglDevices(EGLDeviceEXT* devs, int max) {
	dpglLoad();
	if (!dpglQueryDevices) return -1;
	EGLint n = 0;
	if (!dpglQueryDevices(max, devs, &n)) return -1;
	return n;
}

static const char* dpglDeviceExtensions(EGLDeviceEXT dev) {
	dpglLoad();
	if (!dpglQueryDeviceString) return "";
	const char* s = dpglQueryDeviceString(dev, EGL_EXTENSIONS);
	return s ? s : "";
}

static EGLDisplay dpglPlatformDisplay(EGLenum platform, void* native) {
	dpglLoad();
	if (!dpglGetPlatformDisplay) return EGL_NO_DISPLAY;
	return dpglGetPlatformDisplay(platform, native, NULL);
}

// dpglCreate initializes dpy and creates an OpenGL core context of the given
// version, current on the calling thread without a surface. On failure it
// returns NULL and sets *step to the EGL call that failed.
static EGLContext dpglCreate(EGLDisplay dpy, int major, int minor, int debug, const char** step) {
	EGLint maj, min;
	if (!eglInitialize(dpy, &maj, &min)) { *step = "eglInitialize"; return NULL; }
	if (!eglBindAPI(EGL_OPENGL_API)) { *step = "eglBindAPI(EGL_OPENGL_API)"; return NULL; }
	EGLConfig cfg = EGL_NO_CONFIG_KHR;
	EGLint cfgAttr[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE };
	EGLint n = 0;
	if (!eglChooseConfig(dpy, cfgAttr, &cfg, 1, &n) || n < 1) {
		// A surfaceless context needs no config where EGL_KHR_no_config_context is offered.
		cfg = EGL_NO_CONFIG_KHR;
	}
	EGLint attr[] = {
		EGL_CONTEXT_MAJOR_VERSION, major,
		EGL_CONTEXT_MINOR_VERSION, minor,
		EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
		EGL_CONTEXT_OPENGL_DEBUG, debug ? EGL_TRUE : EGL_FALSE,
		EGL_NONE,
	};
	EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, attr);
	if (ctx == EGL_NO_CONTEXT) { *step = "eglCreateContext"; return NULL; }
	if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
		*step = "eglMakeCurrent(no surface)";
		eglDestroyContext(dpy, ctx);
		return NULL;
	}
	return ctx;
}

static void dpglDestroy(EGLDisplay dpy, EGLContext ctx) {
	eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglDestroyContext(dpy, ctx);
	eglReleaseThread();
}

static void* dpglProc(const char* name) { return (void*)eglGetProcAddress(name); }

// dpglDeviceDRM is the device's DRM device file, or "" where the device
// has none (Mesa's software device) or EGL_EXT_device_drm is missing.
static const char* dpglDeviceDRM(EGLDeviceEXT dev) {
	dpglLoad();
	if (!dpglQueryDeviceString) return "";
	const char* s = dpglQueryDeviceString(dev, EGL_DRM_DEVICE_FILE_EXT);
	return s ? s : "";
}
*/
import "C"

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// eglContext is a headless OpenGL context made through EGL.
type eglContext struct {
	dpy      C.EGLDisplay
	ctx      C.EGLContext
	platform string
}

// eglDisplays counts the live contexts on each EGLDisplay: a display is
// terminated only when its last context goes, because EGL hands out one
// display per (platform, device) to the whole process.
var eglDisplays = struct {
	sync.Mutex
	refs map[C.EGLDisplay]int
}{refs: map[C.EGLDisplay]int{}}

// glVersions are tried from the newest down to the 4.3 minimum that compute
// shaders and storage buffers need.
var glVersions = [][2]int{{4, 6}, {4, 5}, {4, 4}, {4, 3}}

// EGLDevice is one device of the EGL device platform: NVIDIA's driver lists
// each GPU, Mesa its GPUs and a software device (llvmpipe).
type EGLDevice struct {
	// Index is the device's place in EGL's list (eglQueryDevicesEXT), as
	// NewHeadlessDevice, DPGL_EGL_DEVICE and Caps.Platform ("EGL device 1")
	// name it.
	Index int
	// Software: Mesa's CPU renderer (EGL_MESA_device_software).
	Software bool
	// DRM is the device's DRM file (/dev/dri/card1) where EGL names one.
	DRM string
}

// maxEGLDevices is the most devices EGLDevices lists: more GPUs than any
// node holds.
const maxEGLDevices = 64

// EGLDevices lists the EGL device platform's devices, in EGL's order. It
// returns an error when the platform is missing (no EGL_EXT_platform_device)
// or the query fails; it makes no context.
func EGLDevices() ([]EGLDevice, error) {
	if !strings.Contains(C.GoString(C.dpglClientExtensions()), "EGL_EXT_platform_device") {
		return nil, fmt.Errorf("gpu: the EGL device platform is missing (no EGL_EXT_platform_device): no GPU can be chosen by index")
	}
	var devs [maxEGLDevices]C.EGLDeviceEXT
	n := int(C.dpglDevices(&devs[0], maxEGLDevices))
	if n < 0 {
		return nil, fmt.Errorf("gpu: eglQueryDevicesEXT failed (0x%04x)", int(C.eglGetError()))
	}
	out := make([]EGLDevice, min(n, maxEGLDevices))
	for i := range out {
		out[i] = EGLDevice{
			Index:    i,
			Software: strings.Contains(C.GoString(C.dpglDeviceExtensions(devs[i])), "EGL_MESA_device_software"),
		}
		if strings.Contains(C.GoString(C.dpglDeviceExtensions(devs[i])), "EGL_EXT_device_drm") {
			out[i].DRM = C.GoString(C.dpglDeviceDRM(devs[i]))
		}
	}
	return out, nil
}

// DeviceForRank is the device that the process of local rank localRank
// (its rank among the processes on its node, from 0) uses when each takes
// its own: localRank mod the number of hardware devices, so that ranks
// spread over a node's GPUs and share them round-robin when there are
// more ranks than GPUs. Where EGL lists no hardware device (llvmpipe alone)
// every rank shares the software device. An empty list or a negative rank
// is an error.
func DeviceForRank(devs []EGLDevice, localRank int) (EGLDevice, error) {
	if localRank < 0 {
		return EGLDevice{}, fmt.Errorf("gpu: local rank %d: want 0 or more", localRank)
	}
	var hw []EGLDevice
	for _, d := range devs {
		if !d.Software {
			hw = append(hw, d)
		}
	}
	if len(hw) == 0 {
		hw = devs
	}
	if len(hw) == 0 {
		return EGLDevice{}, fmt.Errorf("gpu: the EGL device platform lists no device for local rank %d", localRank)
	}
	return hw[localRank%len(hw)], nil
}

// NewHeadlessDevice is NewHeadless on EGL device i alone (EGLDevices'
// Index): no other device and no surfaceless fallback, so that a process
// asked for a GPU gets it or an error naming it. An index outside the list
// is an error naming it and the number of devices.
func NewHeadlessDevice(i int) (*Context, error) {
	return New(&eglDevicePlatform{index: i})
}

// eglDevicePlatform is the headless platform on one chosen device.
type eglDevicePlatform struct {
	index int
	e     *eglContext
}

func (p *eglDevicePlatform) Open(debug bool) (func(string) unsafe.Pointer, string, error) {
	e, err := newEGLOn(debug, p.index)
	if err != nil {
		return nil, "", err
	}
	p.e = e
	return e.procAddr, e.platform, nil
}

func (p *eglDevicePlatform) Close() {
	if p.e != nil {
		p.e.destroy()
		p.e = nil
	}
}

// deviceEnv chooses NewHeadless's device when set (an EGLDevices index),
// as CUDA_VISIBLE_DEVICES would: for a job whose launcher gives each
// process its GPU.
const deviceEnv = "DPGL_EGL_DEVICE"

// newEGL makes a context current on the calling (locked) thread. It tries the
// EGL device platform first (each device in turn: NVIDIA exposes its GPUs
// this way), then Mesa's surfaceless platform, and reports every attempt when
// all fail. DPGL_EGL_DEVICE, when set, names the one device to use.
func newEGL(debug bool) (*eglContext, error) {
	if s, ok := os.LookupEnv(deviceEnv); ok {
		i, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || i < 0 {
			return nil, fmt.Errorf("gpu: %s=%q: want a device index, 0 or more", deviceEnv, s)
		}
		e, err := newEGLOn(debug, i)
		if err != nil {
			return nil, fmt.Errorf("%w (chosen by %s)", err, deviceEnv)
		}
		return e, nil
	}
	return newEGLAny(debug, -1)
}

// newEGLOn makes a context on EGL device i only.
func newEGLOn(debug bool, i int) (*eglContext, error) {
	devs, err := EGLDevices()
	if err != nil {
		return nil, err
	}
	if i < 0 || i >= len(devs) {
		return nil, fmt.Errorf("gpu: EGL device %d does not exist: EGL lists %d device(s), 0 to %d", i, len(devs), len(devs)-1)
	}
	return newEGLAny(debug, i)
}

// newEGLAny tries every device, then surfaceless, when only < 0; else
// device only alone.
func newEGLAny(debug bool, only int) (*eglContext, error) {
	client := C.GoString(C.dpglClientExtensions())
	t := &eglTries{debug: debug}
	if strings.Contains(client, "EGL_EXT_platform_device") {
		if c := t.devices(only); c != nil {
			return c, nil
		}
	} else {
		t.tried = append(t.tried, "EGL device platform: EGL_EXT_platform_device not offered")
	}
	if only >= 0 {
		return nil, fmt.Errorf("gpu: no OpenGL 4.3+ core context could be made on EGL device %d (%s)", only, strings.Join(t.tried, "; "))
	}
	if strings.Contains(client, "EGL_MESA_platform_surfaceless") {
		if c := t.try("EGL surfaceless", C.dpglPlatformDisplay(C.EGL_PLATFORM_SURFACELESS_MESA, nil)); c != nil {
			return c, nil
		}
	} else {
		t.tried = append(t.tried, "EGL surfaceless platform: EGL_MESA_platform_surfaceless not offered")
	}
	return nil, fmt.Errorf("gpu: no headless OpenGL 4.3+ core context could be made (%s); "+
		"install an NVIDIA driver with its EGL library, or Mesa (apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri) for the llvmpipe CPU renderer",
		strings.Join(t.tried, "; "))
}

// eglTries makes a context on the first display that gives one, keeping
// why each other failed for the error.
type eglTries struct {
	debug bool
	tried []string
}

// try makes a context on dpy, the newest GL version first; nil when none
// could be made.
func (t *eglTries) try(name string, dpy C.EGLDisplay) *eglContext {
	if dpy == 0 {
		t.tried = append(t.tried, name+": no display")
		return nil
	}
	var lastErr string
	for _, v := range glVersions {
		var step *C.char
		dbg := C.int(0)
		if t.debug {
			dbg = 1
		}
		ctx := C.dpglCreate(dpy, C.int(v[0]), C.int(v[1]), dbg, &step)
		if ctx != nil {
			eglDisplays.Lock()
			eglDisplays.refs[dpy]++
			eglDisplays.Unlock()
			return &eglContext{dpy: dpy, ctx: ctx, platform: name}
		}
		lastErr = fmt.Sprintf("%s failed (0x%04x) for OpenGL %d.%d core", C.GoString(step), int(C.eglGetError()), v[0], v[1])
		if C.GoString(step) == "eglInitialize" {
			break
		}
	}
	t.tried = append(t.tried, name+": "+lastErr)
	eglDisplays.Lock()
	if eglDisplays.refs[dpy] == 0 {
		C.eglTerminate(dpy)
	}
	eglDisplays.Unlock()
	return nil
}

// devices tries the EGL devices, hardware ones first (Mesa also lists a
// software device), or device only when it is not negative.
func (t *eglTries) devices(only int) *eglContext {
	var devs [maxEGLDevices]C.EGLDeviceEXT
	n := int(C.dpglDevices(&devs[0], maxEGLDevices))
	if n < 0 {
		t.tried = append(t.tried, "EGL device platform: eglQueryDevicesEXT failed")
	}
	order := make([]int, 0, n)
	for _, software := range []bool{false, true} {
		for i := 0; i < n && i < len(devs); i++ {
			if strings.Contains(C.GoString(C.dpglDeviceExtensions(devs[i])), "EGL_MESA_device_software") == software {
				order = append(order, i)
			}
		}
	}
	if only >= 0 {
		order = []int{only}
	}
	for _, i := range order {
		if i >= n || i >= len(devs) {
			t.tried = append(t.tried, fmt.Sprintf("EGL device %d: EGL lists %d", i, n))
			continue
		}
		name := fmt.Sprintf("EGL device %d", i)
		if c := t.try(name, C.dpglPlatformDisplay(C.EGL_PLATFORM_DEVICE_EXT, unsafe.Pointer(devs[i]))); c != nil {
			return c
		}
	}
	return nil
}

func (e *eglContext) procAddr(name string) unsafe.Pointer {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return C.dpglProc(cs)
}

func (e *eglContext) destroy() {
	C.dpglDestroy(e.dpy, e.ctx)
	eglDisplays.Lock()
	eglDisplays.refs[e.dpy]--
	if eglDisplays.refs[e.dpy] == 0 {
		delete(eglDisplays.refs, e.dpy)
		C.eglTerminate(e.dpy)
	}
	eglDisplays.Unlock()
}
