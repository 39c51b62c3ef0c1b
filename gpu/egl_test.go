package gpu_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu"
)

func TestDeviceForRank(t *testing.T) {
	sw := func(i int) gpu.EGLDevice { return gpu.EGLDevice{Index: i, Software: true} }
	hw := func(i int) gpu.EGLDevice { return gpu.EGLDevice{Index: i, DRM: fmt.Sprintf("/dev/dri/card%d", i)} }
	cases := []struct {
		name string
		devs []gpu.EGLDevice
		want []int // device index for local ranks 0, 1, 2, ...
	}{
		{"llvmpipe alone: every rank shares it", []gpu.EGLDevice{sw(0)}, []int{0, 0, 0, 0}},
		{"one GPU", []gpu.EGLDevice{hw(0)}, []int{0, 0, 0}},
		{"four GPUs and Mesa's software device", []gpu.EGLDevice{hw(0), hw(1), hw(2), hw(3), sw(4)}, []int{0, 1, 2, 3, 0, 1, 2, 3, 0}},
		{"software device listed first", []gpu.EGLDevice{sw(0), hw(1), hw(2)}, []int{1, 2, 1, 2, 1}},
		{"two software devices", []gpu.EGLDevice{sw(0), sw(1)}, []int{0, 1, 0}},
	}
	for _, tc := range cases {
		for r, want := range tc.want {
			d, err := gpu.DeviceForRank(tc.devs, r)
			if err != nil || d.Index != want {
				t.Fatalf("%s: local rank %d: device %d, %v; want %d", tc.name, r, d.Index, err, want)
			}
		}
	}
	if _, err := gpu.DeviceForRank(nil, 0); err == nil || !strings.Contains(err.Error(), "no device") {
		t.Fatalf("no devices: %v, want an error saying there is none", err)
	}
	if _, err := gpu.DeviceForRank([]gpu.EGLDevice{hw(0)}, -1); err == nil || !strings.Contains(err.Error(), "-1") {
		t.Fatalf("local rank -1: %v, want an error naming it", err)
	}
}

// eglDevices lists the devices, skipping (failing under DPGL_REQUIRE_GL)
// where the EGL device platform is missing.
func eglDevices(t *testing.T) []gpu.EGLDevice {
	t.Helper()
	devs, err := gpu.EGLDevices()
	if err == nil && len(devs) == 0 {
		err = fmt.Errorf("EGL lists no device")
	}
	if err != nil {
		if os.Getenv("DPGL_REQUIRE_GL") != "" {
			t.Fatalf("DPGL_REQUIRE_GL is set: %v", err)
		}
		t.Skip(err)
	}
	for i, d := range devs {
		if d.Index != i {
			t.Fatalf("device %d says it is %d", i, d.Index)
		}
	}
	return devs
}

// TestNewHeadlessDevice makes a context on the device local rank 0 would
// take, and on every device the list holds, each reporting its index.
func TestNewHeadlessDevice(t *testing.T) {
	devs := eglDevices(t)
	t.Logf("EGL devices: %+v", devs)
	for _, d := range devs {
		c, err := gpu.NewHeadlessDevice(d.Index)
		if err != nil {
			if !d.Software && len(devs) > 1 {
				// A GPU this process may not open (no permission on its
				// DRM node): listed, not usable; the error must name it.
				if !strings.Contains(err.Error(), fmt.Sprintf("EGL device %d", d.Index)) {
					t.Fatalf("device %d: %v: the error does not name the device", d.Index, err)
				}
				continue
			}
			t.Fatalf("device %d: %v", d.Index, err)
		}
		if got, want := c.Caps().Platform, fmt.Sprintf("EGL device %d", d.Index); got != want {
			c.Delete()
			t.Fatalf("NewHeadlessDevice(%d) made a context on %q", d.Index, got)
		}
		c.Delete()
	}
}

func TestNewHeadlessDeviceOutOfRange(t *testing.T) {
	devs := eglDevices(t)
	for _, i := range []int{len(devs), len(devs) + 7, -1} {
		c, err := gpu.NewHeadlessDevice(i)
		if err == nil {
			c.Delete()
			t.Fatalf("NewHeadlessDevice(%d) of %d devices: no error", i, len(devs))
		}
		for _, want := range []string{fmt.Sprintf("EGL device %d does not exist", i), fmt.Sprintf("lists %d device(s)", len(devs))} {
			if !strings.Contains(err.Error(), want) {
				t.Fatalf("NewHeadlessDevice(%d): %q does not say %q", i, err, want)
			}
		}
	}
}

func TestEGLDeviceEnv(t *testing.T) {
	devs := eglDevices(t)
	for _, bad := range []string{"x", "-2", "1.5"} {
		t.Setenv("DPGL_EGL_DEVICE", bad)
		c, err := gpu.NewHeadless()
		if err == nil {
			c.Delete()
			t.Fatalf("DPGL_EGL_DEVICE=%s: no error", bad)
		}
		if !strings.Contains(err.Error(), fmt.Sprintf("DPGL_EGL_DEVICE=%q", bad)) {
			t.Fatalf("DPGL_EGL_DEVICE=%s: %q does not name the variable and its value", bad, err)
		}
	}
	t.Setenv("DPGL_EGL_DEVICE", fmt.Sprint(len(devs)))
	if c, err := gpu.NewHeadless(); err == nil {
		c.Delete()
		t.Fatalf("DPGL_EGL_DEVICE=%d of %d devices: no error", len(devs), len(devs))
	} else if !strings.Contains(err.Error(), "DPGL_EGL_DEVICE") || !strings.Contains(err.Error(), fmt.Sprintf("EGL device %d does not exist", len(devs))) {
		t.Fatalf("DPGL_EGL_DEVICE=%d: %q does not name the variable and the device", len(devs), err)
	}
	d, err := gpu.DeviceForRank(devs, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("DPGL_EGL_DEVICE", fmt.Sprint(d.Index))
	c, err := gpu.NewHeadless()
	if err != nil {
		t.Fatalf("DPGL_EGL_DEVICE=%d: %v", d.Index, err)
	}
	defer c.Delete()
	if got, want := c.Caps().Platform, fmt.Sprintf("EGL device %d", d.Index); got != want {
		t.Fatalf("DPGL_EGL_DEVICE=%d made a context on %q", d.Index, got)
	}
}
