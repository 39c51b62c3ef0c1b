package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/gpu/window"
	"github.com/dpgl/dpgl/internal/hostile"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/dataset"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
	"github.com/dpgl/dpgl/scan"
	"github.com/dpgl/dpgl/viewer/internal/control"
	"github.com/dpgl/dpgl/viewer/internal/scene"
)

// TestMain lets the test binary be the viewer: the scripted-mode tests run
// it as a child process (DPGL_VIEWER_MAIN=1), so that its window context
// and the test's headless reference context live in separate processes,
// as a user's viewer and renderer would.
func TestMain(m *testing.M) {
	switch os.Getenv("DPGL_VIEWER_MAIN") {
	case "1":
		os.Exit(mainCode(os.Args[1:], os.Stdout, os.Stderr))
	case "interactive":
		os.Exit(interactiveCheck(os.Stdout))
	}
	os.Exit(m.Run())
}

func needDisplay(t *testing.T) {
	t.Helper()
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		if os.Getenv("DPGL_REQUIRE_DISPLAY") != "" {
			t.Fatal("DPGL_REQUIRE_DISPLAY is set but there is no DISPLAY")
		}
		t.Skip("no display: run under xvfb-run -a")
	}
}

// viewer runs the viewer with args and returns its standard output.
func viewer(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "DPGL_VIEWER_MAIN=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("viewer %q: %v\nstdout:\n%s\nstderr:\n%s", args, err, out.String(), errb.String())
	}
	return out.String()
}

func readPNG(t *testing.T, path string) *image.RGBA {
	t.Helper()
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
	rgba := image.NewRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			rgba.Set(x, y, img.At(x, y))
		}
	}
	return rgba
}

// headless renders what the viewer should show, with the pieces a user of
// the library would take: the dataset package's pair, mesh.Upload, and a
// rasterizer.Renderer on a headless context; with hardware, the hardware
// pipeline's ids in the viewer's colours instead.
func headless(t *testing.T, field string, res int, v view.View, unbalanced, hardware bool, w, h int) *image.RGBA {
	t.Helper()
	c := gputest.Context(t)
	f, err := volume.ByName(field)
	if err != nil {
		t.Fatal(err)
	}
	pair := dataset.FromField(f, res, dataset.DefaultReduction)
	m := pair.Balanced
	if unbalanced {
		m = pair.Unbalanced
	}
	g, err := mesh.Upload(c, m)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Delete()
	cam := pair.Camera(v, w, h)
	if hardware {
		hw, err := rasterizer.NewHardwareRenderer(c, w, h)
		if err != nil {
			t.Fatal(err)
		}
		defer hw.Delete()
		mvp := cam.MVP()
		hw.Render(g.Positions, g.N, &mvp)
		ids := hw.Prims()
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		for i, id := range ids {
			col := scene.IDColor(id, rasterizer.DefaultMaterial.Background)
			x, y := i%w, h-1-i/w
			copy(img.Pix[img.PixOffset(x, y):], col[:])
		}
		return img
	}
	s, err := scan.New(c)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Delete()
	o := rasterizer.DefaultOptions()
	o.Width, o.Height = w, h
	o.ScanConversion.CostIterations, o.ZBuffer.CostIterations = 8, 8
	r, err := rasterizer.New(s, o)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Delete()
	if _, err := r.Render(g, cam); err != nil {
		t.Fatal(err)
	}
	return r.Image()
}

// compare counts the pixels of got and want that differ inside and outside
// the rectangle skip.
func compare(t *testing.T, got, want *image.RGBA, skip image.Rectangle) (inside, outside int) {
	t.Helper()
	if got.Bounds() != want.Bounds() {
		t.Fatalf("screenshot %v, headless image %v", got.Bounds(), want.Bounds())
	}
	b := want.Bounds()
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			if got.RGBAAt(x, y) != want.RGBAAt(x, y) {
				if image.Pt(x, y).In(skip) {
					inside++
				} else {
					outside++
				}
			}
		}
	}
	return inside, outside
}

// covered counts the pixels that are not the background.
func covered(img *image.RGBA) int {
	bg := rasterizer.DefaultMaterial.Background
	n := 0
	for i := 0; i < len(img.Pix); i += 4 {
		if img.Pix[i] != bg.R || img.Pix[i+1] != bg.G || img.Pix[i+2] != bg.B {
			n++
		}
	}
	return n
}

// TestScriptedScreenshotEqualsHeadless runs the viewer in scripted mode
// under the display (Xvfb in make test) and checks that the window's
// contents are, pixel for pixel, the headless renderer's image of the same
// dataset, view and size, under several policies, lanes, sets and views.
func TestScriptedScreenshotEqualsHeadless(t *testing.T) {
	needDisplay(t)
	dir := t.TempDir()
	for i, c := range []struct {
		field      string
		res, w, h  int
		view       string
		unbalanced bool
		hardware   bool
		extra      []string
	}{
		{"torus", 24, 96, 72, "M(45,45)", false, false, []string{"-policy", "Always", "-lanes", "32", "-frames", "2"}},
		{"sphere", 16, 64, 80, "(0,0)", true, false, []string{"-policy", "Never"}},
		{"gyroid", 16, 80, 60, "(45,45)", true, false, []string{"-policy", "Bounded", "-lanes", "64"}},
		{"torus", 24, 72, 64, "(45,45)", false, true, nil},
		// The default, the tiled renderer, and every strategy: the same
		// picture as the headless renderer's paper loops.
		{"torus", 24, 96, 72, "M(45,45)", false, false, nil},
		{"gyroid", 16, 80, 60, "(45,45)", true, false, nil},
		{"torus", 24, 96, 72, "M(45,45)", false, false, []string{"-strategy", "RoundRobin"}},
		{"torus", 24, 96, 72, "M(45,45)", false, false, []string{"-strategy", "Random", "-lanes", "32"}},
		{"gyroid", 16, 80, 60, "(45,45)", true, false, []string{"-strategy", "WorkPool"}},
		{"gyroid", 16, 80, 60, "(45,45)", true, false, []string{"-strategy", "LeftRightHandoff"}},
		{"sphere", 16, 64, 80, "(0,0)", true, false, []string{"-strategy", "Search", "-frames", "2"}},
	} {
		shot := filepath.Join(dir, fmt.Sprintf("shot%d.png", i))
		args := append([]string{"-field", c.field, "-res", strconv.Itoa(c.res), "-size", fmt.Sprintf("%dx%d", c.w, c.h),
			"-view", c.view, "-overlay=false", "-cost", "8", "-screenshot", shot}, c.extra...)
		if c.unbalanced {
			args = append(args, "-unbalanced")
		}
		if c.hardware {
			args = append(args, "-hardware")
		}
		out := viewer(t, args...)
		if !strings.Contains(out, fmt.Sprintf("saved %s (%dx%d)", shot, c.w, c.h)) {
			t.Fatalf("viewer %q said:\n%s", args, out)
		}
		path := "tiled"
		if len(c.extra) > 1 && c.extra[0] == "-strategy" {
			path = "strategy " + c.extra[1]
		} else if len(c.extra) > 1 {
			path = "policy " + c.extra[1]
		}
		if !strings.Contains(out, path) {
			t.Fatalf("viewer %q: the frames do not say they ran %q:\n%s", args, path, out)
		}
		v, _ := view.ByName(c.view)
		got, want := readPNG(t, shot), headless(t, c.field, c.res, v, c.unbalanced, c.hardware, c.w, c.h)
		if _, diff := compare(t, got, want, image.Rectangle{}); diff != 0 {
			t.Fatalf("viewer %q: %d of %d pixels differ from the headless image", args, diff, c.w*c.h)
		}
		if n := covered(want); n < c.w*c.h/20 {
			t.Fatalf("viewer %q: the surface covers %d pixels; the comparison checks little", args, n)
		}
	}
}

// TestScriptedOverlay: with the overlay, the window shows the headless
// image everywhere but under the statistics panel, which the viewer names
// on its output, and the panel shows text.
func TestScriptedOverlay(t *testing.T) {
	needDisplay(t)
	shot := filepath.Join(t.TempDir(), "overlay.png")
	const w, h = 200, 150
	out := viewer(t, "-field", "torus", "-res", "24", "-size", fmt.Sprintf("%dx%d", w, h), "-view", "(0,0)", "-screenshot", shot)
	m := regexp.MustCompile(`panel (\d+)x(\d+) at \((\d+),(\d+)\)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no panel in the output:\n%s", out)
	}
	n := func(s string) int { v, _ := strconv.Atoi(s); return v }
	panel := image.Rect(n(m[3]), n(m[4]), n(m[3])+n(m[1]), n(m[4])+n(m[2]))
	if panel.Min != (image.Point{}) || panel.Dx() < 100 || panel.Dy() < 50 {
		t.Fatalf("panel %v: want one of the top left", panel)
	}
	got, want := readPNG(t, shot), headless(t, "torus", 24, view.Paper()[0], false, false, w, h)
	inside, outside := compare(t, got, want, panel)
	if outside != 0 {
		t.Fatalf("%d pixels outside the panel differ from the headless image", outside)
	}
	// The panel is opaque, dark and lettered: most of its pixels are its
	// ground, a tenth or so its text.
	ground, text := 0, 0
	for y := panel.Min.Y; y < min(panel.Max.Y, h); y++ {
		for x := panel.Min.X; x < min(panel.Max.X, w); x++ {
			switch c := got.RGBAAt(x, y); {
			case c.R == 12 && c.G == 14 && c.B == 20:
				ground++
			case c.R > 200:
				text++
			}
		}
	}
	area := panel.Intersect(got.Bounds())
	if ground < area.Dx()*area.Dy()/2 || text < area.Dx()*area.Dy()/40 || inside == 0 {
		t.Fatalf("panel %v: %d ground and %d text pixels, %d differ from the scene", panel, ground, text, inside)
	}
}

// TestNoDisplay: without a display the viewer exits with status 1 and a
// message that says what to do, and does not panic.
func TestNoDisplay(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	var out, errb bytes.Buffer
	if code := mainCode([]string{"-field", "sphere", "-res", "8"}, &out, &errb); code != 1 {
		t.Fatalf("exit status %d, want 1; stderr %q", code, errb.String())
	}
	for _, s := range []string{"no display", "xvfb-run -a go run ./viewer", "go run ./bench"} {
		if !strings.Contains(errb.String(), s) {
			t.Fatalf("message lacks %q:\n%s", s, errb.String())
		}
	}
	if err := run([]string{"-res", "8"}, &out, &errb); !errors.Is(err, window.ErrNoDisplay) {
		t.Fatalf("run: %v", err)
	}
}

func TestFlags(t *testing.T) {
	var errb bytes.Buffer
	o, err := parseFlags(nil, &errb)
	if err != nil {
		t.Fatal(err)
	}
	if o.field != volume.Default().Name || o.res != dataset.DefaultResolution || o.width != 512 || o.height != 512 ||
		o.view.Name != "(45,45)" || o.mode != control.Tiled || o.policy != balancer.CostEffective || o.lanes != 0 || !o.overlay || o.scripted() ||
		o.reduction != dataset.DefaultReduction || o.isoSet {
		t.Fatalf("defaults: %+v", o)
	}
	o, err = parseFlags([]string{"-screenshot", "x.png", "-size", "640X480", "-view", "M(0,0)", "-policy", "bounded",
		"-lanes", "64", "-iso", "0.25", "-unbalanced", "-hardware"}, &errb)
	if err != nil {
		t.Fatal(err)
	}
	if o.frames != 1 || !o.scripted() || o.width != 640 || o.height != 480 || o.view.Name != "M(0,0)" ||
		o.mode != control.PaperLoops || o.policy != balancer.Bounded || o.lanes != 64 || !o.isoSet || o.iso != 0.25 || !o.unbalanced || !o.hardware {
		t.Fatalf("parsed %+v", o)
	}
	if o, err = parseFlags([]string{"-strategy", "workpool"}, &errb); err != nil || o.mode != control.StrategyLoops || o.strategy != balancer.WorkPool {
		t.Fatalf("-strategy workpool: %+v, %v", o, err)
	}
	for _, bad := range [][]string{
		{"-size", "0x10"}, {"-size", "10"}, {"-size", "100000x10"}, {"-view", "(1,2)x0"}, {"-policy", "Sometimes"},
		{"-strategy", "Paper"}, {"-strategy", "Eager"}, {"-strategy", "Search", "-policy", "Never"},
		{"-lanes", "-1"}, {"-res", "1"}, {"-field", "teapot"}, {"-volume", "a.nii", "-field", "torus"},
		{"-frames", "-2"}, {"-reduction", "0"}, {"-cost", "-1"}, {"extra"}, {"-nosuch"},
	} {
		errb.Reset()
		if _, err := parseFlags(bad, &errb); !errors.Is(err, errUsage) || errb.Len() == 0 {
			t.Errorf("%q: error %v, stderr %q; want a usage error, reported", bad, err, errb.String())
		}
	}
	if _, err := parseFlags([]string{"-h"}, &errb); !errors.Is(err, flag.ErrHelp) || !strings.Contains(errb.String(), "orbit") {
		t.Fatalf("-h: %v, %q", err, errb.String())
	}
	if code := mainCode([]string{"-lanes", "-3"}, &errb, &errb); code != 2 {
		t.Fatalf("exit status %d for a usage error, want 2", code)
	}
}

func TestLoadSource(t *testing.T) {
	o, _ := parseFlags([]string{"-field", "sphere", "-res", "12", "-iso", "0.25"}, &bytes.Buffer{})
	src, err := loadSource(o, false)
	if err != nil {
		t.Fatal(err)
	}
	want := dataset.FromField(volume.Sphere(), 12, dataset.DefaultReduction)
	if src.pair.Name != want.Name || src.pair.Iso != 0.25 || src.isoMin > 0.25 || src.isoMax < 0.25 || !(src.isoSt > 0) {
		t.Fatalf("source %+v (pair %q iso %v)", src, src.pair.Name, src.pair.Iso)
	}
	o, _ = parseFlags([]string{"-field", "sphere", "-res", "12"}, &bytes.Buffer{})
	src, _ = loadSource(o, false)
	// The balanced set is the dataset package's; the unbalanced one is left
	// to the scene (the scripted tests compare its images with the
	// dataset's).
	if src.pair.Balanced.Len() != want.Balanced.Len() || src.pair.Lo != want.Lo || src.pair.Hi != want.Hi || src.pair.Unbalanced != nil {
		t.Fatal("the viewer's default pair is not the dataset package's")
	}
	missing := filepath.Join(t.TempDir(), "missing.nii")
	if _, err := parseFlags([]string{"-volume", missing}, &bytes.Buffer{}); !errors.Is(err, errUsage) || !strings.Contains(err.Error(), missing) {
		t.Fatalf("a missing volume: %v", err)
	}
}

func TestCosts(t *testing.T) {
	o, _ := parseFlags([]string{"-cost", "5"}, &bytes.Buffer{})
	if s, z, note := costs(o, "gpu", &bytes.Buffer{}); s != 5 || z != 5 || !strings.Contains(note, "-cost") {
		t.Fatalf("-cost 5: %v %v %q", s, z, note)
	}
	path := filepath.Join(t.TempDir(), "cal.json")
	o, _ = parseFlags([]string{"-calibration", path}, &bytes.Buffer{})
	if s, z, note := costs(o, "gpu", &bytes.Buffer{}); s != rasterizer.PaperScanConversionCost || z != rasterizer.PaperZBufferCost || !strings.Contains(note, "the paper's") {
		t.Fatalf("no calibration: %v %v %q", s, z, note)
	}
	cal, _ := balancer.LoadCalibration(path)
	cal.Set("gpu", rasterizer.ScanConversionLoop, balancer.LoopCost{CostIterations: 3, MaxGatherNs: 1, MinSolveNs: 1, Margin: 1, Runs: 1})
	cal.Set("gpu", rasterizer.ZBufferLoop, balancer.LoopCost{CostIterations: 7, MaxGatherNs: 1, MinSolveNs: 1, Margin: 1, Runs: 1})
	if err := cal.Save(); err != nil {
		t.Fatal(err)
	}
	if s, z, note := costs(o, "gpu", &bytes.Buffer{}); s != 3 || z != 7 || !strings.Contains(note, "calibrated") {
		t.Fatalf("calibrated: %v %v %q", s, z, note)
	}
	if s, _, note := costs(o, "other gpu", &bytes.Buffer{}); s != rasterizer.PaperScanConversionCost || !strings.Contains(note, "the paper's") {
		t.Fatalf("another GPU: %v %q", s, note)
	}
}

func TestKeyMapping(t *testing.T) {
	for r, k := range map[rune]control.Key{
		'1': control.KeyView1, '2': control.KeyView2, '3': control.KeyView3, '4': control.KeyView4,
		'b': control.KeyPolicy, 'B': control.KeyPolicy, 'g': control.KeyStrategy, 'G': control.KeyStrategy,
		't': control.KeyTiled, 'T': control.KeyTiled, 'u': control.KeySet, '+': control.KeyIsoUp, '=': control.KeyIsoUp,
		'-': control.KeyIsoDown, 'l': control.KeyLanes, 'r': control.KeyHardware, 's': control.KeyScreenshot,
		'h': control.KeyHelp, '?': control.KeyHelp, 'o': control.KeyOverlay, 'q': control.KeyQuit, 'Q': control.KeyQuit,
		'c': control.KeyCamera, 'C': control.KeyCamera,
		'x': control.KeyNone, '5': control.KeyNone, 'é': control.KeyNone,
	} {
		if got := keyFromChar(r); got != k {
			t.Errorf("%q: key %d, want %d", r, got, k)
		}
	}
	if keyFromGLFW(glfw.KeyEscape) != control.KeyQuit || keyFromGLFW(glfw.KeyQ) != control.KeyNone {
		t.Error("Esc quits; letters come as characters")
	}
	if buttonFromGLFW(glfw.MouseButtonLeft) != control.ButtonLeft || buttonFromGLFW(glfw.MouseButtonRight) != control.ButtonRight ||
		buttonFromGLFW(glfw.MouseButtonMiddle) != control.ButtonOther {
		t.Error("buttons")
	}
	// Every line of the help names a key that exists.
	if len(control.Help) < 10 {
		t.Fatal("help too short")
	}
}

func TestFlipRows(t *testing.T) {
	px := []byte{1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6}
	got := flipRows(px, 2, 3)
	want := []byte{5, 5, 5, 5, 6, 6, 6, 6, 3, 3, 3, 3, 4, 4, 4, 4, 1, 1, 1, 1, 2, 2, 2, 2}
	if !bytes.Equal(got, want) || !bytes.Equal(flipRows(got, 2, 3), px) {
		t.Fatalf("flipRows: %v", got)
	}
}

// TestVolumeResample: -res shrinks a -volume so that its longest axis has
// that many samples (the viewer once refused -res with -volume, and could
// not open a large volume on a software renderer at all); on a software
// renderer a volume is shrunk to softVolumeRes unless -res is given.
func TestVolumeResample(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ball.nii")
	b := hostile.Ball(40, 30, 20, 9, nil)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args     []string
		software bool
		dims     [3]int
	}{
		{[]string{"-res", "12"}, false, [3]int{12, 9, 6}},
		{[]string{"-res", "12"}, true, [3]int{12, 9, 6}},
		{nil, false, [3]int{40, 30, 20}},
		{[]string{"-res", "0"}, true, [3]int{40, 30, 20}},
		{[]string{"-res", "64"}, false, [3]int{40, 30, 20}},
	} {
		o, err := parseFlags(append([]string{"-volume", path}, c.args...), &bytes.Buffer{})
		if err != nil {
			t.Fatal(err)
		}
		src, err := loadSource(o, c.software)
		if err != nil {
			t.Fatal(err)
		}
		if got := src.pair.Volume.Dims; got != c.dims || src.pair.Balanced.Len() == 0 {
			t.Errorf("%q (software %v): %v, %d triangles; want %v", c.args, c.software, got, src.pair.Balanced.Len(), c.dims)
		}
	}
	big := hostile.Ball(softVolumeRes+10, 20, 20, 8, nil)
	if err := os.WriteFile(path, big.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	o, _ := parseFlags([]string{"-volume", path}, &bytes.Buffer{})
	src, err := loadSource(o, true)
	if err != nil {
		t.Fatal(err)
	}
	if d := src.pair.Volume.Dims; d[0] != softVolumeRes || !strings.Contains(src.note, "resampled") {
		t.Fatalf("software renderer: %v, note %q", d, src.note)
	}
}

// TestScriptedRealVolume opens an MRI template, shrunk with -res, and
// saves a JPEG of it: the surface fills the middle of the picture.
func TestScriptedRealVolume(t *testing.T) {
	needDisplay(t)
	const vol = "/usr/share/mricron/templates/ch2better.nii.gz"
	if _, err := os.Stat(vol); err != nil {
		t.Skip("no ", vol, " (Debian package mricron-data)")
	}
	shot := filepath.Join(t.TempDir(), "head.jpg")
	out := viewer(t, "-volume", vol, "-res", "48", "-size", "96x96", "-overlay=false", "-cost", "8", "-view", "(0,0)", "-screenshot", shot)
	if !strings.Contains(out, "saved "+shot) {
		t.Fatalf("viewer said:\n%s", out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := jpeg.Decode(f)
	if err != nil {
		t.Fatalf("%s is not a JPEG: %v", shot, err)
	}
	bg := rasterizer.DefaultMaterial.Background
	lit := 0
	for y := 0; y < 96; y++ {
		for x := 0; x < 96; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if d := int(r>>8) - int(bg.R) + int(g>>8) - int(bg.G) + int(b>>8) - int(bg.B); d > 60 || d < -60 {
				lit++
			}
		}
	}
	if lit < 96*96/5 {
		t.Fatalf("the head covers %d of %d pixels", lit, 96*96)
	}
}

// TestScriptedMeshFlat: -mesh shows a PLY cube fitted to the window, and
// -flat shades it face by face, unlike the smooth normals that its shared
// corners average over three faces (a blob): a good part of the cube's
// pixels change.
func TestScriptedMeshFlat(t *testing.T) {
	needDisplay(t)
	dir := t.TempDir()
	ply := filepath.Join(dir, "cube.ply")
	if err := os.WriteFile(ply, hostile.Cube(2, -1).Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	const n = 96
	shots := map[bool]*image.RGBA{}
	for _, flat := range []bool{false, true} {
		shot := filepath.Join(dir, fmt.Sprintf("flat-%v.png", flat))
		args := []string{"-mesh", ply, "-size", fmt.Sprintf("%dx%d", n, n), "-overlay=false", "-cost", "8", "-view", "(45,45)", "-screenshot", shot}
		if flat {
			args = append(args, "-flat")
		}
		viewer(t, args...)
		shots[flat] = readPNG(t, shot)
		if c := covered(shots[flat]); c < n*n/5 {
			t.Fatalf("flat %v: the cube covers %d of %d pixels", flat, c, n*n)
		}
	}
	differ := 0
	for i := 0; i < len(shots[true].Pix); i += 4 {
		if shots[true].Pix[i] != shots[false].Pix[i] {
			differ++
		}
	}
	if differ < covered(shots[true])/4 {
		t.Fatalf("flat and smooth shading differ in %d pixels only", differ)
	}
}
