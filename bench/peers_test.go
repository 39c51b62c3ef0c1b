package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// bench peers on a small perforator: both comparisons print our time and
// triangles, with each installed peer's beside them (which ones are
// installed decides only what is printed, never whether the test runs),
// and bad flags are refused by name.
func TestPeers(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"peers", "-volume", "", "-res", "24", "-reps", "1"}, &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"perforator 24^3", "extraction:", "ours", "decimation of"} {
		if !strings.Contains(s, want) {
			t.Fatalf("output lacks %q:\n%s", want, s)
		}
	}
	if _, err := os.Stat("/usr/include/meshoptimizer.h"); err == nil && !strings.Contains(s, "meshopt_simplify") {
		t.Fatalf("meshoptimizer is installed but was not run:\n%s", s)
	}
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"peers", "-volume", "", "-res", "0"}, "nothing to measure"},
		{[]string{"peers", "-res", "1025"}, `invalid value "1025" for flag -res`},
		{[]string{"peers", "-reduction", "1"}, `invalid value "1" for flag -reduction`},
		{[]string{"peers", "-volume", "/nonexistent.nii"}, "-volume /nonexistent.nii"},
		{[]string{"peers", "-volume", "", "-out", notDir}, "bench peers: invalid value \"" + notDir + "\" for flag -out: not a folder"},
	} {
		if err := run(c.args, &out); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error with %q", c.args, err, c.want)
		}
	}
}

// firstPNG writes a PNG of the surface at the paper's size, with the
// surface in it, and says how long the way took.
func TestPeersFirstPNG(t *testing.T) {
	gputest.Context(t) // skips without GL, as the command's context would fail
	path := filepath.Join(t.TempDir(), "s.png")
	var out bytes.Buffer
	if err := firstPNG(&out, time.Now(), volume.Sphere().SampleCube(24), 0, path); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	if b.Dx() != 512 || b.Dy() != 512 {
		t.Fatalf("image %v, want 512x512", b)
	}
	// The sphere fills the middle; the corner is background.
	if img.At(256, 256) == img.At(0, 0) {
		t.Fatalf("the middle pixel is the background's colour %v", img.At(0, 0))
	}
	if !strings.Contains(out.String(), "command to first PNG:") {
		t.Fatalf("output: %s", out.String())
	}
}
