package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/internal/hostile"
	"github.com/dpgl/dpgl/rasterizer"
)

// viewerRun runs the viewer as a child process and returns what it did,
// failing the test only on a hang (a generous limit: the cases take a
// second or less).
func viewerRun(t *testing.T, env []string, args ...string) hostile.Result {
	t.Helper()
	return hostile.Run(t, "viewer", append([]string{"DPGL_VIEWER_MAIN=1"}, env...), args...)
}

// TestAcceptBadFlags: every numeric flag refuses what is not a number in
// its range, NaN and the infinities included, with status 2 and a last
// line naming the flag and the value, before a window opens (no display
// is needed).
func TestAcceptBadFlags(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	ints := []string{"NaN", "Inf", "1.5", "x", "", "99999999999999999999"}
	floats := []string{"NaN", "nan", "Inf", "-Inf", "infinity", "1e400", "x", ""}
	for _, fc := range []struct {
		flag string
		bad  []string
	}{
		{"res", append([]string{"-1", "1", "0"}, ints...)},
		{"iso", append([]string{"1e39", "-3.5e38"}, floats...)},
		{"isostep", append([]string{"-1", "1e39"}, floats...)},
		{"cost", append([]string{"-1", "-1e-300"}, floats...)},
		{"reduction", append([]string{"0", "-5"}, ints...)},
		{"lanes", append([]string{"-1"}, ints...)},
		{"frames", append([]string{"-1"}, ints...)},
		{"size", []string{"0x5", "5", "5x", "99999x5", "NaNxNaN", "-5x5", "5x5x5", ""}},
		{"view", []string{"(1,95)", "(1,2)x0", ""}},
		{"policy", []string{"Sometimes"}},
		{"field", []string{"teapot"}},
		{"screenshot", []string{"x.gif", "x", dir, filepath.Join(dir, "none", "x.png"), filepath.Join(file, "x.png")}},
		{"shotdir", []string{file, filepath.Join(dir, "none")}},
		{"volume", []string{filepath.Join(dir, "none.nii"), dir}},
		{"mesh", []string{filepath.Join(dir, "none.ply"), dir}},
	} {
		for _, v := range fc.bad {
			t.Run(fc.flag+"="+strconv.Quote(v), func(t *testing.T) {
				// DISPLAY names no server: a refusal must come before
				// the window, and a missed one fails as "no display".
				r := viewerRun(t, []string{"DISPLAY=:4093", "WAYLAND_DISPLAY="}, "-"+fc.flag, v)
				hostile.Refused(t, "viewer", r, "-"+fc.flag)
				if r.Code != 2 {
					t.Fatalf("exit status %d, want 2 (a usage error)\n%s", r.Code, r.Stderr)
				}
				if v != "" && !strings.Contains(r.Stderr, v) {
					t.Fatalf("the message does not name the value:\n%s", r.Stderr)
				}
			})
		}
	}
}

// TestAcceptHostileFiles opens the generated volumes and meshes in the
// viewer's scripted mode: each refuses with a message naming the file and
// the field, or saves the picture its well-formed twin does.
func TestAcceptHostileFiles(t *testing.T) {
	needDisplay(t)
	dir := t.TempDir()
	const size = 64
	masks := map[string][]bool{}
	for _, c := range hostile.Cases() {
		if c.Kind == hostile.DIMACS {
			continue // graphs are bench's
		}
		t.Run(c.Name, func(t *testing.T) {
			if c.Open != "" {
				t.Skipf("open: %s", c.Open)
			}
			path, err := c.Write(dir)
			if err != nil {
				t.Fatal(err)
			}
			shot := filepath.Join(dir, c.Name+".png")
			args := []string{"-" + string(c.Kind), path, "-size", "64x64", "-overlay=false", "-cost", "8", "-view", "(45,45)", "-screenshot", shot}
			if c.Kind == hostile.NIfTI {
				args = append(args, "-res", "0")
			}
			r := viewerRun(t, nil, args...)
			if !c.Draws() {
				hostile.Refused(t, "viewer", r, append([]string{filepath.Base(path)}, c.Want...)...)
				for _, w := range c.Avoid {
					if strings.Contains(r.Stderr, w) {
						t.Fatalf("the message blames %s:\n%s", w, r.Stderr)
					}
				}
				if _, err := os.Stat(shot); err == nil {
					t.Fatal("a refused file left a screenshot")
				}
				return
			}
			if r.Code != 0 {
				t.Fatalf("exit status %d, want a picture\nstdout:\n%s\nstderr:\n%s", r.Code, r.Stdout, r.Stderr)
			}
			for _, w := range c.Say {
				if !strings.Contains(r.Stdout, w) {
					t.Fatalf("the output does not say %q:\n%s", w, r.Stdout)
				}
			}
			mask, n := hostile.Coverage(t, shot, rasterizer.DefaultMaterial.Background)
			if n < size*size/20 {
				t.Fatalf("the surface covers %d of %d pixels: a blank picture\n%s", n, size*size, r.Stdout)
			}
			masks[c.Name] = mask
			if c.Like != "" {
				twin, ok := masks[c.Like]
				if !ok {
					t.Fatalf("no picture of %s to compare with", c.Like)
				}
				d := 0
				for i := range mask {
					if mask[i] != twin[i] {
						d++
					}
				}
				if d > size*size/100 {
					t.Fatalf("%d pixels differ from %s's picture", d, c.Like)
				}
			}
		})
	}
}

// TestAcceptSizeLimits: a field grid too large for memory is refused
// before it is allocated, naming the flag and the value.
func TestAcceptSizeLimits(t *testing.T) {
	needDisplay(t)
	for _, v := range []string{"100000", "3000"} {
		r := viewerRun(t, nil, "-res", v, "-frames", "1")
		hostile.Refused(t, "viewer", r, "-res", v)
	}
}

// TestAcceptDeadDisplay: a DISPLAY that names no X server (glfw.Init
// only logs that) ends the viewer with status 1 and a message naming the
// display and saying what to do, not with a panic.
func TestAcceptDeadDisplay(t *testing.T) {
	if _, err := os.Stat("/tmp/.X11-unix/X4093"); err == nil {
		t.Skip("an X server runs on :4093")
	}
	r := viewerRun(t, []string{"DISPLAY=:4093", "WAYLAND_DISPLAY="}, "-res", "8", "-frames", "1")
	hostile.Refused(t, "viewer", r)
	if r.Code != 1 || !strings.Contains(r.Stderr, "DISPLAY=:4093") || !strings.Contains(r.Stderr, "xvfb-run") {
		t.Fatalf("exit status %d, want 1 and a message naming DISPLAY=:4093:\n%s", r.Code, r.Stderr)
	}
}
