package app

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer/dataset"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
	"github.com/dpgl/dpgl/viewer/internal/control"
	"github.com/dpgl/dpgl/viewer/internal/scene"
)

// fakeDisplay is a window without a window: Wait runs the next scripted
// input step (and quits when there are none), Present composes the frame
// and panels on the CPU as the GLFW display does on the GPU.
type fakeDisplay struct {
	w, h    int
	st      *control.State
	steps   []func(*fakeDisplay)
	wake    chan struct{}
	titles  []string
	counts  [][2]int // (Frames, Presents) at each Wait
	app     *App
	closing bool
	shown   *image.RGBA
	blank   bool // a minimized window: Present shows nothing
}

func (f *fakeDisplay) Size() (int, int)  { return f.w, f.h }
func (f *fakeDisplay) SetTitle(t string) { f.titles = append(f.titles, t) }
func (f *fakeDisplay) Poll()             {}
func (f *fakeDisplay) Closing() bool     { return f.closing }
func (f *fakeDisplay) Wake() {
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

func (f *fakeDisplay) Wait() {
	f.counts = append(f.counts, [2]int{f.app.Frames, f.app.Presents})
	if len(f.steps) == 0 {
		f.st.Key(control.KeyQuit)
		return
	}
	s := f.steps[0]
	f.steps = f.steps[1:]
	s(f)
}

func (f *fakeDisplay) Present(frame *gpu.Framebuffer, panels []Panel, shot bool) (*image.RGBA, error) {
	img := textureImage(frame.Color[0])
	for _, p := range panels {
		draw.Draw(img, p.Img.Bounds().Add(image.Pt(p.X, p.Y)), p.Img, image.Point{}, draw.Src)
	}
	f.shown = img
	if shot && !f.blank {
		return img, nil
	}
	return nil, nil
}

// textureImage reads an RGBA8 texture into an image, top row first.
func textureImage(t *gpu.Texture) *image.RGBA {
	px := t.Read()
	img := image.NewRGBA(image.Rect(0, 0, t.W, t.H))
	for y := 0; y < t.H; y++ {
		copy(img.Pix[y*img.Stride:(y+1)*img.Stride], px[(t.H-1-y)*4*t.W:])
	}
	return img
}

var testPair *dataset.Pair

func pair() *dataset.Pair {
	if testPair == nil {
		testPair = dataset.FromField(volume.Torus(), 20, 5)
	}
	return testPair
}

func newApp(t *testing.T, w, h int, steps ...func(*fakeDisplay)) (*App, *fakeDisplay, *bytes.Buffer) {
	t.Helper()
	c := gputest.Context(t)
	p := pair()
	f := &fakeDisplay{w: w, h: h, steps: steps, wake: make(chan struct{}, 8)}
	out := &bytes.Buffer{}
	a, err := New(c, f, Config{
		Pair: p, View: view.Paper()[0],
		Settings: control.Settings{Mode: control.PaperLoops, Policy: balancer.CostEffective, Overlay: true, Iso: p.Iso},
		IsoMin:   -1, IsoMax: 1, IsoStep: 0.1,
		Scene:    scene.Options{ScanCost: 8, ZBufferCost: 8, Logf: func(string, ...any) {}},
		CostNote: "8 (test)", ShotDir: t.TempDir(), Out: out,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Delete)
	f.st, f.app = a.State(), a
	return a, f, out
}

// TestLoopRendersOnlyOnChange drives the loop with input steps: a frame is
// rendered only for changes that need one, the panels alone are shown
// again without rendering, and nothing happens for input that changes
// nothing.
func TestLoopRendersOnlyOnChange(t *testing.T) {
	var frames []scene.Frame
	rec := func(f func(*fakeDisplay)) func(*fakeDisplay) {
		return func(d *fakeDisplay) {
			frames = append(frames, d.app.Last())
			f(d)
		}
	}
	a, f, _ := newApp(t, 64, 48,
		rec(func(*fakeDisplay) {}),                                           // 0: a wake without input
		rec(func(d *fakeDisplay) { d.st.CursorMove(10, 10) }),                // 1: a move without a drag
		rec(func(d *fakeDisplay) { d.st.Key(control.KeyView2) }),             // 2: render
		rec(func(d *fakeDisplay) { d.st.Scroll(1) }),                         // 3: render
		rec(func(d *fakeDisplay) { d.st.Key(control.KeyHelp) }),              // 4: present only
		rec(func(d *fakeDisplay) { d.st.Expose() }),                          // 5: present only
		rec(func(d *fakeDisplay) { d.st.Key(control.KeyPolicy) }),            // 6: render
		rec(func(d *fakeDisplay) { d.st.Key(control.KeyLanes) }),             // 7: render
		rec(func(d *fakeDisplay) { d.w, d.h = 40, 30; d.st.Resize(40, 30) }), // 8: render
		rec(func(d *fakeDisplay) { d.st.Key(control.KeySet) }),               // 9: render
		rec(func(d *fakeDisplay) { d.st.Key(control.KeyHardware) }),          // 10: render
		rec(func(d *fakeDisplay) { d.st.Key(control.KeyNone) }),              // 11: nothing
	)
	if err := a.Run(); err != nil {
		t.Fatal(err)
	}
	// counts[i] is (Frames, Presents) when Wait i is entered, after step
	// i-1 was handled.
	want := [][2]int{{1, 1}, {1, 1}, {1, 1}, {2, 2}, {3, 3}, {3, 4}, {3, 5}, {4, 6}, {5, 7}, {6, 8}, {7, 9}, {8, 10}, {8, 10}}
	if len(f.counts) != len(want) {
		t.Fatalf("%d waits, want %d: %v", len(f.counts), len(want), f.counts)
	}
	for i := range want {
		if f.counts[i] != want[i] {
			t.Fatalf("at wait %d: (frames, presents) = %v, want %v; all %v", i, f.counts[i], want[i], f.counts)
		}
	}
	st := a.State()
	if st.Settings.Policy != balancer.Policies[(indexOf(balancer.Policies, balancer.CostEffective)+1)%len(balancer.Policies)] ||
		st.Settings.Lanes != control.LaneChoices[1] || !st.Settings.Help || st.Settings.Set != control.Unbalanced || !st.Settings.Hardware {
		t.Fatalf("settings %+v", st.Settings)
	}
	// What the frames were rendered with: the frame after step 6 ran the
	// new policy, after 7 the new lanes, after 9 the unbalanced set, after
	// 10 the hardware reference, at 40x30 since step 8.
	last := a.Last()
	if last.Stats.ScanConversion.Policy != st.Settings.Policy || last.Stats.ZBuffer.Policy != st.Settings.Policy {
		t.Fatalf("frame ran %v, settings say %v", last.Stats.ScanConversion.Policy, st.Settings.Policy)
	}
	if !last.Unbalanced || last.Triangles != pair().Unbalanced.Len() || !last.Hardware {
		t.Fatalf("last frame %+v", last)
	}
	if tex := a.Scene().Texture(); tex.W != 40 || tex.H != 30 {
		t.Fatalf("display texture %dx%d after resizing to 40x30", tex.W, tex.H)
	}
	if frames[3].Unbalanced || frames[10].Unbalanced != true {
		t.Fatal("the set toggled at the wrong frame")
	}
	if got, want := st.Camera.Magnification, float32(control.ZoomStep); got != want {
		t.Fatalf("magnification %v after a notch from view (45,45), want %v", got, want)
	}
	if len(f.titles) != 8 || !strings.Contains(f.titles[7], "unbalanced") {
		t.Fatalf("titles %q", f.titles)
	}
}

func indexOf[T comparable](l []T, v T) int {
	for i, x := range l {
		if x == v {
			return i
		}
	}
	return -1
}

// TestLoopDecimationWakes: after a new isovalue the unbalanced set is
// decimated in the background; the frame says so, and the decimation's
// Wake brings a frame of the new set without further input.
func TestLoopDecimationWakes(t *testing.T) {
	var noted []string
	a, _, _ := newApp(t, 48, 48,
		func(d *fakeDisplay) { d.st.Key(control.KeyIsoUp) },
		func(d *fakeDisplay) { d.st.Key(control.KeySet) },
		func(d *fakeDisplay) {
			noted = d.app.StatsLines()
			<-d.wake // the loop sleeps until the decimation is done
		},
	)
	if err := a.Run(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(noted, "\n"), "decimating") {
		t.Fatalf("while decimating, the overlay said %q", noted)
	}
	last := a.Last()
	if !last.Unbalanced || last.Note != "" || last.Iso != pair().Iso+0.1 {
		t.Fatalf("after the wake: %+v", last)
	}
	if a.Frames != 4 {
		t.Fatalf("%d frames, want 4 (start, iso, set, decimated set)", a.Frames)
	}
}

// TestScriptAndScreenshots: scripted mode renders its frames and saves
// what the display shows; the S key saves into ShotDir.
func TestScriptAndScreenshots(t *testing.T) {
	a, f, out := newApp(t, 56, 40)
	path := filepath.Join(t.TempDir(), "shot.png")
	if err := a.Script(2, path); err != nil {
		t.Fatal(err)
	}
	if a.Frames != 2 || a.Presents != 2 {
		t.Fatalf("%d frames and %d presents, want 2", a.Frames, a.Presents)
	}
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(file)
	file.Close()
	if err != nil {
		t.Fatal(err)
	}
	if !sameRGBA(img, f.shown) {
		t.Fatal("the saved screenshot is not what was shown")
	}
	for _, s := range []string{"frame 1:", "frame 2:", "saved " + path + " (56x40)", "panel "} {
		if !strings.Contains(out.String(), s) {
			t.Fatalf("output lacks %q:\n%s", s, out)
		}
	}
	if err := a.Script(0, ""); err == nil {
		t.Fatal("Script(0) accepted")
	}

	a, _, out = newApp(t, 56, 40, func(d *fakeDisplay) { d.st.Key(control.KeyScreenshot) })
	if err := a.Run(); err != nil {
		t.Fatal(err)
	}
	shots, _ := filepath.Glob(filepath.Join(a.cfg.ShotDir, "dpgl-*.png"))
	if len(shots) != 1 || !strings.Contains(out.String(), "saved "+shots[0]) {
		t.Fatalf("S saved %v; output %q", shots, out)
	}
	if lines := a.StatsLines(); lines[len(lines)-1] != "saved "+shots[0] {
		t.Fatalf("the overlay does not say where the screenshot went: %q", lines)
	}
}

func sameRGBA(a image.Image, b *image.RGBA) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	for y := b.Rect.Min.Y; y < b.Rect.Max.Y; y++ {
		for x := b.Rect.Min.X; x < b.Rect.Max.X; x++ {
			r, g, bl, al := a.At(x, y).RGBA()
			c := b.RGBAAt(x, y)
			if uint8(r>>8) != c.R || uint8(g>>8) != c.G || uint8(bl>>8) != c.B || uint8(al>>8) != c.A {
				return false
			}
		}
	}
	return true
}

// TestOverlayText: the panel says what the brief asks for (frame time,
// triangles, each loop's iterations and balancing operations, policy,
// lanes, GPU) and its lines fit a 320-pixel window.
func TestOverlayText(t *testing.T) {
	a, _, _ := newApp(t, 48, 40)
	a.State().Settings.Lanes = 32
	a.State().Key(control.KeyHardware)
	a.State().Key(control.KeyPolicy)
	if err := a.Script(1, ""); err != nil {
		t.Fatal(err)
	}
	f := a.Last()
	text := strings.Join(a.StatsLines(), "\n")
	for _, s := range []string{
		a.c.Caps().Renderer, "triangles", "frame ", "GPU ",
		"scan conv", "z-buffer", " it ", " bal ",
		"policy " + a.State().Settings.Policy.String(), "lanes 32",
		"R: hardware pipeline",
	} {
		if !strings.Contains(text, s) {
			t.Fatalf("overlay lacks %q:\n%s", s, text)
		}
	}
	if !strings.Contains(text, strconv.Itoa(f.Triangles)+" triangles") || !strings.Contains(text, strconv.Itoa(f.Stats.ScanConversion.Iterations)+" it") {
		t.Fatalf("overlay numbers do not match the frame %+v:\n%s", f, text)
	}
	for i, l := range a.StatsLines() {
		if i == 1 || i == 2 { // the GPU's and the dataset's names
			continue
		}
		if len(l) > 44 {
			t.Fatalf("line %q has %d characters, more than 44", l, len(l))
		}
	}
}

// TestScreenshotOfNothing: a window that shows nothing (minimized) gives an
// error, not a crash: scripted mode fails, S reports it in the overlay.
func TestScreenshotOfNothing(t *testing.T) {
	a, f, _ := newApp(t, 32, 32)
	f.blank = true
	if err := a.Script(1, filepath.Join(t.TempDir(), "x.png")); err == nil || !strings.Contains(err.Error(), "no screenshot") {
		t.Fatalf("Script on a blank window: %v", err)
	}
	a, f, out := newApp(t, 32, 32, func(d *fakeDisplay) { d.st.Key(control.KeyScreenshot) })
	f.blank = true
	if err := a.Run(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(a.StatsLines(), "\n"), "error: no screenshot") || !strings.Contains(out.String(), "no screenshot") {
		t.Fatalf("S on a blank window: overlay %q, output %q", a.StatsLines(), out)
	}
}

// TestWriteImage: a screenshot is encoded as its extension says, and a
// name it cannot honour is refused before any file is made.
func TestWriteImage(t *testing.T) {
	dir := t.TempDir()
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	img.Pix[0], img.Pix[3] = 200, 255
	for name, magic := range map[string]string{"a.png": "\x89PNG", "b.JPG": "\xff\xd8\xff", "c.jpeg": "\xff\xd8\xff"} {
		path := filepath.Join(dir, name)
		if err := WriteImage(path, img); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil || !strings.HasPrefix(string(b), magic) {
			t.Fatalf("%s: starts %q (%v), want %q", name, b[:min(len(b), 4)], err, magic)
		}
	}
	for _, name := range []string{"d.gif", "e", "f.png.txt"} {
		path := filepath.Join(dir, name)
		if err := WriteImage(path, img); err == nil || !strings.Contains(err.Error(), path) {
			t.Fatalf("%s: %v, want an error naming the file", name, err)
		}
		if _, err := os.Stat(path); err == nil {
			t.Fatalf("%s was written", name)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 3 {
		t.Fatalf("%d files in the folder, want 3 (no temporary files left)", len(ents))
	}
}

// TestEveryPathSameImage: the tiled renderer is the default; T, B (each
// policy) and G (each strategy) select the renderer the overlay then
// names, which runs (its loops' policy and strategy in the frame's stats),
// and every one of them shows the same picture, bit for bit, on both
// polygon sets.
func TestEveryPathSameImage(t *testing.T) {
	c := gputest.Context(t)
	p := pair()
	f := &fakeDisplay{w: 56, h: 48, wake: make(chan struct{}, 8)}
	a, err := New(c, f, Config{
		Pair: p, View: view.Paper()[3],
		Settings: control.Settings{Policy: balancer.CostEffective, Overlay: true, Iso: p.Iso},
		IsoMin:   -1, IsoMax: 1, IsoStep: 0.1,
		Scene:    scene.Options{ScanCost: 8, ZBufferCost: 8, Logf: func(string, ...any) {}},
		CostNote: "8 (test)", Out: io.Discard,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Delete()
	f.st, f.app = a.State(), a
	for _, set := range []control.PolygonSet{control.Balanced, control.Unbalanced} {
		a.State().Settings.Set = set
		a.State().Key(control.KeyTiled)
		type step struct {
			key      control.Key
			mode     control.Mode
			policy   balancer.Policy
			strategy balancer.Strategy
		}
		steps := []step{{key: control.KeyNone, mode: control.Tiled}}
		pol := a.State().Settings.Policy
		for i := range balancer.Policies {
			if i > 0 {
				pol = balancer.Policies[(indexOf(balancer.Policies, pol)+1)%len(balancer.Policies)]
			}
			steps = append(steps, step{control.KeyPolicy, control.PaperLoops, pol, balancer.Paper})
		}
		strat := a.State().Settings.Strategy
		if strat == balancer.Paper {
			strat = control.LoopStrategies[0]
		}
		for i := range control.LoopStrategies {
			if i > 0 {
				strat = control.LoopStrategies[(indexOf(control.LoopStrategies, strat)+1)%len(control.LoopStrategies)]
			}
			steps = append(steps, step{control.KeyStrategy, control.StrategyLoops, balancer.Never, strat})
		}
		steps = append(steps, step{key: control.KeyTiled, mode: control.Tiled})
		var want *image.RGBA
		for i, s := range steps {
			a.State().Key(s.key)
			if err := a.Script(1, ""); err != nil {
				t.Fatal(err)
			}
			st := a.State().Settings
			fr := a.Last()
			name := fmt.Sprintf("%v set, step %d (%v)", set, i, fr.Path)
			if st.Mode != s.mode {
				t.Fatalf("%s: mode %v, want %v", name, st.Mode, s.mode)
			}
			sc, z := fr.Stats.ScanConversion, fr.Stats.ZBuffer
			switch s.mode {
			case control.Tiled:
				if !fr.Path.Tiled || sc.Iterations != 0 || z.Iterations != 0 {
					t.Fatalf("%s: not the tiled path (%d, %d loop iterations)", name, sc.Iterations, z.Iterations)
				}
			default:
				if sc.Policy != s.policy || z.Policy != s.policy || sc.Strategy != s.strategy || z.Strategy != s.strategy || sc.Iterations == 0 {
					t.Fatalf("%s: the loops ran %v/%v and %v/%v, want %v/%v", name, sc.Policy, sc.Strategy, z.Policy, z.Strategy, s.policy, s.strategy)
				}
			}
			text := strings.Join(a.StatsLines(), "\n")
			if !strings.Contains(text, fr.Path.String()) || !strings.Contains(text, "frames/s") {
				t.Fatalf("%s: the overlay does not name the path and the frame rate:\n%s", name, text)
			}
			img := textureImage(a.Scene().Texture())
			if want == nil {
				want = img
				if covered := countNot(img, img.RGBAAt(0, 0)); covered < 100 {
					t.Fatalf("%s: only %d pixels differ from the corner's colour: nothing drawn?", name, covered)
				}
			} else if !sameRGBA(img, want) {
				t.Fatalf("%s: the picture differs from the tiled renderer's", name)
			}
		}
	}
}

// countNot counts the pixels of img that are not c.
func countNot(img *image.RGBA, c color.RGBA) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if img.RGBAAt(x, y) != c {
				n++
			}
		}
	}
	return n
}

// TestPrintCamera: C writes the camera in the notation -view takes, after
// a zoom too, without rendering again.
func TestPrintCamera(t *testing.T) {
	a, _, out := newApp(t, 40, 40,
		func(d *fakeDisplay) { d.st.Key(control.KeyCamera) },
		func(d *fakeDisplay) { d.st.Key(control.KeyView4); d.st.Camera.Zoom(2) },
		func(d *fakeDisplay) { d.st.Key(control.KeyCamera) })
	if err := a.Run(); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.Contains(s, "camera (0,0)\n") || !strings.Contains(s, "camera (45,45)x6\n") {
		t.Fatalf("C printed %q, want camera (0,0) then camera (45,45)x6", s)
	}
}
