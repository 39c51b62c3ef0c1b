package rasterizer

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/view"
)

// The paper's calibrated overestimates on the CM-5 (§4.1), in iterations of
// each loop's solution phase: what DefaultOptions uses until the loops are
// calibrated on the GPU at hand (Calibrate).
const (
	PaperScanConversionCost = 20
	PaperZBufferCost        = 32
)

// Costs are the calibrated overestimates of the renderer's two loops.
// A loop with CostIterations 0 has none.
type Costs struct {
	ScanConversion, ZBuffer balancer.LoopCost
}

// PaperCosts are the paper's CM-5 costs, as Costs.
func PaperCosts() Costs {
	return Costs{ScanConversion: balancer.LoopCost{CostIterations: PaperScanConversionCost},
		ZBuffer: balancer.LoopCost{CostIterations: PaperZBufferCost}}
}

// Apply sets the loops' CostIterations in o (the loops without a cost keep
// theirs).
func (cs Costs) Apply(o *Options) {
	if cs.ScanConversion.CostIterations > 0 {
		o.ScanConversion.CostIterations = cs.ScanConversion.CostIterations
	}
	if cs.ZBuffer.CostIterations > 0 {
		o.ZBuffer.CostIterations = cs.ZBuffer.CostIterations
	}
}

// LoadCosts returns the costs cal holds for the GL renderer (Caps.Renderer),
// under the loops' names (ScanConversionLoop, ZBufferLoop). A loop without
// one has CostIterations 0, and the error says why.
func LoadCosts(cal *balancer.Calibration, renderer string) (Costs, error) {
	var cs Costs
	var errS, errZ error
	cs.ScanConversion, errS = cal.Lookup(renderer, ScanConversionLoop)
	cs.ZBuffer, errZ = cal.Lookup(renderer, ZBufferLoop)
	return cs, errors.Join(errS, errZ)
}

// Save records the loops that have a cost in cal under the GL renderer's
// name; cal.Save writes the file.
func (cs Costs) Save(cal *balancer.Calibration, renderer string) {
	if cs.ScanConversion.CostIterations > 0 {
		cal.Set(renderer, ScanConversionLoop, cs.ScanConversion)
	}
	if cs.ZBuffer.CostIterations > 0 {
		cal.Set(renderer, ZBufferLoop, cs.ZBuffer)
	}
}

// Scene is one frame a calibration renders: a mesh as a camera sees it.
type Scene struct {
	Mesh   *mesh.GPU
	Camera view.Camera
}

// CalibrateOptions say how Calibrate measures.
type CalibrateOptions struct {
	// Lanes are the Lanes values of both loops to calibrate at; nil means
	// the renderer's own (its scan-conversion loop's).
	Lanes []int
	// Warmup is the number of frames of each scene and Lanes value
	// rendered and not counted before the counted ones (0: one).
	Warmup int
	// Reps is the number of counted frames of each scene and Lanes value,
	// of which the frame of median cost counts, loop by loop (0: three).
	Reps int
	// Margin is the constant added to the largest cost;
	// balancer.DefaultMargin is the usual one, and 0 adds nothing.
	Margin float64
	// Progress, when set, is called after each scene and Lanes value.
	Progress func(scene, lanes int)
}

// Calibrate measures the overestimated cost of both loops the paper's way
// (§2.1, §4.1) on warmed-up frames: each scene is rendered at each Lanes
// value with both loops under balancer.Always (so that they redistribute),
// Warmup frames uncounted and Reps counted; a frame's cost for a loop is
// its longest gathering plus its longest redistribution over its shortest
// solution phase, the frame of median cost counts, and a loop's estimate
// is the largest over scenes and Lanes values plus the margin
// (balancer.Calibrator). Calibrate with the scenes to be rendered, or ones
// like them, and unbalanced ones: a scene in which a loop never
// redistributes tells nothing about that loop's cost.
//
// The renderer's options are restored afterwards. A loop that could not
// be calibrated has CostIterations 0, and the error says why; the other
// loop's cost is returned all the same.
func Calibrate(r *Renderer, scenes []Scene, o CalibrateOptions) (Costs, error) {
	if len(scenes) == 0 {
		panic("rasterizer: Calibrate: no scenes")
	}
	if o.Warmup < 0 || o.Reps < 0 {
		panic(fmt.Sprintf("rasterizer: Calibrate: Warmup %d, Reps %d: want >= 0", o.Warmup, o.Reps))
	}
	for i, sc := range scenes {
		if sc.Mesh == nil {
			panic(fmt.Sprintf("rasterizer: Calibrate: scene %d has no mesh", i))
		}
	}
	warmup, reps := cmp.Or(o.Warmup, 1), cmp.Or(o.Reps, 3)
	saved := r.Options()
	lanes := o.Lanes
	if lanes == nil {
		lanes = []int{saved.ScanConversion.Lanes}
	}
	defer r.SetOptions(saved)
	var cal [2]balancer.Calibrator
	for _, l := range lanes {
		opts := saved
		opts.ScanConversion = balancer.Config{Policy: balancer.Always, Lanes: l, Variant: saved.ScanConversion.Variant, Logf: saved.ScanConversion.Logf}
		opts.ZBuffer = balancer.Config{Policy: balancer.Always, Lanes: l, Variant: saved.ZBuffer.Variant, Logf: saved.ZBuffer.Logf}
		if err := r.SetOptions(opts); err != nil {
			return Costs{}, err
		}
		for i, sc := range scenes {
			var runs [2][]balancer.Stats
			for k := 0; k < warmup+reps; k++ {
				st, err := r.Render(sc.Mesh, sc.Camera)
				if err != nil {
					return Costs{}, fmt.Errorf("rasterizer: Calibrate: scene %d, lanes %d: %w", i, l, err)
				}
				if k >= warmup {
					// The 32-bit scheme's primitive-id pass of the z-buffer
					// loop balances by itself and never gathers: only the
					// paper's loop counts.
					runs[0] = append(runs[0], st.ScanConversion)
					runs[1] = append(runs[1], st.ZBuffer)
				}
			}
			cal[0].AddMedian(runs[0])
			cal[1].AddMedian(runs[1])
			if o.Progress != nil {
				o.Progress(i, l)
			}
		}
	}
	var cs Costs
	var errs [2]error
	out := [2]*balancer.LoopCost{&cs.ScanConversion, &cs.ZBuffer}
	for i, name := range [2]string{ScanConversionLoop, ZBufferLoop} {
		var err error
		if *out[i], err = cal[i].Estimate(o.Margin); err != nil {
			errs[i] = &LoopCalibrationError{Loop: name, Err: err}
		}
	}
	return cs, errors.Join(errs[0], errs[1])
}

// LoopCalibrationError says why Calibrate could not calibrate a loop
// (Loop: ScanConversionLoop or ZBufferLoop). Calibrate's error joins one for
// each such loop (errors.Join).
type LoopCalibrationError struct {
	Loop string
	Err  error
}

func (e *LoopCalibrationError) Error() string {
	return fmt.Sprintf("rasterizer: Calibrate: %s loop: %v", e.Loop, e.Err)
}

func (e *LoopCalibrationError) Unwrap() error { return e.Err }

// LoopErrors returns the error of each loop of Calibrate's error err:
// scan conversion first, nil for a loop that was calibrated.
func LoopErrors(err error) (scanConversion, zBuffer error) {
	var all []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		all = j.Unwrap()
	} else if err != nil {
		all = []error{err}
	}
	for _, e := range all {
		var le *LoopCalibrationError
		switch {
		case !errors.As(e, &le):
			// Not a loop's: a failed frame, which stopped both.
			return err, err
		case le.Loop == ScanConversionLoop:
			scanConversion = le
		case le.Loop == ZBufferLoop:
			zBuffer = le
		}
	}
	return scanConversion, zBuffer
}
