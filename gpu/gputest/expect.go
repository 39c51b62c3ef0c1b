package gputest

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dpgl/dpgl/gpu"
)

// What a test run expects of its driver. A CI leg that runs the tests on a
// particular driver (make test-zink: Mesa's zink over lavapipe) sets these,
// so that a silent fall-back, to another driver or to the stand-ins that
// tests use where a driver lacks a feature, fails instead of passing:
//
//	DPGL_EXPECT_RENDERER   a substring GL_RENDERER must contain ("zink")
//	DPGL_EXPECT_SUBGROUPS  1: GL_KHR_shader_subgroup in compute shaders, and
//	                       the subgroup kernels run on the driver's own
//	DPGL_EXPECT_ATOMIC64   1: 64-bit atomicMin (GL_NV_shader_atomic_int64),
//	                       and the one-pass visibility path runs on it
//
// Context checks the driver against them; Main checks that the paths named
// by the package's tests ran.
const (
	EnvRenderer  = "DPGL_EXPECT_RENDERER"
	EnvSubgroups = "DPGL_EXPECT_SUBGROUPS"
	EnvAtomic64  = "DPGL_EXPECT_ATOMIC64"
)

// ExpectSubgroups reports whether the run must use the driver's subgroups.
func ExpectSubgroups() bool { return os.Getenv(EnvSubgroups) == "1" }

// ExpectAtomic64 reports whether the run must use the driver's 64-bit
// atomics.
func ExpectAtomic64() bool { return os.Getenv(EnvAtomic64) == "1" }

// checkExpectations says how caps fall short of the environment's
// expectations ("" when they do not).
func checkExpectations(cp *gpu.Caps) string {
	var miss []string
	if r := os.Getenv(EnvRenderer); r != "" && !strings.Contains(cp.Renderer, r) {
		miss = append(miss, fmt.Sprintf("%s=%s, and the renderer is %q", EnvRenderer, r, cp.Renderer))
	}
	if ExpectSubgroups() && !cp.Subgroup {
		miss = append(miss, EnvSubgroups+"=1, and the driver has no GL_KHR_shader_subgroup in compute shaders")
	}
	if ExpectAtomic64() && !cp.Atomic64 {
		miss = append(miss, EnvAtomic64+"=1, and the driver has no 64-bit atomics (GL_NV_shader_atomic_int64)")
	}
	return strings.Join(miss, "; ")
}

var paths struct {
	sync.Mutex
	ran map[string]int
}

// Ran records that a test ran a kernel path of the package (a name such as
// "look-back, driver subgroups (size 8)"); Main lists them when the tests
// end, and fails the run when a path it requires did not run.
func Ran(path string) {
	paths.Lock()
	defer paths.Unlock()
	if paths.ran == nil {
		paths.ran = map[string]int{}
	}
	paths.ran[path]++
}

// Main runs the package's tests (call it from TestMain), then prints on
// standard error the driver and every path the tests recorded with Ran, and
// fails the run when one of the paths that require returns (given the
// context's caps, called only when a context was made and no -run or -skip
// selected tests) did not run.
// Requiring paths only under the DPGL_EXPECT_* variables keeps -run
// selections usable elsewhere.
func Main(m *testing.M, require func(*gpu.Caps) []string) {
	code := m.Run()
	paths.Lock()
	ran := paths.ran
	paths.Unlock()
	var names []string
	for p := range ran {
		names = append(names, p)
	}
	slices.Sort(names)
	driver := "no GL context"
	if shared.ctx != nil {
		cp := shared.ctx.Caps()
		driver = cp.Renderer
		if cp.Subgroup {
			driver += fmt.Sprintf(", subgroup size %d", cp.SubgroupSize)
		}
	}
	if len(names) > 0 {
		fmt.Fprintf(os.Stderr, "gputest: paths run on %s:\n", driver)
		for _, p := range names {
			fmt.Fprintf(os.Stderr, "gputest:   %s (%d)\n", p, ran[p])
		}
	}
	// A run that selects tests (-run, -skip) need not reach every path.
	selected := false
	for _, name := range []string{"test.run", "test.skip"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" {
			selected = true
		}
	}
	if shared.ctx != nil && require != nil && code == 0 && !selected {
		cp := shared.ctx.Caps()
		for _, p := range require(cp) {
			if ran[p] == 0 {
				fmt.Fprintf(os.Stderr, "gputest: FAIL: path %q did not run on %s (%s)\n", p, driver, expectations())
				code = 1
			}
		}
	}
	os.Exit(code)
}

func expectations() string {
	var s []string
	for _, k := range []string{EnvRenderer, EnvSubgroups, EnvAtomic64} {
		if v := os.Getenv(k); v != "" {
			s = append(s, k+"="+v)
		}
	}
	if len(s) == 0 {
		return "no DPGL_EXPECT_* set"
	}
	return strings.Join(s, " ")
}
