package experiment

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/dataset"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/scan"
)

// The two polygon sets, in the order the paper's tables take them.
const (
	Unbalanced = 0
	Balanced   = 1
)

// SetNames names the sets by their index.
var SetNames = [2]string{"unbalanced", "balanced"}

// Options say how an Experiment renders.
type Options struct {
	Width, Height int
	// Flat shades with one normal per triangle instead of the surface's
	// vertex normals.
	Flat bool
	// BuildTime is how long the dataset took to make (Describe says it).
	BuildTime time.Duration
	// Lockstep runs every iteration of the loops' solution phase as its
	// own dispatch (balancer.Config.Batch 1), one global step as on the
	// paper's SIMD machine, where an iteration costs the same however few
	// processors are busy. Batched (false), iterations the policy decides
	// nothing between run several to a dispatch, and a lane that is done
	// no longer waits for the slowest processor outside its work group:
	// Never gains most from that, so LB's speedups over OR shrink although
	// the iterations, balances and images are the same.
	Lockstep bool
}

// Experiment is a dataset on the GPU and a renderer for it: what the
// paper's run, bench render and bench calibrate share.
type Experiment struct {
	Context  *gpu.Context
	Renderer *rasterizer.Renderer
	Pair     *dataset.Pair
	Sets     [2]*mesh.GPU // by Unbalanced, Balanced
	Width    int
	Height   int
	Options  Options

	sc       *scan.Scanner
	warnings *warningLog
}

// warningLog collects the balancer's warnings (each once) to report after
// the tables instead of between progress lines.
type warningLog struct {
	mu   sync.Mutex
	msgs []string
}

func (l *warningLog) logf(format string, a ...any) {
	m := fmt.Sprintf(format, a...)
	l.mu.Lock()
	defer l.mu.Unlock()
	if !slices.Contains(l.msgs, m) {
		l.msgs = append(l.msgs, m)
	}
}

func (l *warningLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.msgs)
}

// New uploads both sets of pair and makes a renderer for them. The caller
// deletes the Experiment; on an error New has freed what it made.
func New(c *gpu.Context, pair *dataset.Pair, o Options) (e *Experiment, err error) {
	e = &Experiment{Context: c, Pair: pair, Width: o.Width, Height: o.Height, Options: o, warnings: &warningLog{}}
	defer func() {
		if err != nil {
			e.Delete()
			e = nil
		}
	}()
	for i, m := range []*mesh.Mesh{pair.Unbalanced, pair.Balanced} {
		if e.Sets[i], err = mesh.Upload(c, m); err != nil {
			return e, err
		}
	}
	if e.sc, err = scan.New(c); err != nil {
		return e, err
	}
	ro := rasterizer.DefaultOptions()
	ro.Width, ro.Height = e.Width, e.Height
	if o.Flat {
		ro.Material.Shading = rasterizer.Flat
	}
	ro.ScanConversion.Logf, ro.ZBuffer.Logf = e.warnings.logf, e.warnings.logf
	// A cost is set so that the renderer does not warn of a missing one
	// before the experiment sets the calibrated costs.
	ro.ScanConversion.CostIterations, ro.ZBuffer.CostIterations = balancer.DefaultCostIterations, balancer.DefaultCostIterations
	if e.Renderer, err = rasterizer.New(e.sc, ro); err != nil {
		return e, err
	}
	return e, nil
}

// Delete frees the renderer and the uploaded sets.
func (e *Experiment) Delete() {
	if e.Renderer != nil {
		e.Renderer.Delete()
	}
	if e.sc != nil {
		e.sc.Delete()
	}
	for _, s := range e.Sets {
		if s != nil {
			s.Delete()
		}
	}
}

// Warnings are the balancer's warnings so far, each once.
func (e *Experiment) Warnings() []string { return e.warnings.list() }

// Describe is the dataset in one line.
func (e *Experiment) Describe() string {
	p := e.Pair
	if p.Volume == nil {
		return fmt.Sprintf("mesh %s: balanced = the mesh, %d triangles; unbalanced = quadric decimation, %d triangles (built in %s)",
			p.Name, p.Balanced.Len(), p.Unbalanced.Len(), FmtDur(e.Options.BuildTime))
	}
	d := fmt.Sprintf("%s at isovalue %g: balanced = marching cubes, %d triangles; unbalanced = quadric decimation, %d triangles (built in %s)",
		p.Name, p.Iso, p.Balanced.Len(), p.Unbalanced.Len(), FmtDur(e.Options.BuildTime))
	if x := p.Extraction; x.NonFinite > 0 {
		d += fmt.Sprintf("; %d of its %d cells have a NaN or infinite corner and make no triangles", x.NonFinite, x.Cells)
	}
	return d
}

// Costs are the overestimated costs of the two loops, in iterations.
type Costs struct {
	Scan, Z float64
}

// Configure sets the policy (both loops), lanes and costs for the next
// frames.
func (e *Experiment) Configure(p balancer.Policy, lanes int, cost Costs) error {
	o := e.Renderer.Options()
	batch := 0 // the balancer's default: batched where the policy allows
	if e.Options.Lockstep {
		batch = 1
	}
	o.ScanConversion = balancer.Config{Policy: p, Lanes: lanes, CostIterations: cost.Scan, Batch: batch, Logf: e.warnings.logf}
	o.ZBuffer = balancer.Config{Policy: p, Lanes: lanes, CostIterations: cost.Z, Batch: batch, Logf: e.warnings.logf}
	return e.Renderer.SetOptions(o)
}

// WarmUp renders untimed frames so that the kernels are compiled before
// anything is timed: llvmpipe compiles a kernel at its first dispatch,
// which takes up to seconds. Always on the unbalanced set redistributes, so
// the redistribution's kernels are among them.
func (e *Experiment) WarmUp(v view.View, lanes int, cost Costs) error {
	for _, wu := range []struct {
		pol balancer.Policy
		set int
	}{{balancer.Always, Unbalanced}, {balancer.Never, Balanced}, {balancer.Bounded, Balanced}} {
		if err := e.Configure(wu.pol, lanes, cost); err != nil {
			return err
		}
		if _, err := e.Render(wu.set, v); err != nil {
			return err
		}
	}
	return nil
}

// Camera is the camera of a view, fitted to the balanced set.
func (e *Experiment) Camera(v view.View) view.Camera { return e.Pair.Camera(v, e.Width, e.Height) }

// Render draws one frame of a set.
func (e *Experiment) Render(set int, v view.View) (rasterizer.FrameStats, error) {
	st, err := e.Renderer.Render(e.Sets[set], e.Camera(v))
	if err != nil {
		return st, fmt.Errorf("bench: rendering the %s set at %s: %w", SetNames[set], v.Name, err)
	}
	return st, nil
}
