package app

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/internal/fileio"
	"github.com/dpgl/dpgl/rasterizer/dataset"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/viewer/internal/control"
	"github.com/dpgl/dpgl/viewer/internal/overlay"
	"github.com/dpgl/dpgl/viewer/internal/scene"
)

// Panel is an image drawn over the frame with its top-left corner at (X, Y)
// in framebuffer pixels, y down.
type Panel struct {
	Img  *image.RGBA
	X, Y int
}

// Display is the window the viewer draws in. Its input callbacks feed the
// App's State (from inside Wait and Poll, on the caller's goroutine as far
// as the App can tell).
type Display interface {
	// Size is the framebuffer's size in pixels.
	Size() (w, h int)
	// Present shows color attachment 0 of frame filling the window, the
	// panels over it, and swaps. With shot set it returns what it is about
	// to show, top row first.
	Present(frame *gpu.Framebuffer, panels []Panel, shot bool) (*image.RGBA, error)
	SetTitle(title string)
	// Wait sleeps until there is input, or Wake is called, and delivers
	// it; Poll delivers what there is without sleeping.
	Wait()
	Poll()
	// Wake makes Wait return; it may be called from any goroutine.
	Wake()
	// Closing reports whether the user closed the window.
	Closing() bool
}

// Config describes what the viewer shows at the start.
type Config struct {
	Pair     *dataset.Pair
	View     view.View
	Settings control.Settings
	// IsoMin, IsoMax bound the isovalue keys; IsoStep is one press.
	IsoMin, IsoMax, IsoStep float32
	// Scene configures the renderer (costs, reduction); its size, policy,
	// lanes and Wake are set by the App.
	Scene scene.Options
	// CostNote says where the loops' costs come from, for the overlay.
	CostNote string
	// ShotDir is where S saves screenshots ("" is the working directory).
	ShotDir string
	// Out receives messages (saved screenshots, errors, scripted stats).
	Out io.Writer
}

// App is the viewer: its state, scene and display.
type App struct {
	cfg  Config
	c    *gpu.Context
	d    Display
	st   *control.State
	sc   *scene.Scene
	last scene.Frame
	// presentTime is how long the last present took: with the last
	// frame's render, the time the viewer takes to show a new picture.
	presentTime time.Duration
	err         error  // of the last frame, shown in the overlay
	msg         string // the last message (a saved screenshot), shown in the overlay

	// Frames counts rendered frames and Presents shown ones (for tests:
	// an idle viewer renders nothing).
	Frames, Presents int
}

// New makes the scene for the display's current size.
func New(c *gpu.Context, d Display, cfg Config) (*App, error) {
	if cfg.Pair == nil {
		panic("app: New: Config.Pair is nil")
	}
	if cfg.Out == nil {
		cfg.Out = io.Discard
	}
	w, h := d.Size()
	if w <= 0 || h <= 0 {
		w, h = 1, 1 // a minimized window: the first resize fixes it
	}
	a := &App{cfg: cfg, c: c, d: d}
	a.st = control.NewState(cfg.Pair.Lo, cfg.Pair.Hi, cfg.View, cfg.Settings, w, h, cfg.IsoMin, cfg.IsoMax, cfg.IsoStep)
	a.st.Camera.Frame = cfg.Pair.Orbit
	so := cfg.Scene
	so.Width, so.Height = w, h
	so.Path = PathOf(cfg.Settings)
	so.Wake = d.Wake
	var err error
	if a.sc, err = scene.New(c, cfg.Pair, so); err != nil {
		return nil, err
	}
	return a, nil
}

// State is the camera and settings that the display's input changes.
func (a *App) State() *control.State { return a.st }

// Scene is the GPU side.
func (a *App) Scene() *scene.Scene { return a.sc }

// Last is the last rendered frame.
func (a *App) Last() scene.Frame { return a.last }

// Delete frees the scene.
func (a *App) Delete() { a.sc.Delete() }

// apply carries the changes of ch over to the scene. It reports whether a
// new frame is needed.
func (a *App) apply(ch control.Change) (bool, error) {
	s := &a.st.Settings
	if ch&control.ChangeSize != 0 {
		if err := a.sc.Resize(a.st.Width, a.st.Height); err != nil {
			return false, err
		}
	}
	if ch&control.ChangeLoops != 0 {
		if err := a.sc.SetPath(PathOf(*s)); err != nil {
			return false, err
		}
	}
	if ch&control.ChangeIso != 0 {
		if err := a.sc.SetIso(s.Iso); err != nil {
			return false, err
		}
	}
	changed, err := a.sc.Poll()
	if err != nil {
		return false, err
	}
	return ch.Render() || (changed && s.Set == control.Unbalanced), nil
}

// PathOf is the renderer's path that settings s select.
func PathOf(s control.Settings) scene.Path {
	p := scene.Path{Tiled: s.Mode == control.Tiled, Policy: s.Policy, Lanes: s.Lanes}
	if s.Mode == control.StrategyLoops {
		p.Strategy = s.Strategy
	}
	return p
}

// render renders a frame of the current state.
func (a *App) render() error {
	s := &a.st.Settings
	cam := a.st.Camera.Matrices(a.st.Width, a.st.Height)
	f, err := a.sc.Render(s.Set == control.Unbalanced, s.Hardware, cam)
	a.Frames++
	if err != nil {
		return err
	}
	a.last = f
	a.d.SetTitle(a.title())
	return nil
}

// present shows the last frame with the panels; with shot it returns the
// window's contents.
func (a *App) present(shot bool) (*image.RGBA, error) {
	a.Presents++
	start := time.Now()
	img, err := a.d.Present(a.sc.Framebuffer(), a.panels(), shot)
	if !shot {
		a.presentTime = time.Since(start)
	}
	return img, err
}

// FrameRate is the frames a second the viewer shows while every frame is
// new (a drag): one over the last frame's render and the last present.
// A reused frame (nothing changed) renders in no time: 0 then.
func (a *App) FrameRate() float64 {
	if a.last.Reused {
		return 0
	}
	t := a.last.Stats.Wall + a.presentTime
	if t <= 0 {
		return 0
	}
	return float64(time.Second) / float64(t)
}

// sync reads the display's size into the state (the scripted mode has no
// resize callbacks to wait for).
func (a *App) sync() {
	if w, h := a.d.Size(); w > 0 && h > 0 {
		a.st.Resize(w, h)
	}
}

// Run is the interactive loop: it renders a frame when something changed,
// shows it, and sleeps until the next input. It returns when the user
// quits or closes the window.
func (a *App) Run() error {
	a.sync()
	a.st.Take()
	render, show := true, true
	for {
		ch := a.st.Take()
		if ch&control.WantQuit != 0 || a.d.Closing() {
			return nil
		}
		need, err := a.apply(ch)
		if err != nil {
			a.fail(err)
			show = true
		}
		if need || render {
			if err := a.render(); err != nil {
				a.fail(err)
			} else {
				a.err = nil
			}
			show = true
		}
		if ch&control.WantScreenshot != 0 {
			a.screenshot()
			show = true
		}
		if ch&control.WantCamera != 0 {
			a.printCamera()
		}
		if show || ch&control.ChangePresent != 0 {
			if _, err := a.present(false); err != nil {
				a.fail(err)
			}
		}
		render, show = false, false
		a.d.Wait()
	}
}

// fail reports an error in the overlay and on Out; the viewer goes on.
func (a *App) fail(err error) {
	a.err = err
	fmt.Fprintf(a.cfg.Out, "viewer: %v\n", err)
}

// printCamera writes the camera in view.Parse's notation on Out, as
// viewer -view and bench -views take it.
func (a *App) printCamera() {
	a.msg = "camera " + a.st.Camera.View().Name
	fmt.Fprintln(a.cfg.Out, a.msg)
}

// screenshot saves the window's contents, overlay included, as a PNG.
func (a *App) screenshot() {
	img, err := a.present(true)
	if err == nil && img == nil {
		err = errors.New("no screenshot: the window shows nothing (minimized?)")
	}
	if err != nil {
		a.fail(err)
		return
	}
	path := filepath.Join(a.cfg.ShotDir, "dpgl-"+time.Now().Format("20060102-150405.000")+".png")
	if err := WriteImage(path, img); err != nil {
		a.fail(err)
		return
	}
	a.msg = "saved " + path
	fmt.Fprintln(a.cfg.Out, a.msg)
}

// ImageFormat is the encoding a screenshot's file name asks for by its
// extension: "png", or "jpeg" for .jpg and .jpeg (any case). Other names
// are an error, so that no file holds bytes its name belies.
func ImageFormat(path string) (string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		return "png", nil
	case ".jpg", ".jpeg":
		return "jpeg", nil
	}
	return "", fmt.Errorf("%s: unknown image extension %q: want .png, .jpg or .jpeg", path, filepath.Ext(path))
}

// WriteImage saves img in the format its extension names (ImageFormat),
// through fileio.Write: encoded into a temporary file beside it and
// renamed over path, so that a failure leaves no half-written file and an
// older file at path intact, and never over one of the run's inputs.
func WriteImage(path string, img image.Image) error {
	format, err := ImageFormat(path)
	if err != nil {
		return err
	}
	return fileio.Write(path, func(w io.Writer) error {
		if format == "png" {
			return png.Encode(w, img)
		}
		return jpeg.Encode(w, img, &jpeg.Options{Quality: 95})
	})
}

// Script renders frames frames of the state as it is (input other than a
// resize is not read), each rendered anew although nothing changed (they
// measure the renderer), prints each frame's statistics to Out, and saves the
// window's contents after the last one to shot (unless shot is "").
func (a *App) Script(frames int, shot string) error {
	if frames < 1 {
		return errors.New("app: Script: frames < 1")
	}
	a.sync()
	if _, err := a.apply(a.st.Take()); err != nil {
		return err
	}
	if a.st.Settings.Set == control.Unbalanced {
		if err := a.sc.PrepareUnbalanced(); err != nil {
			return err
		}
	}
	for i := 0; i < frames; i++ {
		a.d.Poll()
		a.sync()
		if ch := a.st.Take(); ch&control.ChangeSize != 0 {
			if _, err := a.apply(control.ChangeSize); err != nil {
				return err
			}
		}
		a.sc.Forget() // each scripted frame is rendered: they measure the renderer
		if err := a.render(); err != nil {
			return err
		}
		fmt.Fprintf(a.cfg.Out, "frame %d: %s\n", i+1, frameLine(&a.last))
		last := i == frames-1 && shot != ""
		img, err := a.present(last)
		if err == nil && last && img == nil {
			err = errors.New("no screenshot: the window shows nothing (minimized?)")
		}
		if err != nil {
			return err
		}
		if last {
			if err := WriteImage(shot, img); err != nil {
				return err
			}
			b := img.Bounds()
			fmt.Fprintf(a.cfg.Out, "saved %s (%dx%d)\n", shot, b.Dx(), b.Dy())
			for _, p := range a.panels() {
				pb := p.Img.Bounds()
				fmt.Fprintf(a.cfg.Out, "panel %dx%d at (%d,%d)\n", pb.Dx(), pb.Dy(), p.X, p.Y)
			}
		}
	}
	return nil
}

// PanelFG and PanelBG are the panels' colours: light text on an opaque dark ground, near the
// renderer's background.
var (
	PanelFG = color.RGBA{232, 232, 224, 255}
	PanelBG = color.RGBA{12, 14, 20, 255}
)

// panels are the statistics panel at the top left and the help panel at
// the bottom left, as the settings ask.
func (a *App) panels() []Panel {
	s := &a.st.Settings
	scale := overlay.Scale(a.st.Width, a.st.Height)
	var ps []Panel
	if s.Overlay {
		ps = append(ps, Panel{Img: overlay.Panel(a.StatsLines(), scale, PanelFG, PanelBG)})
	}
	if s.Help {
		img := overlay.Panel(append([]string{"keys and mouse:"}, control.Help...), scale, PanelFG, PanelBG)
		ps = append(ps, Panel{Img: img, Y: max(a.st.Height-img.Bounds().Dy(), 0)})
	}
	return ps
}

// title is the window title: the frame's essentials.
func (a *App) title() string {
	f := &a.last
	s := &a.st.Settings
	return fmt.Sprintf("dpgl viewer - %s, %.1f frames/s - %d triangles (%s) - %s - %s",
		ms(f.Stats.Wall), a.FrameRate(), f.Triangles, setName(f), PathOf(*s), a.c.Caps().Renderer)
}

func setName(f *scene.Frame) string {
	if f.Unbalanced {
		return "unbalanced"
	}
	return "balanced"
}

func lanesName(l int) string {
	if l == 0 {
		return "all"
	}
	return fmt.Sprint(l)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }

// frameLine is one frame's statistics on one line (scripted mode).
func frameLine(f *scene.Frame) string {
	st := &f.Stats
	z := fmt.Sprintf("z-buffer %d it %d bal", st.ZBuffer.Iterations, st.ZBuffer.Balances)
	if st.ZBufferIDs.Iterations > 0 {
		z += fmt.Sprintf(" + ids %d it %d bal", st.ZBufferIDs.Iterations, st.ZBufferIDs.Balances)
	}
	if f.Path.Tiled {
		return fmt.Sprintf("%s wall, %s GPU, %d triangles (%s), %s: setup %s, binning %s, tiles %s, shading %s", ms(st.Wall), ms(st.Total), f.Triangles, setName(f), f.Path,
			ms(st.SetupTime), ms(st.ScanTime), ms(st.ZBufferTime), ms(st.ResolveTime))
	}
	return fmt.Sprintf("%s wall, %s GPU, %d triangles (%s), %s, scan conversion %d it %d bal, %s",
		ms(st.Wall), ms(st.Total), f.Triangles, setName(f), f.Path, st.ScanConversion.Iterations, st.ScanConversion.Balances, z)
}

// StatsLines are the statistics panel's lines, short enough (at most 44
// characters, but for the GPU's name and the dataset's) for a 320-pixel
// window.
func (a *App) StatsLines() []string {
	f := &a.last
	st := &f.Stats
	cam := &a.st.Camera
	orbit := ""
	if !cam.Oriented() {
		orbit = " orbited"
	}
	loop := func(name string, l *balancer.Stats) string {
		return fmt.Sprintf("%-9s %3d it %3d bal (max %d avg %.1f)", name, l.Iterations, l.Balances, l.Start.MaxWorkload, l.StartAvg())
	}
	lines := []string{
		"dpgl viewer (H: help)",
		a.c.Caps().Renderer,
		fmt.Sprintf("%s iso %.4g", a.cfg.Pair.Name, f.Iso),
		fmt.Sprintf("%d triangles, %s set", f.Triangles, setName(f)),
		fmt.Sprintf("view %s x%.2f%s, %dx%d", cam.Base.Name, cam.Magnification, orbit, a.st.Width, a.st.Height),
		fmt.Sprintf("frame %s, GPU %s, %.1f frames/s", ms(st.Wall), ms(st.Total), a.FrameRate()),
	}
	if f.Path.Tiled {
		lines = append(lines, fmt.Sprintf(" setup %.1f bin %.1f tiles %.1f shade %.1f ms",
			float64(st.SetupTime)/1e6, float64(st.ScanTime)/1e6, float64(st.ZBufferTime)/1e6, float64(st.ResolveTime)/1e6),
			"renderer "+f.Path.String())
	} else {
		lines = append(lines, fmt.Sprintf(" setup %.1f scan %.1f z %.1f shade %.1f ms",
			float64(st.SetupTime)/1e6, float64(st.ScanTime)/1e6, float64(st.ZBufferTime)/1e6, float64(st.ResolveTime)/1e6),
			loop("scan conv", &st.ScanConversion),
			loop("z-buffer", &st.ZBuffer))
		if st.ZBufferIDs.Iterations > 0 {
			lines = append(lines, loop(" ids pass", &st.ZBufferIDs))
		}
		lines = append(lines, f.Path.String(),
			fmt.Sprintf(" lanes run: %d scan, %d z", st.ScanConversion.Lanes, st.ZBuffer.Lanes),
			"cost "+a.cfg.CostNote)
	}
	if f.Hardware {
		lines = append(lines, "R: hardware pipeline, ids as colours",
			fmt.Sprintf(" GPU %s, %.2f%% agree", ms(f.HardwareTime), 100*f.Agree))
	}
	if f.Note != "" {
		lines = append(lines, strings.Split(f.Note, "; ")...)
	}
	if a.err != nil {
		lines = append(lines, "error: "+clip(firstLine(a.err.Error()), 60))
	}
	if a.msg != "" {
		lines = append(lines, a.msg)
	}
	return lines
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n-3] + "..."
	}
	return s
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
