// Command viewer is the interactive isosurface window: the compute
// renderer's image of a dataset's isosurface (package rasterizer), with the
// balancer at work in its two loops shown as you turn the surface.
//
//	go run ./viewer                          the default dataset (perforator 128^3)
//	go run ./viewer -field torus -res 64     a built-in field
//	go run ./viewer -volume head.nii.gz -iso 80
//	xvfb-run -a go run ./viewer -frames 3 -view 'M(45,45)' -screenshot out.png
//
// Mouse: drag to orbit, scroll to zoom, right-drag to pan. Keys: 1-4 the
// paper's views, B the balancer policy, L the lanes, U the polygon set,
// + and - the isovalue, R the hardware-pipeline reference, S a screenshot,
// O the overlay, H help, Esc or Q quit.
//
// The window shows the renderer's RGBA buffer, copied into a texture on the
// GPU and blitted to the window; a frame is rendered only when something
// changed, and between frames the viewer sleeps in glfw.WaitEvents. With
// -frames or -screenshot it renders that many frames, saves the window's
// contents and exits (the scripted mode that tests and the README use).
//
// The code is in internal packages: control (camera, keys, settings),
// scene (the GPU side), overlay (the bitmap font and panels) and app (the
// loop); this file reads the flags and builds the dataset, and display.go is
// the GLFW window.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu/window"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/dataset"
	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
	"github.com/dpgl/dpgl/viewer/internal/app"
	"github.com/dpgl/dpgl/viewer/internal/control"
	"github.com/dpgl/dpgl/viewer/internal/scene"
)

func main() { os.Exit(mainCode(os.Args[1:], os.Stdout, os.Stderr)) }

// mainCode runs the viewer and returns the exit status.
func mainCode(args []string, stdout, stderr io.Writer) int {
	err := run(args, stdout, stderr)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	}
	fmt.Fprintf(stderr, "viewer: %v\n", err)
	return 1
}

// errUsage marks command-line mistakes (already reported with the usage).
var errUsage = errors.New("usage")

// options are the command line's.
type options struct {
	field      string
	res        int
	volume     string
	iso        float64
	isoSet     bool
	isoStep    float64
	reduction  int
	width      int
	height     int
	view       view.View
	policy     balancer.Policy
	lanes      int
	unbalanced bool
	hardware   bool
	overlay    bool
	frames     int
	screenshot string
	shotDir    string
	cost       float64
	calPath    string
}

func (o *options) scripted() bool { return o.frames > 0 }

// parseFlags reads the command line; mistakes are reported on stderr and
// returned wrapping errUsage.
func parseFlags(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("viewer", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.field, "field", volume.Default().Name, "built-in field to sample: "+fieldNames())
	fs.IntVar(&o.res, "res", dataset.DefaultResolution, "samples per axis of the built-in field")
	fs.StringVar(&o.volume, "volume", "", "NIfTI-1 volume (.nii or .nii.gz) to open instead of a built-in field")
	fs.Float64Var(&o.iso, "iso", 0, "isovalue (default: the field's own; for a volume the middle of its value range)")
	fs.Float64Var(&o.isoStep, "isostep", 0, "isovalue change of one +/- press (default: 1/64 of the value range)")
	fs.IntVar(&o.reduction, "reduction", dataset.DefaultReduction, "decimation factor that makes the unbalanced set")
	size := fs.String("size", "512x512", "window size WxH in pixels")
	viewName := fs.String("view", "(45,45)", "starting view: (0,0), (45,45), M(0,0) or M(45,45)")
	policy := fs.String("policy", balancer.CostEffective.String(), "balancer policy of both loops: Never, Always, CostEffective or Bounded")
	fs.IntVar(&o.lanes, "lanes", 0, "solution-phase invocations of both loops (0: one per processor)")
	fs.BoolVar(&o.unbalanced, "unbalanced", false, "start with the unbalanced polygon set")
	fs.BoolVar(&o.hardware, "hardware", false, "start with the hardware-pipeline reference (primitive ids as colours)")
	fs.BoolVar(&o.overlay, "overlay", true, "show the statistics overlay")
	fs.IntVar(&o.frames, "frames", 0, "scripted mode: render this many frames, then exit")
	fs.StringVar(&o.screenshot, "screenshot", "", "scripted mode: save the window's contents after the last frame to this PNG file")
	fs.StringVar(&o.shotDir, "shotdir", "", "where S saves screenshots (default: the working directory)")
	fs.Float64Var(&o.cost, "cost", 0, fmt.Sprintf("costIterations of both loops (default: the calibration file's (bench calibrate), else the paper's %d and %d)",
		rasterizer.PaperScanConversionCost, rasterizer.PaperZBufferCost))
	fs.StringVar(&o.calPath, "calibration", balancer.DefaultCalibrationPath(), "the balancer calibration file")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: viewer [flags]\n\nKeys and mouse:\n")
		for _, l := range control.Help {
			fmt.Fprintf(stderr, "  %s\n", l)
		}
		fmt.Fprintf(stderr, "\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	bad := func(format string, a ...any) (*options, error) {
		msg := fmt.Sprintf(format, a...)
		fmt.Fprintf(stderr, "viewer: %s\n", msg)
		return nil, fmt.Errorf("%w: %s", errUsage, msg)
	}
	if fs.NArg() > 0 {
		return bad("unexpected arguments %q", fs.Args())
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	o.isoSet = set["iso"]
	if o.volume != "" && (set["field"] || set["res"]) {
		return bad("-volume opens a file; -field and -res choose a built-in field: give one or the other")
	}
	if _, err := volume.ByName(o.field); err != nil && o.volume == "" {
		return bad("%v", err)
	}
	if o.res < 2 {
		return bad("-res %d: want at least 2", o.res)
	}
	w, h, ok := parseSize(*size)
	if !ok {
		return bad("-size %q: want WxH with each side in 1..%d", *size, raster.MaxImageSize)
	}
	o.width, o.height = w, h
	var err error
	if o.view, err = view.ByName(*viewName); err != nil {
		return bad("%v", err)
	}
	if o.policy, err = balancer.ParsePolicy(*policy); err != nil {
		return bad("%v", err)
	}
	if o.lanes < 0 {
		return bad("-lanes %d is negative", o.lanes)
	}
	if o.reduction < 1 {
		return bad("-reduction %d: want at least 1", o.reduction)
	}
	if o.frames < 0 {
		return bad("-frames %d is negative", o.frames)
	}
	if o.screenshot != "" && o.frames == 0 {
		o.frames = 1
	}
	if o.isoStep < 0 || o.cost < 0 {
		return bad("-isostep and -cost must not be negative")
	}
	return o, nil
}

func fieldNames() string {
	var n []string
	for _, f := range volume.Fields() {
		n = append(n, f.Name)
	}
	return strings.Join(n, ", ")
}

// parseSize reads "WxH".
func parseSize(s string) (w, h int, ok bool) {
	a, b, found := strings.Cut(strings.ToLower(s), "x")
	if !found {
		return 0, 0, false
	}
	w, e1 := strconv.Atoi(a)
	h, e2 := strconv.Atoi(b)
	if e1 != nil || e2 != nil || w < 1 || h < 1 || w > raster.MaxImageSize || h > raster.MaxImageSize {
		return 0, 0, false
	}
	return w, h, true
}

// source is the dataset to show and the isovalue range of the +/- keys.
type source struct {
	pair                  *dataset.Pair
	isoMin, isoMax, isoSt float32
}

// loadSource samples the field or reads the volume and extracts the
// balanced polygon set at the isovalue, with marching cubes, as
// dataset.FromVolume does. The unbalanced set is left for the scene to
// decimate in the background when it is first asked for: a decimation takes
// seconds on large surfaces, and the window need not wait for it.
func loadSource(o *options) (*source, error) {
	var v *volume.Volume
	var name string
	var iso float32
	if o.volume != "" {
		var err error
		if v, _, err = volume.LoadNIfTI(o.volume); err != nil {
			return nil, err
		}
		name = filepath.Base(o.volume)
		lo, hi := v.Range()
		iso = lo + (hi-lo)/2
	} else {
		f, err := volume.ByName(o.field)
		if err != nil {
			return nil, err
		}
		v = f.SampleCube(o.res)
		name = fmt.Sprintf("%s %d^3", f.Name, o.res) // as dataset.FromField names it
		iso = f.Iso
	}
	if o.isoSet {
		iso = float32(o.iso)
	}
	lo, hi := v.Range()
	step := float32(o.isoStep)
	if step == 0 {
		step = (hi - lo) / 64
	}
	if !(step > 0) {
		step = 1 // a constant volume
	}
	pair := &dataset.Pair{Name: name, Volume: v, Iso: iso, Balanced: isosurface.MarchingCubes(v, iso)}
	var ok bool
	if pair.Lo, pair.Hi, ok = pair.Balanced.Bounds(); !ok {
		pair.Lo, pair.Hi = v.Bounds()
	}
	return &source{pair: pair, isoMin: min(lo, iso), isoMax: max(hi, iso), isoSt: step}, nil
}

// costs are the loops' costIterations: -cost, or the calibration file's
// for this GPU (rasterizer.LoadCosts), or the paper's
// (rasterizer.PaperCosts, as rasterizer.DefaultOptions); and a note saying
// which.
func costs(o *options, renderer string, stderr io.Writer) (scanCost, zCost float64, note string) {
	if o.cost > 0 {
		return o.cost, o.cost, fmt.Sprintf("%g iterations (-cost)", o.cost)
	}
	cal, err := balancer.LoadCalibration(o.calPath)
	if err != nil {
		fmt.Fprintf(stderr, "viewer: %v\n", err)
	}
	cs, _ := rasterizer.LoadCosts(cal, renderer)
	found := 0
	for _, lc := range []balancer.LoopCost{cs.ScanConversion, cs.ZBuffer} {
		if lc.CostIterations > 0 {
			found++
		}
	}
	o2 := rasterizer.DefaultOptions()
	cs.Apply(&o2)
	scanCost, zCost = o2.ScanConversion.CostIterations, o2.ZBuffer.CostIterations
	switch found {
	case 2:
		note = fmt.Sprintf("%.3g/%.3g iterations (calibrated)", scanCost, zCost)
	case 0:
		note = fmt.Sprintf("%g/%g iterations (the paper's; bench calibrate measures this GPU's)", scanCost, zCost)
	default:
		note = fmt.Sprintf("%.3g/%.3g iterations (part the paper's)", scanCost, zCost)
	}
	return scanCost, zCost, note
}

// run opens the window, builds the dataset and runs the viewer.
func run(args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	win, err := window.Open(window.Options{Title: "dpgl viewer", Width: o.width, Height: o.height, Resizable: !o.scripted()})
	if err != nil {
		if errors.Is(err, window.ErrNoDisplay) {
			return fmt.Errorf("%w\nThe viewer needs a display. Without one, run it under a virtual X server, e.g.\n"+
				"  xvfb-run -a go run ./viewer -frames 1 -screenshot viewer.png\n"+
				"or use the headless renderer: go run ./bench", err)
		}
		return err
	}
	defer win.Close()
	d := newDisplay(win)
	defer d.close()
	if !o.scripted() {
		d.showText("dpgl viewer: building the dataset ...")
	}
	src, err := loadSource(o)
	if err != nil {
		return err
	}
	c := win.Ctx
	scanCost, zCost, note := costs(o, c.Caps().Renderer, stderr)
	set := control.Balanced
	if o.unbalanced {
		set = control.Unbalanced
	}
	cfg := app.Config{
		Pair: src.pair,
		View: o.view,
		Settings: control.Settings{Policy: o.policy, Lanes: o.lanes, Set: set, Hardware: o.hardware,
			Overlay: o.overlay, Iso: src.pair.Iso},
		IsoMin: src.isoMin, IsoMax: src.isoMax, IsoStep: src.isoSt,
		Scene:    scene.Options{ScanCost: scanCost, ZBufferCost: zCost, Reduction: o.reduction},
		CostNote: note,
		ShotDir:  o.shotDir,
		Out:      stdout,
	}
	a, err := app.New(c, d, cfg)
	if err != nil {
		return err
	}
	defer a.Delete()
	d.attach(a.State())
	if o.scripted() {
		return a.Script(o.frames, o.screenshot)
	}
	return a.Run()
}
