package gpu_test

import (
	"fmt"
	"os"
	"path/filepath"
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
	if want := gpu.ShadersPath + "balancer/loop.glsl:50"; err == nil || !strings.Contains(err.Error(), want) {
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
