package main

import (
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/internal/hostile"
	"github.com/dpgl/dpgl/rasterizer"
)

// TestImageFlags: every flag bench image cannot use is refused before any
// work, naming the flag and the value.
func TestImageFlags(t *testing.T) {
	dir := t.TempDir()
	ply := filepath.Join(dir, "a.ply")
	if err := os.WriteFile(ply, []byte("ply\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-views", "(0,90)"}, `invalid value "(0,90)" for flag -views: view: no view "(0,90)": elevation 90`},
		{[]string{"-views", ""}, `invalid value "" for flag -views: view: no view named`},
		{[]string{"-color", "red"}, `invalid value "red" for flag -color: want #rrggbb in hexadecimal`},
		{[]string{"-color", "#12345g"}, `invalid value "#12345g" for flag -color: "12345gff" is not hexadecimal`},
		{[]string{"-background", "#1234"}, `invalid value "#1234" for flag -background: want #rrggbb or #rrggbbaa`},
		{[]string{"-volume", "x.nii", "-mesh", ply}, "-mesh and -volume exclude each other"},
		{[]string{"-volume", "x.nii", "-field", "torus"}, "-field and -volume exclude each other"},
		{[]string{"-mesh", ply, "-iso", "3"}, "-mesh takes no -iso or -res"},
		{[]string{"-field", "teapot"}, `invalid value "teapot" for flag -field: no such field`},
		{[]string{"-volume", filepath.Join(dir, "none.nii")}, `invalid value "` + filepath.Join(dir, "none.nii") + `" for flag -volume: no such file`},
		{[]string{"-mesh", dir}, "for flag -mesh: a folder, not a file"},
		{[]string{"-out", ply}, "for flag -out:"},
		{[]string{"-res", "1"}, `invalid value "1" for flag -res: a grid of 1 sample has no cells`},
		{[]string{"-width", "0"}, `invalid value "0" for flag -width`},
		{[]string{"-field", "sphere", "-res", "8", "-iso", "1e9"}, `invalid value "1e+09" for flag -iso: the surface of sphere 8^3 is empty there`},
		{[]string{"extra"}, `unexpected argument "extra"`},
	} {
		err := run(append([]string{"image"}, c.args...), io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "bench image: ") {
			t.Errorf("%v: got %v, want an error holding %q", c.args, err, c.want)
		}
	}
}

// TestImage draws a field at two cameras in the colours asked for: a
// file per camera, of the size asked for, background in the corners, the
// surface's colour where it is lit.
func TestImage(t *testing.T) {
	gputest.Context(t)
	dir := t.TempDir()
	var out strings.Builder
	err := run([]string{"image", "-field", "sphere", "-res", "16", "-width", "40", "-height", "30", "-views", "(0,0) (90,0)x2",
		"-color", "#ff0000", "-background", "#000000", "-flat", "-out", dir}, &out)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"image-0-0.png", "image-90-0x2.png"} {
		path := filepath.Join(dir, name)
		if !strings.Contains(out.String(), "wrote "+path+" (40x30") {
			t.Fatalf("no line for %s:\n%s", path, out.String())
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != 40 || b.Dy() != 30 {
			t.Fatalf("%s is %v, want 40x30", name, b)
		}
		if r, g, b, _ := img.At(0, 0).RGBA(); r|g|b != 0 {
			t.Fatalf("%s: corner (%d,%d,%d), want the black background", name, r>>8, g>>8, b>>8)
		}
		if r, g, b, _ := img.At(20, 15).RGBA(); !(r > 2*g && g == b) {
			t.Fatalf("%s: centre (%d,%d,%d), want the red surface", name, r>>8, g>>8, b>>8)
		}
	}
}

// TestImageHostileFiles: bench image on the damaged and extreme volumes
// and meshes bench render's acceptance test takes: a refusal naming the
// file and the field within a second, or a picture that is not blank.
// Of the files that draw, only the originals are drawn (each run costs a
// GL context): their twins, scaled or encoded otherwise, are drawn by
// TestAcceptHostileFiles through the same readers.
func TestImageHostileFiles(t *testing.T) {
	gputest.Context(t)
	dir := t.TempDir()
	const size = 48
	for _, c := range hostile.Cases() {
		if c.Kind != hostile.NIfTI && c.Kind != hostile.PLY {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			if c.Open != "" {
				t.Skipf("open: %s", c.Open)
			}
			if c.Draws() && c.Like != "" {
				t.Skipf("drawn by TestAcceptHostileFiles, like %s", c.Like)
			}
			path, err := c.Write(dir)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out-"+c.Name)
			if err := os.Mkdir(out, 0o755); err != nil {
				t.Fatal(err)
			}
			r := benchCmd(t, "image", "-"+string(c.Kind), path, "-views", "(45,45)", "-width", "48", "-height", "48", "-out", out)
			if !c.Draws() {
				hostile.Refused(t, c.Name, r, append([]string{filepath.Base(path)}, c.Want...)...)
				return
			}
			if r.Code != 0 {
				t.Fatalf("exit status %d, want a picture\nstdout:\n%s\nstderr:\n%s", r.Code, r.Stdout, r.Stderr)
			}
			if _, n := hostile.Coverage(t, filepath.Join(out, "image-45-45.png"), rasterizer.DefaultMaterial.Background); n < size*size/20 {
				t.Fatalf("the surface covers %d of %d pixels: a blank picture\n%s", n, size*size, r.Stdout)
			}
		})
	}
}
