package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/bench/internal/experiment"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/internal/cliflag"
	"github.com/dpgl/dpgl/internal/fileio"
	"github.com/dpgl/dpgl/rasterizer/dataset"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// expFlags are the flags of the commands that render a dataset (paper,
// render, calibrate): one style, one parser, one set of defaults.
type expFlags struct {
	cmd string

	volume    string
	mesh      string
	field     string
	res       int
	iso       float64
	reduction int

	width, height int
	flat          bool
	views         string
	lanes         string
	policies      string
	out           string
	calPath       string
	recalibrate   bool
	margin        float64
	lockstep      bool

	*commonFlags
	fs *flag.FlagSet

	// Set after parse.
	viewList   []view.View
	lanesList  []int // 0 = one lane per processor
	policyList []balancer.Policy
}

// expDefaults are a command's defaults on a real GPU, and the smaller ones
// it takes on a software renderer for flags not given.
type expDefaults struct {
	lanes, policies, out string
	lockstep             bool // -lockstep's default
	warmup, reps         int
	// soft* apply on a software renderer (Caps().Software).
	softRes, softSize, softWarmup, softReps int
	softLanes                               string
}

func addExpFlags(fs *flag.FlagSet, cmd string, d expDefaults) *expFlags {
	f := &expFlags{cmd: cmd, fs: fs}
	fs.StringVar(&f.volume, "volume", "", "a NIfTI-1 volume (.nii or .nii.gz) to take the surface from instead of a built-in field, e.g. /usr/share/mricron/templates/ch2.nii.gz")
	fs.StringVar(&f.mesh, "mesh", "", "a PLY mesh to render instead of an isosurface: it is the balanced set, its decimation to 1/reduction the unbalanced one")
	fs.StringVar(&f.field, "field", volume.Default().Name, "built-in field to sample: "+strings.Join(fieldNames(), ", "))
	cliflag.Int(fs, &f.res, "res", dataset.DefaultResolution, fmt.Sprintf("grid size per axis: a field is sampled at res^3; a volume is resampled so its longest axis has res samples when it has more (0: as it is) (software renderer: %d)", d.softRes), 0, math.MaxInt)
	cliflag.Float(fs, &f.iso, "iso", 0, "isovalue of the surface (default: the field's own; for -volume the middle of the volume's value range)", cliflag.Float32)
	cliflag.Int(fs, &f.reduction, "reduction", dataset.DefaultReduction, "the unbalanced set is the balanced (marching-cubes) set decimated to 1/reduction of its triangles", 1, math.MaxInt)
	cliflag.Int(fs, &f.width, "width", 512, fmt.Sprintf("image width in pixels (the paper's 512; software renderer: %d)", d.softSize), 1, raster.MaxImageSize)
	cliflag.Int(fs, &f.height, "height", 512, fmt.Sprintf("image height in pixels (the paper's 512; software renderer: %d)", d.softSize), 1, raster.MaxImageSize)
	fs.BoolVar(&f.flat, "flat", false, "flat shading: one normal per triangle, so that a cube's faces stay flat (default: the surface's vertex normals)")
	fs.StringVar(&f.views, "views", "all", "views, separated by commas (or semicolons or spaces) outside parentheses: "+view.Usage+`, or "all" for the paper's four`)
	fs.StringVar(&f.lanes, "lanes", d.lanes, fmt.Sprintf(`Lanes values to sweep, comma-separated: invocations running each loop's solution phase (the paper's physical processors); "all" = one per processor (software renderer: %s; the balancer raises Lanes there so that no lane takes more than 4096 processors, and the tables say what ran)`, d.softLanes))
	fs.StringVar(&f.policies, "policies", d.policies, "balancer policies, comma-separated: Never (the paper's original renderer, OR), CostEffective (the paper's load balancing, LB), Bounded (CostEffective's decisions without its gathering cost on balanced data), Always")
	fs.StringVar(&f.out, "out", d.out, "folder for the result files (tables as Markdown and CSV, JSON, PNG images and plots)")
	fs.StringVar(&f.calPath, "calibration", balancer.DefaultCalibrationPath(), "the calibration file holding each loop's overestimated cost, keyed by GL renderer")
	fs.BoolVar(&f.recalibrate, "calibrate", false, "recalibrate the costs and save them, even if the file has them")
	cliflag.Float(fs, &f.margin, "margin", balancer.DefaultMargin, "the constant, in iterations, a calibration adds to the largest measured cost", cliflag.NonNegative)
	fs.BoolVar(&f.lockstep, "lockstep", d.lockstep, "run each iteration of the loops' solution phase as its own dispatch, a global step as on the paper's SIMD machine; "+
		"false batches the iterations a policy decides nothing between (faster, Never most: the same iterations, balances and images, but LB's speedups over OR shrink)")
	f.commonFlags = addCommonFlags(fs, d.warmup, d.reps)
	fs.Lookup("warmup").Usage += fmt.Sprintf(" (software renderer: %d)", d.softWarmup)
	fs.Lookup("reps").Usage += fmt.Sprintf(" (software renderer: %d)", d.softReps)
	return f
}

// given reports whether the flag was set on the command line.
func (f *expFlags) given(name string) bool {
	set := false
	f.fs.Visit(func(fl *flag.Flag) {
		if fl.Name == name {
			set = true
		}
	})
	return set
}

func (f *expFlags) errorf(flagName, value, format string, a ...any) error {
	return fmt.Errorf("bench %s: %w", f.cmd, cliflag.Errorf(flagName, value, format, a...))
}

// check validates what the flags' types cannot alone (combinations, lists,
// the result folder) and parses the lists. The numbers were checked as they
// were parsed (package cliflag).
func (f *expFlags) check() error {
	var err error
	if f.res == 1 || (f.res == 0 && f.volume == "" && f.mesh == "") {
		return f.errorf("res", strconv.Itoa(f.res), "want a grid of at least 2 samples per axis (0 only with -volume: the volume as it is)")
	}
	if f.mesh != "" {
		for _, other := range []string{"volume", "field", "iso", "res"} {
			if f.given(other) {
				return fmt.Errorf("bench %s: -mesh and -%s exclude each other: a mesh is rendered as it is", f.cmd, other)
			}
		}
	}
	if f.volume != "" && f.given("field") {
		return fmt.Errorf("bench %s: -volume and -field exclude each other", f.cmd)
	}
	if f.volume == "" && f.mesh == "" {
		if _, err := volume.ByName(f.field); err != nil {
			return f.errorf("field", f.field, "no such built-in field (have %s)", strings.Join(fieldNames(), ", "))
		}
		if err := volume.CheckGrid([3]int{f.res, f.res, f.res}); err != nil {
			return f.errorf("res", strconv.Itoa(f.res), "%v", err)
		}
	}
	if f.viewList, err = view.ParseList(f.views); err != nil {
		return f.errorf("views", f.views, "%v", err)
	}
	if f.lanesList, err = parseLanes(f.lanes); err != nil {
		return f.errorf("lanes", f.lanes, "%v", err)
	}
	if f.policyList, err = parsePolicies(f.policies); err != nil {
		return f.errorf("policies", f.policies, "%v", err)
	}
	if f.calPath == "" {
		return f.errorf("calibration", "", "want a file path")
	}
	for _, in := range []struct{ name, path string }{{"volume", f.volume}, {"mesh", f.mesh}} {
		if in.path != "" {
			if err := cliflag.CheckInFile(in.name, in.path); err != nil {
				return fmt.Errorf("bench %s: %w", f.cmd, err)
			}
		}
	}
	if f.fs.Lookup("calibration") != nil { // bench distributed has none
		if err := checkCalibration(f.calPath, f.recalibrate); err != nil {
			return fmt.Errorf("bench %s: %w", f.cmd, err)
		}
	}
	if f.out != "" {
		// Before the dataset and the frames, which take minutes: a run
		// must not end in "cannot write" after all that work.
		if err := cliflag.CheckOutDir("out", f.out); err != nil {
			return fmt.Errorf("bench %s: %w", f.cmd, err)
		}
	}
	return nil
}

// reduceForSoftware lowers the defaults of the flags not given on a
// software renderer and says what it lowered.
func (f *expFlags) reduceForSoftware(d expDefaults) []string {
	var notes []string
	if !f.given("res") && f.res > d.softRes {
		notes = append(notes, fmt.Sprintf("-res %d (not %d)", d.softRes, f.res))
		f.res = d.softRes
	}
	if !f.given("width") && !f.given("height") && (f.width > d.softSize || f.height > d.softSize) {
		notes = append(notes, fmt.Sprintf("-width %d -height %d (not %dx%d)", d.softSize, d.softSize, f.width, f.height))
		f.width, f.height = d.softSize, d.softSize
	}
	if !f.given("lanes") && f.lanes != d.softLanes {
		notes = append(notes, fmt.Sprintf("-lanes %s (not %s)", d.softLanes, f.lanes))
		f.lanes = d.softLanes
		f.lanesList, _ = parseLanes(f.lanes)
	}
	if !f.given("reps") && f.reps > d.softReps {
		notes = append(notes, fmt.Sprintf("-reps %d (not %d)", d.softReps, f.reps))
		f.reps = d.softReps
	}
	if !f.given("warmup") && f.warmup > d.softWarmup {
		notes = append(notes, fmt.Sprintf("-warmup %d (not %d)", d.softWarmup, f.warmup))
		f.warmup = d.softWarmup
	}
	return notes
}

// makeDataset builds the balanced and unbalanced polygon sets the flags
// name.
func (f *expFlags) makeDataset() (*dataset.Pair, error) {
	if f.mesh != "" {
		m, err := readMesh(f.mesh)
		if err == nil {
			var p *dataset.Pair
			if p, err = dataset.FromMesh(filepath.Base(f.mesh), m, f.reduction); err == nil {
				return p, nil
			}
		}
		return nil, fmt.Errorf("bench %s: -mesh %s: %w", f.cmd, f.mesh, err)
	}
	if f.volume == "" {
		fl, _ := volume.ByName(f.field)
		if f.given("iso") {
			fl.Iso = float32(f.iso)
		}
		p, err := dataset.Sample(fl, f.res, f.reduction)
		if err != nil {
			return nil, fmt.Errorf("bench %s: -field %s -res %d: %w", f.cmd, fl.Name, f.res, err)
		}
		return f.checkPair(p)
	}
	v, _, err := volume.LoadNIfTI(f.volume)
	if err != nil {
		return nil, fmt.Errorf("bench %s: -volume %s: %w", f.cmd, f.volume, err)
	}
	if d := v.Dims; min(d[0], d[1], d[2]) < 2 {
		// No cell, so no surface at any isovalue: say so rather than
		// blame -iso.
		return nil, fmt.Errorf("bench %s: -volume %s: a side of 1 sample (%dx%dx%d): no cells to extract a surface from", f.cmd, f.volume, d[0], d[1], d[2])
	}
	iso, err := v.DefaultIso()
	if err != nil {
		return nil, fmt.Errorf("bench %s: -volume %s: %w", f.cmd, f.volume, err)
	}
	if f.res > 0 && max(v.Dims[0], v.Dims[1], v.Dims[2]) > f.res {
		if v, err = volume.Resample(v, f.res); err != nil {
			return nil, fmt.Errorf("bench %s: -volume %s -res %d: %w", f.cmd, f.volume, f.res, err)
		}
	}
	if f.given("iso") {
		iso = float32(f.iso)
	}
	name := fmt.Sprintf("%s %dx%dx%d", filepath.Base(f.volume), v.Dims[0], v.Dims[1], v.Dims[2])
	p, err := dataset.New(name, v, iso, f.reduction)
	if err != nil {
		return nil, fmt.Errorf("bench %s: -volume %s: %w", f.cmd, f.volume, err)
	}
	return f.checkPair(p)
}

// openExperiment builds the dataset the flags name and uploads it with a
// renderer.
func openExperiment(c *gpu.Context, f *expFlags) (*experiment.Experiment, error) {
	start := time.Now()
	pr := newProgress("dataset", 1)
	pr.show("sampling the volume, marching cubes, decimation")
	pair, err := f.makeDataset()
	pr.clear()
	if err != nil {
		return nil, err
	}
	return experiment.New(c, pair, experiment.Options{Width: f.width, Height: f.height, Flat: f.flat, BuildTime: time.Since(start), Lockstep: f.lockstep})
}

// calibration is where the costs come from and how they are calibrated.
func (f *expFlags) calibration() experiment.Calibration {
	return experiment.Calibration{Path: f.calPath, Recalibrate: f.recalibrate, Margin: f.margin,
		Views: f.viewList, Lanes: f.lanesList, Warmup: f.warmup, Reps: f.reps}
}

// source is the field's name or the file the dataset comes from.
func (f *expFlags) source() string {
	switch {
	case f.mesh != "":
		return f.mesh
	case f.volume != "":
		return f.volume
	}
	return f.field
}

// checkCalibration refuses, before any work, a -calibration file that a
// run could neither read nor, when it calibrates (-calibrate, or no file
// yet), write: a folder, a file that is not a calibration, or a place
// where no file can be made.
func checkCalibration(path string, recalibrate bool) error {
	fi, err := os.Stat(path)
	if err == nil && fi.IsDir() {
		return cliflag.Errorf("calibration", path, "a folder, not a file")
	}
	if err == nil {
		if _, _, err := experiment.OpenCalibration(path); err != nil {
			return err
		}
	}
	if err != nil || recalibrate {
		return cliflag.CheckOutDir("calibration", filepath.Dir(path))
	}
	return nil
}

// readMesh reads a PLY file; its errors leave the path to the caller,
// which names it with its flag.
func readMesh(path string) (*mesh.Mesh, error) {
	r, err := fileio.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, pe.Err
		}
		return nil, err
	}
	defer r.Close()
	return mesh.ReadPLY(r)
}

func (f *expFlags) checkPair(p *dataset.Pair) (*dataset.Pair, error) {
	if p.Balanced.Len() == 0 {
		lo, hi := p.Volume.Range()
		if !f.given("iso") {
			// The isovalue is ours: say so, rather than blame a flag
			// the user did not give.
			src := "-field " + f.field
			if f.volume != "" {
				src = "-volume " + f.volume
			}
			return nil, fmt.Errorf("bench %s: %s: the surface at the default isovalue %g is empty (the values run from %g to %g): give -iso", f.cmd, src, p.Iso, lo, hi)
		}
		return nil, f.errorf("iso", fmt.Sprint(p.Iso), "the surface of %s is empty there (its values run from %g to %g)", p.Name, lo, hi)
	}
	return p, nil
}

func fieldNames() []string {
	var out []string
	for _, f := range volume.Fields() {
		out = append(out, f.Name)
	}
	return out
}

// parseLanes reads Lanes values: positive numbers, or "all" (0).
func parseLanes(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		n := 0
		if f != "all" {
			var err error
			if n, err = strconv.Atoi(f); err != nil || n < 1 {
				return nil, fmt.Errorf("%q is neither a positive number of lanes nor \"all\"", f)
			}
		}
		for _, o := range out {
			if o == n {
				return nil, fmt.Errorf("%s given twice", lanesLabel(n))
			}
		}
		out = append(out, n)
	}
	return out, nil
}

func parsePolicies(s string) ([]balancer.Policy, error) {
	var out []balancer.Policy
	for _, f := range strings.Split(s, ",") {
		p, err := balancer.ParsePolicy(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("unknown policy %q (want Never, CostEffective, Bounded or Always)", strings.TrimSpace(f))
		}
		for _, o := range out {
			if o == p {
				return nil, fmt.Errorf("%v given twice", p)
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// The names experiment gives sets, Lanes values and policies.
var (
	setNames    = experiment.SetNames
	lanesLabel  = experiment.LanesLabel
	policyLabel = experiment.PolicyLabel
)

const (
	unbalancedSet = experiment.Unbalanced
	balancedSet   = experiment.Balanced
)

// slug makes a view or set name safe in a file name: "M(45,45)" → "M45-45".
func slug(s string) string {
	r := strings.NewReplacer("(", "", ")", "", ",", "-", " ", "_", "^", "")
	return r.Replace(s)
}

// printReductions says what a software renderer lowered.
// parseExp parses a measuring command's arguments into f and checks them;
// the command takes flags only.
func parseExp(fs *flag.FlagSet, f *expFlags, args []string) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	return f.check()
}

// openExp makes the headless context and, on a software renderer, shrinks
// the defaults f was not given; it returns what it shrank. The caller
// deletes the context.
func openExp(f *expFlags, d expDefaults) (*gpu.Context, []string, error) {
	c, err := gpu.NewHeadless()
	if err != nil {
		return nil, nil, err
	}
	var reduced []string
	if c.Caps().Software {
		reduced = f.reduceForSoftware(d)
	}
	return c, reduced, nil
}

func printReductions(w io.Writer, renderer string, notes []string) {
	if len(notes) == 0 {
		return
	}
	fmt.Fprintf(w, "software renderer (%s): smaller defaults so that the run takes well under a minute:\n  %s\n  (give the flags to override; real GPUs run the full experiment)\n",
		renderer, strings.Join(notes, ", "))
}
