package gpu

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestExpandDefinesSortedAndLines(t *testing.T) {
	fsys := fstest.MapFS{
		"k/main.comp": {Data: []byte("// header\n#version 450\n#include \"../inc/a.glsl\"\nvoid main() {}\n#include \"inc/a.glsl\"\nint x;\n")},
		"inc/a.glsl":  {Data: []byte("#include \"b.glsl\"\nint a;\n")},
		"inc/b.glsl":  {Data: []byte("int b;\n")},
	}
	s, err := Expand(fsys, "k/main.comp", map[string]string{"Z": "1", "A": "2", "M": "x y"})
	if err != nil {
		t.Fatal(err)
	}
	want := "// header\n#version 450\n#define A 2\n#define M x y\n#define Z 1\n#line 3 0\n" +
		"#line 100001 1\n#line 200001 2\nint b;\n#line 100002 1\nint a;\n#line 4 0\nvoid main() {}\n\nint x;\n"
	if s.Text != want {
		t.Fatalf("expanded text:\n%s\nwant:\n%s", s.Text, want)
	}
	if strings.Join(s.Files, ",") != "k/main.comp,inc/a.glsl,inc/b.glsl" {
		t.Fatalf("files %v", s.Files)
	}
	// The same program expands to the same text whatever the map order.
	for i := 0; i < 20; i++ {
		s2, _ := Expand(fsys, "k/main.comp", map[string]string{"M": "x y", "A": "2", "Z": "1"})
		if s2.Text != s.Text {
			t.Fatal("expansion is not deterministic")
		}
	}
}

func TestExpandErrors(t *testing.T) {
	fsys := fstest.MapFS{
		"noversion.comp": {Data: []byte("void main(){}\n")},
		"missing.comp":   {Data: []byte("#version 450\n\n#include \"nope.glsl\"\n")},
		"nested.comp":    {Data: []byte("#version 450\n#include \"v.glsl\"\n")},
		"v.glsl":         {Data: []byte("#version 450\n")},
		"bad.comp":       {Data: []byte("#version 450\n#include <x.glsl>\n")},
	}
	cases := []struct{ file, want string }{
		{"noversion.comp", "first statement must be #version"},
		{"missing.comp", "missing.comp:3: #include \"nope.glsl\": not found"},
		{"nested.comp", "v.glsl:1: #version inside an included file"},
		{"bad.comp", "bad.comp:2: malformed #include"},
		{"absent.comp", "absent.comp"},
	}
	for _, c := range cases {
		_, err := Expand(fsys, c.file, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.file, err, c.want)
		}
	}
	if _, err := Expand(fsys, "missing.comp", map[string]string{"1X": ""}); err == nil || !strings.Contains(err.Error(), "not an identifier") {
		t.Errorf("bad define key: %v", err)
	}
	if _, err := Expand(fsys, "missing.comp", map[string]string{"X": "a\nb"}); err == nil || !strings.Contains(err.Error(), "newline") {
		t.Errorf("define with newline: %v", err)
	}
}

func TestMapLog(t *testing.T) {
	s := &Source{Files: []string{"scan/scan.comp", "include/common.glsl"}}
	mesa := "0:12(3): error: `x' undeclared\n1:100004(1): warning: unused\n0:100005(2): error: lost source number"
	if got := s.MapLog(mesa); got != "scan/scan.comp:12(3): error: `x' undeclared\ninclude/common.glsl:4(1): warning: unused\ninclude/common.glsl:5(2): error: lost source number" {
		t.Errorf("mesa log mapped to %q", got)
	}
	gs := "ERROR: 0:100009: 'x' : undeclared identifier\nERROR: 0:3: 'y' : syntax error"
	if got := s.MapLog(gs); got != "ERROR: include/common.glsl:9: 'x' : undeclared identifier\nERROR: scan/scan.comp:3: 'y' : syntax error" {
		t.Errorf("glslang log mapped to %q", got)
	}
	nv := "1(100007) : error C1008: undefined variable \"y\"\n7(1) : error: out of range id"
	if got := s.MapLog(nv); got != "include/common.glsl:7 : error C1008: undefined variable \"y\"\n7(1) : error: out of range id" {
		t.Errorf("nvidia log mapped to %q", got)
	}
}
