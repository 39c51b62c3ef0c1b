package scan_test

import (
	"io/fs"
	"regexp"
	"strconv"
	"testing"

	"github.com/dpgl/dpgl/scan"
	"github.com/dpgl/dpgl/shaders"
)

// The modes that Go passes as OUT and MAP mean in GLSL what Go
// calls them: every #define of modes.glsl has a Go constant of the same
// value, and every Go constant a #define.
func TestModesAgree(t *testing.T) {
	src, err := fs.ReadFile(shaders.FS, "scan/modes.glsl")
	if err != nil {
		t.Fatal(err)
	}
	glsl := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^#define ([A-Z_]+) ([0-9]+)`).FindAllStringSubmatch(string(src), -1) {
		v, _ := strconv.Atoi(m[2])
		glsl[m[1]] = v
	}
	if len(glsl) == 0 {
		t.Fatal("modes.glsl defines nothing")
	}
	for name, v := range glsl {
		g, ok := scan.Modes[name]
		if !ok {
			t.Errorf("modes.glsl defines %s %d, which modes.go lacks", name, v)
		} else if g != v {
			t.Errorf("%s is %d in modes.glsl but %d in modes.go", name, v, g)
		}
	}
	for name, g := range scan.Modes {
		if _, ok := glsl[name]; !ok {
			t.Errorf("modes.go has %s = %d, which modes.glsl does not define", name, g)
		}
	}
}
