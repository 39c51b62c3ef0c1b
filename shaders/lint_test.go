package shaders_test

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/shaders"
)

// variants returns the define sets a shader asks to be linted with: its
// defaults, and one set per "// lint: K=V K=V" line.
func variants(src string) []map[string]string {
	out := []map[string]string{nil}
	for _, l := range strings.Split(src, "\n") {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "// lint:") {
			continue
		}
		d := map[string]string{}
		for _, kv := range strings.Fields(strings.TrimPrefix(l, "// lint:")) {
			k, v, _ := strings.Cut(kv, "=")
			d[k] = v
		}
		out = append(out, d)
	}
	return out
}

// TestLint runs glslangValidator on every shader (.comp, .vert, .frag),
// expanded the way the driver sees it, in each variant the file lists.
func TestLint(t *testing.T) {
	tool, err := exec.LookPath("glslangValidator")
	if err != nil {
		if os.Getenv("DPGL_REQUIRE_LINT") != "" {
			t.Fatal("DPGL_REQUIRE_LINT is set but glslangValidator is not installed (apt-get install glslang-tools)")
		}
		t.Skip("glslangValidator not installed (apt-get install glslang-tools)")
	}
	dir := t.TempDir()
	n := 0
	err = fs.WalkDir(shaders.FS, ".", func(path string, d fs.DirEntry, err error) error {
		ext := filepath.Ext(path)
		if err != nil || d.IsDir() || ext != ".comp" && ext != ".vert" && ext != ".frag" {
			return err
		}
		raw, _ := fs.ReadFile(shaders.FS, path)
		for i, defs := range variants(string(raw)) {
			src, err := gpu.Expand(shaders.FS, path, defs)
			if err != nil {
				t.Errorf("%s: %v", path, err)
				continue
			}
			f := filepath.Join(dir, "shader"+ext)
			if err := os.WriteFile(f, []byte(src.Text), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(tool, f).CombinedOutput()
			if err != nil {
				t.Errorf("%s (variant %d %v):\n%s", path, i, defs, src.MapLog(strings.ReplaceAll(string(out), f, "0")))
			}
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no shaders linted")
	}
	t.Logf("linted %d shader variants", n)
}
