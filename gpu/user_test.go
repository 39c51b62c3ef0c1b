package gpu_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
)

// A user's kernel from a directory of the user's own, including its own
// header and dpgl's include/common.glsl, run by DispatchInvocations at
// sizes around a group and past the driver's 65,535 groups in x (the
// kernel's groups have one invocation), against a plain loop.
func TestUserProgramFileAnyLength(t *testing.T) {
	c := gputest.Context(t)
	p, err := c.UserProgramFile(filepath.Join("testdata", "kernels", "fill.comp"), nil)
	if err != nil {
		t.Fatal(err)
	}
	maxX := c.Caps().MaxWorkGroupCount[0]
	for _, n := range []int{0, 1, 2, 1000, maxX, maxX + 1, maxX + 77} {
		if n > 1<<22 {
			continue // a driver with a huge x limit: the 2-D layout is tested elsewhere
		}
		g := gputest.NewGuarded[uint32](t, c, n, 0xdeadbeef, nil)
		c.Do(func() {
			c.BindStorage(0, g.View)
			p.SetUint("n", uint32(n))
			p.SetUint("stride", 3)
			p.SetUint("offset", 7)
			p.DispatchInvocations(n)
		})
		got := g.Check(t, fmt.Sprintf("n=%d", n))
		for i, v := range got {
			if v != uint32(i)*3+7 {
				t.Fatalf("n=%d: dst[%d] = %d, want %d", n, i, v, i*3+7)
			}
		}
		g.Delete()
	}
}

func TestGroups(t *testing.T) {
	c := gputest.Context(t)
	p := c.MustProgram("copy/copy.comp", map[string]string{"WG_SIZE": "64", "ITEMS": "1"})
	for n, want := range map[int]int{0: 0, 1: 1, 63: 1, 64: 1, 65: 2, 128: 2, 129: 3} {
		if got := p.Groups(n); got != want {
			t.Errorf("Groups(%d) = %d, want %d", n, got, want)
		}
	}
}

// More invocations or groups than the driver's 2-D grid reaches panic
// naming the count and the limits, before any GL call.
func TestDispatchBeyondTheGridPanics(t *testing.T) {
	c := gputest.Context(t)
	p := c.MustProgram("copy/copy.comp", map[string]string{"WG_SIZE": "64", "ITEMS": "1"})
	m := c.Caps().MaxWorkGroupCount
	groups := m[0] * m[1]
	for _, tc := range []struct {
		name string
		f    func()
		want string
	}{
		{"DispatchInvocations", func() { p.DispatchInvocations(64*groups + 1) },
			fmt.Sprintf("%d invocations need %d work groups of 64, more than the driver's %d x %d", 64*groups+1, groups+1, m[0], m[1])},
		{"DispatchItems", func() { p.DispatchItems(256*groups+1, 4) },
			fmt.Sprintf("%d items at 4 an invocation need %d work groups of 64", 256*groups+1, groups+1)},
		{"Dispatch1D", func() { p.Dispatch1D(groups + 1) },
			fmt.Sprintf("%d work groups exceed the driver's %d x %d", groups+1, m[0], m[1])},
		{"DispatchItems by 0", func() { p.DispatchItems(5, 0) }, "want n >= 0 and perInvocation > 0"},
		{"off the GL thread", func() { p.DispatchInvocations(1) }, "off the GL thread"},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), tc.want) {
					t.Errorf("%s: recovered %v, want a panic with %q", tc.name, r, tc.want)
				}
			}()
			if tc.name == "off the GL thread" {
				tc.f()
				return
			}
			c.Do(tc.f)
		}()
	}
}

// A 2-D kernel covers w x h invocations at sizes around its 8 x 4 group,
// writing no element outside.
func TestDispatchInvocations2D(t *testing.T) {
	c := gputest.Context(t)
	p, err := c.UserProgramSource("fill2d.comp", `#version 450
layout(local_size_x = 8, local_size_y = 4) in;
layout(std430, binding = 0) writeonly buffer Dst { uint dst[]; };
uniform uint w, h;
void main() {
    uvec2 q = gl_GlobalInvocationID.xy;
    if (q.x >= w || q.y >= h) {
        return;
    }
    dst[q.y * w + q.x] = q.y * 65536u + q.x + 1u;
}
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, sz := range [][2]int{{0, 3}, {3, 0}, {1, 1}, {7, 3}, {8, 4}, {9, 5}, {100, 37}} {
		w, h := sz[0], sz[1]
		g := gputest.NewGuarded[uint32](t, c, w*h, 0xdeadbeef, nil)
		c.Do(func() {
			c.BindStorage(0, g.View)
			p.SetUint("w", uint32(w))
			p.SetUint("h", uint32(h))
			p.DispatchInvocations2D(w, h)
		})
		got := g.Check(t, fmt.Sprintf("%dx%d", w, h))
		for i, v := range got {
			if want := uint32(i/w*65536 + i%w + 1); v != want {
				t.Fatalf("%dx%d: dst[%d] = %x, want %x", w, h, i, v, want)
			}
		}
		g.Delete()
	}
}

// Compile errors in a user's file, in the user's include, and in dpgl's
// include name the file where the mistake is and its line, and leave no GL
// object behind.
func TestUserProgramErrorsNameFileAndLine(t *testing.T) {
	c := gputest.Context(t)
	before := c.Live()
	dir := filepath.Join("testdata", "kernels")
	_, err := c.UserProgramFile(filepath.Join(dir, "broken.comp"), nil)
	if want := filepath.Join(dir, "mine", "broken.glsl") + ":4"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error in the user's include does not point at %s:\n%v", want, err)
	}
	_, err = c.UserProgram(os.DirFS(dir), "broken.comp", nil)
	if err == nil || !strings.Contains(err.Error(), "mine/broken.glsl:4") {
		t.Fatalf("UserProgram: error does not point at mine/broken.glsl:4:\n%v", err)
	}
	_, err = c.UserProgramSource("mine.comp", "#version 450\nlayout(local_size_x = 1) in;\n#include \"include/common.glsl\"\nvoid main() {\n  int x = ;\n}\n", nil)
	if err == nil || !strings.Contains(err.Error(), "mine.comp:5") {
		t.Fatalf("error in the user's main file does not point at mine.comp:5:\n%v", err)
	}
	// A problem type that does not exist surfaces where dpgl's loop.glsl
	// declares the problem array.
	_, err = c.UserProgramSource("k.comp", "#version 450\nlayout(local_size_x = 1) in;\n#define BALANCER_PROBLEM NoSuchType\n#include \"balancer/loop.glsl\"\nvoid balancerSolve(uint p, NoSuchType q, uint t) {}\n", nil)
	if want := gpu.ShadersPath + "balancer/loop.glsl:" + strconv.Itoa(problemArrayLine(t)); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error in dpgl's include does not point at %s:\n%v", want, err)
	}
	_, err = c.UserProgramSource("k.comp", "#version 450\n#include \"nowhere.glsl\"\n", nil)
	if err == nil || !strings.Contains(err.Error(), "k.comp:2") || !strings.Contains(err.Error(), "nowhere.glsl") {
		t.Fatalf("missing include: %v", err)
	}
	missing := filepath.Join(dir, "nope.comp")
	if _, err = c.UserProgramFile(missing, nil); err == nil || !strings.Contains(err.Error(), missing) {
		t.Fatalf("a missing file: %v", err)
	}
	if after := c.Live(); after != before {
		t.Fatalf("failed builds leaked GL objects: before %v, after %v", before, after)
	}
}

// The user's files come first: a user's include/common.glsl shadows dpgl's.
func TestWithShadersUserFirst(t *testing.T) {
	fsys := gpu.WithShaders(fstest.MapFS{"include/common.glsl": {Data: []byte("int mine;\n")}})
	src, err := gpu.Expand(fsys, "balancer/loop.glsl", nil)
	if err == nil {
		t.Fatalf("loop.glsl has no #version, yet expanded:\n%s", src.Text)
	}
	src, err = gpu.Expand(gpu.WithShaders(fstest.MapFS{
		"k.comp":              {Data: []byte("#version 450\n#include \"include/common.glsl\"\n#include \"scan/sgemu.glsl\"\n")},
		"include/common.glsl": {Data: []byte("int mine;\n")},
	}), "k.comp", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(src.Text, "int mine;") || strings.Contains(src.Text, "dpglGroupIndex") {
		t.Fatalf("the user's include/common.glsl did not shadow dpgl's:\n%s", src.Text)
	}
	if fmt.Sprint(src.Files) != fmt.Sprintf("[k.comp include/common.glsl %sscan/sgemu.glsl]", gpu.ShadersPath) {
		t.Fatalf("files %v", src.Files)
	}
}

// problemArrayLine is the line of dpgl's balancer/loop.glsl that declares
// the problem array, where a problem type that does not exist is reported.
func problemArrayLine(t *testing.T) int {
	t.Helper()
	b, err := fs.ReadFile(gpu.WithShaders(fstest.MapFS{}), "balancer/loop.glsl")
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "BALANCER_PROBLEM balancerProblem[]") {
			return i + 1
		}
	}
	t.Fatal("balancer/loop.glsl declares no problem array")
	return 0
}
