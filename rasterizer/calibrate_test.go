package rasterizer

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// DefaultOptions render without a word: the costs are given, and the
// first frame, whose phases include one-time costs, is not held against
// them.
func TestDefaultOptionsDoNotWarnGPU(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	f := volume.Sphere()
	surface := isosurface.MarchingCubes(f.SampleCube(20), f.Iso)
	m, err := mesh.Upload(c, surface)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Delete()
	var said []string
	logf := func(format string, a ...any) { said = append(said, format) }
	o := DefaultOptions()
	o.Width, o.Height = 64, 64
	o.ScanConversion.Logf, o.ZBuffer.Logf = logf, logf
	if o.ScanConversion.CostIterations != PaperScanConversionCost || o.ZBuffer.CostIterations != PaperZBufferCost {
		t.Fatalf("DefaultOptions' costs %v, %v", o.ScanConversion.CostIterations, o.ZBuffer.CostIterations)
	}
	r, err := New(s, o)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Delete()
	lo, hi, _ := surface.Bounds()
	if _, err := r.Render(m, view.Paper()[0].Fit(lo, hi, 64, 64)); err != nil {
		t.Fatal(err)
	}
	if len(said) > 0 {
		t.Fatalf("the first frame with DefaultOptions warned: %q", said)
	}
}

// Calibrate measures both loops on warmed-up frames, at every Lanes value
// and scene, restores the options, and draws what Never draws.
func TestCalibrateGPU(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	f := volume.Sphere()
	surface := isosurface.MarchingCubes(f.SampleCube(16), f.Iso)
	sphere, err := mesh.Upload(c, surface)
	if err != nil {
		t.Fatal(err)
	}
	defer sphere.Delete()
	// One large triangle among the sphere's small ones: unbalanced in both
	// loops.
	pos, _ := surface.Soup()
	soup := append([][3]float32{{-1, -1, 0}, {1, -1, 0}, {0, 1, 0}}, pos...)
	skewed := uploadSoup(t, c, soup)
	lo, hi, _ := surface.Bounds()
	cam := view.Paper()[0].Fit(lo, hi, 48, 48)

	o := DefaultOptions()
	o.Width, o.Height = 48, 48
	o.ScanConversion, o.ZBuffer = quiet(balancer.Config{Policy: balancer.Never}), quiet(balancer.Config{Policy: balancer.Never})
	r, err := New(s, o)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Delete()
	if _, err := r.Render(skewed, cam); err != nil {
		t.Fatal(err)
	}
	before := r.Prims()
	var progress [][2]int
	cs, err := Calibrate(r, []Scene{{sphere, cam}, {skewed, cam}}, CalibrateOptions{Lanes: []int{0, 8}, Reps: 2, Margin: balancer.DefaultMargin,
		Progress: func(scene, lanes int) { progress = append(progress, [2]int{scene, lanes}) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("costs: %+v", cs)
	for name, lc := range map[string]balancer.LoopCost{"scan conversion": cs.ScanConversion, "z-buffer": cs.ZBuffer} {
		if lc.CostIterations <= balancer.DefaultMargin || lc.Runs < 1 || lc.Runs > 4 || lc.LongestRun < 2 || lc.MaxRedistributeNs <= 0 || lc.MinSolveNs <= 0 {
			t.Errorf("%s: implausible calibration %+v", name, lc)
		}
	}
	if !slices.Equal(progress, [][2]int{{0, 0}, {1, 0}, {0, 8}, {1, 8}}) {
		t.Errorf("progress %v", progress)
	}
	if got := r.Options(); got.ScanConversion.Policy != balancer.Never || got.ZBuffer.Policy != balancer.Never || got.ScanConversion.Lanes != 0 {
		t.Errorf("options not restored: %+v", got)
	}
	if _, err := r.Render(skewed, cam); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Prims(), before) {
		t.Error("the frame after calibrating differs from the one before")
	}
	applied := DefaultOptions()
	cs.Apply(&applied)
	if applied.ScanConversion.CostIterations != cs.ScanConversion.CostIterations || applied.ZBuffer.CostIterations != cs.ZBuffer.CostIterations {
		t.Errorf("Apply: %+v", applied)
	}

	// A scene in which nothing redistributes calibrates nothing, and says so.
	empty, err := mesh.NewGPU(c, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Delete()
	if cs, err := Calibrate(r, []Scene{{empty, cam}}, CalibrateOptions{}); err == nil || cs.ScanConversion.CostIterations != 0 ||
		!strings.Contains(err.Error(), "rasterizer: Calibrate: scan conversion loop: balancer: Calibrator.Estimate") {
		t.Errorf("calibrating on an empty scene: %+v, %v", cs, err)
	}
}

func TestCostsInACalibrationFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cal.json")
	cal, _ := balancer.LoadCalibration(path)
	if cs, err := LoadCosts(cal, "gpu"); err == nil || cs != (Costs{}) {
		t.Fatalf("costs from an empty file: %+v, %v", cs, err)
	}
	cs := Costs{ScanConversion: balancer.LoopCost{CostIterations: 9, Runs: 1}}
	cs.Save(cal, "gpu")
	if err := cal.Save(); err != nil {
		t.Fatal(err)
	}
	back, _ := balancer.LoadCalibration(path)
	got, err := LoadCosts(back, "gpu")
	if got.ScanConversion.CostIterations != 9 || got.ZBuffer.CostIterations != 0 || err == nil || !strings.Contains(err.Error(), `loop "z-buffer"`) {
		t.Fatalf("read back %+v, %v", got, err)
	}
	o := DefaultOptions()
	got.Apply(&o)
	if o.ScanConversion.CostIterations != 9 || o.ZBuffer.CostIterations != PaperZBufferCost {
		t.Fatalf("Apply of a partial calibration: %v %v", o.ScanConversion.CostIterations, o.ZBuffer.CostIterations)
	}
}
