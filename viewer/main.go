package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu/window"
	"github.com/dpgl/dpgl/internal/cliflag"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/dataset"
	"github.com/dpgl/dpgl/rasterizer/mesh"
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
	mesh       string
	iso        float64
	isoSet     bool
	isoStep    float64
	reduction  int
	width      int
	height     int
	flat       bool
	view       view.View
	mode       control.Mode
	policy     balancer.Policy
	strategy   balancer.Strategy
	lanes      int
	unbalanced bool
	hardware   bool
	overlay    bool
	frames     int
	screenshot string
	shotDir    string
	cost       float64
	calPath    string
	given      map[string]bool
}

func (o *options) scripted() bool { return o.frames > 0 }

// softVolumeRes is the longest axis a volume is resampled to on a software
// renderer when -res is not given: what llvmpipe draws at a few frames a
// second.
const softVolumeRes = 128

// parseFlags reads the command line; mistakes are reported on stderr and
// returned wrapping errUsage. The numbers are checked as they are parsed
// (package cliflag), the rest here, before a window opens.
func parseFlags(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("viewer", flag.ContinueOnError)
	raw := defineFlags(fs, o)
	usage := func() {
		fmt.Fprintf(stderr, "usage: viewer [flags]\n\nKeys and mouse:\n")
		for _, l := range control.Help {
			fmt.Fprintf(stderr, "  %s\n", l)
		}
		fmt.Fprintf(stderr, "\nFlags:\n")
		fs.SetOutput(stderr)
		fs.PrintDefaults()
	}
	// The flag package would print its refusal above the usage, where it
	// scrolls away: the usage comes first, and the refusal last.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		usage()
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		fmt.Fprintf(stderr, "viewer: %v\n", err)
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		err := fmt.Errorf("unexpected arguments %q", fs.Args())
		fmt.Fprintf(stderr, "viewer: %v\n", err)
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	o.given = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { o.given[f.Name] = true })
	o.isoSet = o.given["iso"]
	for _, check := range []func() error{o.checkSource, func() error { return o.checkRendering(raw) }, o.checkFiles} {
		if err := check(); err != nil {
			fmt.Fprintf(stderr, "viewer: %v\n", err)
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
	}
	return o, nil
}

// rawFlags are the flags parseFlags reads as text and turns into options.
type rawFlags struct{ size, viewName, policy, strategy *string }

// defineFlags adds the viewer's flags to fs, into o and the raw texts.
func defineFlags(fs *flag.FlagSet, o *options) rawFlags {
	fs.StringVar(&o.field, "field", volume.Default().Name, "built-in field to sample: "+fieldNames())
	cliflag.Int(fs, &o.res, "res", dataset.DefaultResolution, fmt.Sprintf("samples per axis of the built-in field; with -volume, the samples of the volume's longest axis, resampled when it has more (0: as it is; default %d on a software renderer, else as it is)", softVolumeRes), 0, math.MaxInt)
	fs.StringVar(&o.volume, "volume", "", "NIfTI-1 volume (.nii or .nii.gz) to open instead of a built-in field")
	fs.StringVar(&o.mesh, "mesh", "", "PLY mesh to show instead of an isosurface: the balanced set; its decimation to 1/reduction the unbalanced one")
	cliflag.Float(fs, &o.iso, "iso", 0, "isovalue (default: the field's own; for a volume the middle of its value range)", cliflag.Float32)
	cliflag.Float(fs, &o.isoStep, "isostep", 0, "isovalue change of one +/- press (default: 1/64 of the value range)", cliflag.NonNegative32)
	cliflag.Int(fs, &o.reduction, "reduction", dataset.DefaultReduction, "decimation factor that makes the unbalanced set", 1, math.MaxInt)
	size := fs.String("size", "512x512", "window size WxH in pixels")
	fs.BoolVar(&o.flat, "flat", false, "flat shading: one normal per triangle, so that a cube's faces stay flat")
	viewName := fs.String("view", "(45,45)", "starting view: "+view.Usage)
	policy := fs.String("policy", "", "draw with the paper's two loops under this balancer policy: Never, Always, CostEffective or Bounded (default: the tiled renderer, the fastest; B cycles the policies, starting at CostEffective)")
	strategy := fs.String("strategy", "", "draw with the two loops sharing tasks by this strategy: RoundRobin, Random, WorkPool, LeftRightHandoff, Search, LeftRightHandoffRace or RandomAssignment (G cycles them)")
	cliflag.Int(fs, &o.lanes, "lanes", 0, "solution-phase invocations of both loops (0: one per processor)", 0, math.MaxInt)
	fs.BoolVar(&o.unbalanced, "unbalanced", false, "start with the unbalanced polygon set")
	fs.BoolVar(&o.hardware, "hardware", false, "start with the hardware-pipeline reference (primitive ids as colours)")
	fs.BoolVar(&o.overlay, "overlay", true, "show the statistics overlay")
	cliflag.Int(fs, &o.frames, "frames", 0, "scripted mode: render this many frames, then exit", 0, math.MaxInt)
	fs.StringVar(&o.screenshot, "screenshot", "", "scripted mode: save the window's contents after the last frame to this file (.png, .jpg or .jpeg)")
	fs.StringVar(&o.shotDir, "shotdir", "", "where S saves screenshots (default: the working directory)")
	cliflag.Float(fs, &o.cost, "cost", 0, fmt.Sprintf("costIterations of both loops (default: the calibration file's (bench calibrate), else the paper's %d and %d)",
		rasterizer.PaperScanConversionCost, rasterizer.PaperZBufferCost), cliflag.NonNegative)
	fs.StringVar(&o.calPath, "calibration", balancer.DefaultCalibrationPath(), "the balancer calibration file")
	return rawFlags{size, viewName, policy, strategy}
}

// checkSource checks what to show: a volume, a mesh or a field, and its
// resolution.
func (o *options) checkSource() error {
	switch {
	case o.volume != "" && o.mesh != "":
		return errors.New("-volume and -mesh each name what to show: give one")
	case o.volume != "" && o.given["field"]:
		return errors.New("-volume opens a file; -field chooses a built-in field: give one or the other")
	case o.mesh != "":
		for _, f := range []string{"field", "res", "iso", "isostep"} {
			if o.given[f] {
				return fmt.Errorf("-mesh shows a mesh as it is; -%s is for isosurfaces", f)
			}
		}
	}
	if _, err := volume.ByName(o.field); err != nil && o.volume == "" && o.mesh == "" {
		return cliflag.Errorf("field", o.field, "no such built-in field (have %s)", fieldNames())
	}
	if o.res == 1 || (o.res == 0 && o.volume == "") {
		return cliflag.Errorf("res", strconv.Itoa(o.res), "want at least 2 samples per axis (0 only with -volume: as it is)")
	}
	if o.volume == "" && o.mesh == "" {
		if err := volume.CheckGrid([3]int{o.res, o.res, o.res}); err != nil {
			return cliflag.Errorf("res", strconv.Itoa(o.res), "%v", err)
		}
	}
	return nil
}

// checkRendering checks the window's size, the view and how the frames
// are drawn.
func (o *options) checkRendering(raw rawFlags) error {
	w, h, ok := parseSize(*raw.size)
	if !ok {
		return cliflag.Errorf("size", *raw.size, "want WxH with each side in 1..%d", raster.MaxImageSize)
	}
	o.width, o.height = w, h
	var err error
	if o.view, err = view.ByName(*raw.viewName); err != nil {
		return cliflag.Errorf("view", *raw.viewName, "%v", err)
	}
	o.mode, o.policy, o.strategy = control.Tiled, balancer.CostEffective, balancer.Paper
	if o.given["policy"] && o.given["strategy"] {
		return errors.New("-policy and -strategy each choose how the loops run: give one")
	}
	if o.given["policy"] {
		if o.policy, err = balancer.ParsePolicy(*raw.policy); err != nil {
			return cliflag.Errorf("policy", *raw.policy, "%v", err)
		}
		o.mode = control.PaperLoops
	}
	if o.given["strategy"] {
		if o.strategy, err = balancer.ParseStrategy(*raw.strategy); err != nil || o.strategy == balancer.Paper {
			return cliflag.Errorf("strategy", *raw.strategy, "want one of RoundRobin, Random, WorkPool, LeftRightHandoff, Search, LeftRightHandoffRace, RandomAssignment (the paper's loop is -policy's)")
		}
		o.mode = control.StrategyLoops
	}
	return nil
}

// checkFiles checks the input files and where screenshots go, before the
// window and the dataset: a scripted run must not fail to save only at
// its end.
func (o *options) checkFiles() error {
	for _, in := range []struct{ name, path string }{{"volume", o.volume}, {"mesh", o.mesh}} {
		if in.path != "" {
			if err := cliflag.CheckInFile(in.name, in.path); err != nil {
				return err
			}
		}
	}
	if o.screenshot != "" {
		if _, err := app.ImageFormat(o.screenshot); err != nil {
			return cliflag.Errorf("screenshot", o.screenshot, "want a name ending in .png, .jpg or .jpeg")
		}
		if err := cliflag.CheckOutFile("screenshot", o.screenshot); err != nil {
			return err
		}
		if o.frames == 0 {
			o.frames = 1
		}
	}
	if o.shotDir != "" {
		if fi, err := os.Stat(o.shotDir); err != nil || !fi.IsDir() {
			return cliflag.Errorf("shotdir", o.shotDir, "not an existing folder")
		}
		if err := cliflag.CheckOutDir("shotdir", o.shotDir); err != nil {
			return err
		}
	}
	return nil
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

// source is the dataset to show, the isovalue range of the +/- keys, and
// what was done to it that the user did not ask for.
type source struct {
	pair                  *dataset.Pair
	isoMin, isoMax, isoSt float32
	note                  string
}

// input is the file the command line names, read and checked before a
// window opens, so that a bad file is refused at once.
type input struct {
	vol  *volume.Volume // -volume's, as it is in the file
	mesh *mesh.Mesh     // -mesh's
}

// readInput reads -volume or -mesh (nothing for a built-in field) and
// refuses a volume that no isovalue can give a surface.
func readInput(o *options) (*input, error) {
	in := &input{}
	switch {
	case o.mesh != "":
		m, err := mesh.LoadPLY(o.mesh)
		if err != nil {
			return nil, fmt.Errorf("-mesh: %w", err)
		}
		if m.Len() == 0 {
			return nil, fmt.Errorf("-mesh %s: no triangles", o.mesh)
		}
		in.mesh = m
	case o.volume != "":
		v, _, err := volume.LoadNIfTI(o.volume)
		if err != nil {
			return nil, fmt.Errorf("-volume %s: %w", o.volume, err)
		}
		if d := v.Dims; min(d[0], d[1], d[2]) < 2 {
			// No cell, so no surface at any isovalue: say so rather
			// than blame -iso.
			return nil, fmt.Errorf("-volume %s: a side of 1 sample (%dx%dx%d): no cells to extract a surface from", o.volume, d[0], d[1], d[2])
		}
		if _, err := v.DefaultIso(); err != nil {
			return nil, fmt.Errorf("-volume %s: %w", o.volume, err)
		}
		in.vol = v
	}
	return in, nil
}

// loadSource is readInput and source.
func loadSource(o *options, software bool) (*source, error) {
	in, err := readInput(o)
	if err != nil {
		return nil, err
	}
	return in.source(o, software)
}

// source samples the field, or takes the volume or the mesh, and extracts
// the balanced polygon set at the isovalue, with marching cubes, as
// dataset.FromVolume does. The unbalanced set is left for the scene to
// decimate in the background when it is first asked for: a decimation takes
// seconds on large surfaces, and the window need not wait for it. On a
// software renderer a volume is resampled to softVolumeRes unless -res
// says otherwise. An empty surface at the starting isovalue is an error:
// the window would show nothing.
func (in *input) source(o *options, software bool) (*source, error) {
	if in.mesh != nil {
		pair, err := dataset.FromMesh(filepath.Base(o.mesh), in.mesh, 1)
		if err != nil {
			return nil, fmt.Errorf("-mesh %s: %w", o.mesh, err)
		}
		pair.Unbalanced = nil
		return &source{pair: pair, isoSt: 1}, nil
	}
	v := in.vol
	var name, note, what string
	var iso float32
	if v != nil {
		iso, _ = v.DefaultIso() // readInput checked that it has one
		n := o.res
		if !o.given["res"] {
			n = 0
			if software {
				n = softVolumeRes
			}
		}
		dims := v.Dims
		if n > 0 && max(dims[0], dims[1], dims[2]) > n {
			var err error
			if v, err = volume.Resample(v, n); err != nil {
				return nil, fmt.Errorf("-volume %s -res %d: %w", o.volume, n, err)
			}
			if !o.given["res"] {
				note = fmt.Sprintf("software renderer: %s resampled from %dx%dx%d to %dx%dx%d (-res 0 keeps it as it is)",
					filepath.Base(o.volume), dims[0], dims[1], dims[2], v.Dims[0], v.Dims[1], v.Dims[2])
			}
		}
		name = fmt.Sprintf("%s %dx%dx%d", filepath.Base(o.volume), v.Dims[0], v.Dims[1], v.Dims[2])
		what = "-volume " + o.volume
	} else {
		f, err := volume.ByName(o.field)
		if err != nil {
			return nil, err
		}
		if v, err = f.SampleGrid([3]int{o.res, o.res, o.res}); err != nil {
			return nil, fmt.Errorf("-field %s -res %d: %w", f.Name, o.res, err)
		}
		name = fmt.Sprintf("%s %d^3", f.Name, o.res) // as dataset.FromField names it
		iso = f.Iso
		what = "-field " + f.Name
	}
	if o.isoSet {
		iso = float32(o.iso)
	}
	lo, hi := v.Range()
	step := float32(o.isoStep)
	if step == 0 {
		step = float32((float64(hi) - float64(lo)) / 64)
	}
	if !(step > 0) || math.IsInf(float64(step), 0) {
		step = 1 // a constant volume
	}
	// Reduction 1: no decimation here; the scene makes the unbalanced set
	// in the background when it is asked for.
	pair, err := dataset.New(name, v, iso, 1)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	pair.Unbalanced = nil
	if x := pair.Extraction; x.NonFinite > 0 {
		note = strings.TrimPrefix(note+fmt.Sprintf("; %s: %d of its %d cells have a NaN or infinite corner and make no triangles", name, x.NonFinite, x.Cells), "; ")
	}
	if pair.Balanced.Len() == 0 {
		if o.isoSet {
			return nil, cliflag.Errorf("iso", strconv.FormatFloat(o.iso, 'g', -1, 64), "the surface of %s is empty there (its values run from %g to %g)", name, lo, hi)
		}
		return nil, fmt.Errorf("%s: the surface at the default isovalue %g is empty (the values run from %g to %g): give -iso", what, iso, lo, hi)
	}
	return &source{pair: pair, isoMin: min(lo, iso), isoMax: max(hi, iso), isoSt: step, note: note}, nil
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
	in, err := readInput(o)
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
	c := win.Ctx
	src, err := in.source(o, c.Caps().Software)
	if err != nil {
		return err
	}
	if src.note != "" {
		fmt.Fprintln(stdout, src.note)
	}
	scanCost, zCost, note := costs(o, c.Caps().Renderer, stderr)
	set := control.Balanced
	if o.unbalanced {
		set = control.Unbalanced
	}
	cfg := app.Config{
		Pair: src.pair,
		View: o.view,
		Settings: control.Settings{Mode: o.mode, Policy: o.policy, Strategy: o.strategy, Lanes: o.lanes, Set: set, Hardware: o.hardware,
			Overlay: o.overlay, Iso: src.pair.Iso},
		IsoMin: src.isoMin, IsoMax: src.isoMax, IsoStep: src.isoSt,
		Scene:    scene.Options{ScanCost: scanCost, ZBufferCost: zCost, Reduction: o.reduction, Flat: o.flat},
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
