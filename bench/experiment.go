package main

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/dataset"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/scan"
)

// The two polygon sets, in the order the paper's tables take them.
const (
	unbalancedSet = 0
	balancedSet   = 1
)

var setNames = [2]string{"unbalanced", "balanced"}

// experiment is a dataset on the GPU and a renderer for it: what paper,
// render and calibrate share.
type experiment struct {
	c    *gpu.Context
	sc   *scan.Scanner
	r    *rasterizer.Renderer
	pair *dataset.Pair
	sets [2]*mesh.GPU
	w, h int

	buildTime time.Duration
	warnings  *warningLog
}

// warningLog collects the balancer's warnings (each once) to print after
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

// newExperiment builds the dataset the flags name and uploads both sets.
func newExperiment(c *gpu.Context, f *expFlags) (e *experiment, err error) {
	e = &experiment{c: c, w: f.width, h: f.height, warnings: &warningLog{}}
	defer func() {
		if err != nil {
			e.delete()
			e = nil
		}
	}()
	start := time.Now()
	pr := newProgress("dataset", 1)
	pr.show("sampling the volume, marching cubes, decimation")
	e.pair, err = f.makeDataset()
	pr.clear()
	if err != nil {
		return e, err
	}
	e.buildTime = time.Since(start)
	for i, m := range []*mesh.Mesh{e.pair.Unbalanced, e.pair.Balanced} {
		if e.sets[i], err = mesh.Upload(c, m); err != nil {
			return e, err
		}
	}
	if e.sc, err = scan.New(c); err != nil {
		return e, err
	}
	o := rasterizer.DefaultOptions()
	o.Width, o.Height = e.w, e.h
	if f.flat {
		o.Material.Shading = rasterizer.Flat
	}
	o.ScanConversion.Logf, o.ZBuffer.Logf = e.warnings.logf, e.warnings.logf
	// A cost is set so that the renderer does not warn of a missing one
	// before the experiment sets the calibrated costs.
	o.ScanConversion.CostIterations, o.ZBuffer.CostIterations = balancer.DefaultCostIterations, balancer.DefaultCostIterations
	if e.r, err = rasterizer.New(e.sc, o); err != nil {
		return e, err
	}
	return e, nil
}

func (e *experiment) delete() {
	if e.r != nil {
		e.r.Delete()
	}
	if e.sc != nil {
		e.sc.Delete()
	}
	for _, s := range e.sets {
		if s != nil {
			s.Delete()
		}
	}
}

// describe is the dataset in one line.
func (e *experiment) describe() string {
	if e.pair.Volume == nil {
		return fmt.Sprintf("mesh %s: balanced = the mesh, %d triangles; unbalanced = quadric decimation, %d triangles (built in %s)",
			e.pair.Name, e.pair.Balanced.Len(), e.pair.Unbalanced.Len(), fmtDur(e.buildTime))
	}
	d := fmt.Sprintf("%s at isovalue %g: balanced = marching cubes, %d triangles; unbalanced = quadric decimation, %d triangles (built in %s)",
		e.pair.Name, e.pair.Iso, e.pair.Balanced.Len(), e.pair.Unbalanced.Len(), fmtDur(e.buildTime))
	if x := e.pair.Extraction; x.NonFinite > 0 {
		d += fmt.Sprintf("; %d of its %d cells have a NaN or infinite corner and make no triangles", x.NonFinite, x.Cells)
	}
	return d
}

// costs are the overestimated costs of the two loops, in iterations.
type costs struct {
	Scan, Z float64
}

// configure sets the policy (both loops), lanes and costs for the next
// frames.
func (e *experiment) configure(p balancer.Policy, lanes int, cost costs) error {
	o := e.r.Options()
	o.ScanConversion = balancer.Config{Policy: p, Lanes: lanes, CostIterations: cost.Scan, Logf: e.warnings.logf}
	o.ZBuffer = balancer.Config{Policy: p, Lanes: lanes, CostIterations: cost.Z, Logf: e.warnings.logf}
	return e.r.SetOptions(o)
}

// warmUp renders untimed frames so that the kernels are compiled before
// anything is timed: llvmpipe compiles a kernel at its first dispatch,
// which takes up to seconds. Always on the unbalanced set redistributes, so
// the redistribution's kernels are among them.
func (e *experiment) warmUp(v view.View, lanes int, cost costs) error {
	for _, wu := range []struct {
		pol balancer.Policy
		set int
	}{{balancer.Always, unbalancedSet}, {balancer.Never, balancedSet}, {balancer.Bounded, balancedSet}} {
		if err := e.configure(wu.pol, lanes, cost); err != nil {
			return err
		}
		if _, err := e.render(wu.set, v); err != nil {
			return err
		}
	}
	return nil
}

func (e *experiment) camera(v view.View) view.Camera { return e.pair.Camera(v, e.w, e.h) }

// render draws one frame of a set.
func (e *experiment) render(set int, v view.View) (rasterizer.FrameStats, error) {
	st, err := e.r.Render(e.sets[set], e.camera(v))
	if err != nil {
		return st, fmt.Errorf("bench: rendering the %s set at %s: %w", setNames[set], v.Name, err)
	}
	return st, nil
}

// loopRun is one loop's statistics over the timed repetitions of a frame:
// the counts of the first repetition (they are the same in every one) and
// the phase times of all of them. The z-buffer loop of the 32-bit
// visibility scheme runs twice a frame over the same spans (depth, then
// primitive ids): the counts are the first pass's, Passes is 2, and the
// phase times are both passes'.
type loopRun struct {
	balancer.Stats
	Passes int
}

// merge adds run b of the same loop to a; secondPass says b is the
// first repetition's second pass.
func (a *loopRun) merge(b balancer.Stats, secondPass bool) {
	if a.Passes == 0 {
		a.Stats, a.Passes = b, 1
		// a's samples grow by appending: they must not share b's arrays.
		for _, t := range []*balancer.PhaseTimes{&a.Count, &a.Gather, &a.Redistribute, &a.Solve} {
			t.All = slices.Clone(t.All)
		}
		return
	}
	if secondPass {
		a.Passes++
	}
	for _, pt := range []struct{ dst, src *balancer.PhaseTimes }{
		{&a.Count, &b.Count}, {&a.Gather, &b.Gather}, {&a.Redistribute, &b.Redistribute}, {&a.Solve, &b.Solve}} {
		pt.dst.Merge(*pt.src)
	}
	if b.MaxCost > a.MaxCost {
		a.MaxCost, a.MaxCostAt = b.MaxCost, b.MaxCostAt
	}
}

// frameResult is one set at one view under one policy and Lanes value,
// repeated.
type frameResult struct {
	Set    int
	View   view.View
	Policy balancer.Policy
	Lanes  int // requested; 0 = one per processor

	Time     Stats // the frame's GPU time (timestamps) and wall time
	Scan, Z  loopRun
	Stages   [4]time.Duration // setup, scan conversion, z-buffer, shading: the median repetition's
	Same     bool             // image and primitive ids equal the first policy's at this set and view
	Differ   int              // pixels that differ when not Same
	Pixels   int64            // the z-buffer loop's tasks
	Spans    int64            // the scan-conversion loop's tasks
	Setup    raster.SetupStats
	Captured bool // pixels were read back and compared
}

// frameAcc gathers the repetitions of one configuration.
type frameAcc struct {
	fr         frameResult
	gpu, walls []time.Duration
	all        []rasterizer.FrameStats
}

func newFrameAcc(set int, v view.View, pol balancer.Policy, lanes int) *frameAcc {
	return &frameAcc{fr: frameResult{Set: set, View: v, Policy: pol, Lanes: lanes}}
}

func (a *frameAcc) add(st rasterizer.FrameStats) {
	first := len(a.all) == 0
	a.all = append(a.all, st)
	a.gpu = append(a.gpu, st.Total)
	a.walls = append(a.walls, st.Wall)
	a.fr.Scan.merge(st.ScanConversion, false)
	a.fr.Z.merge(st.ZBuffer, false)
	if st.ZBufferIDs.Processors > 0 {
		a.fr.Z.merge(st.ZBufferIDs, first)
	}
}

// result summarizes the repetitions: median and spread of the frame time,
// the stages of the median repetition.
func (a *frameAcc) result() frameResult {
	fr := a.fr
	fr.Time = summarize(slices.Clone(a.gpu), slices.Clone(a.walls))
	idx := make([]int, len(a.all))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(x, y int) bool { return a.gpu[idx[x]] < a.gpu[idx[y]] })
	m := a.all[idx[len(idx)/2]]
	fr.Stages = [4]time.Duration{m.SetupTime, m.ScanTime, m.ZBufferTime, m.ResolveTime}
	fr.Pixels, fr.Spans, fr.Setup = m.Pixels, m.Spans, m.Setup
	return fr
}

// measure renders a set at a view under each policy, warm+reps times,
// with the policies taking turns within each repetition so that a burst
// of load on the machine falls on all of them alike. After each policy's
// last repetition, its image is compared (ic may be nil).
func (e *experiment) measure(set int, v view.View, lanes int, policies []balancer.Policy, cost costs, warm, reps int, ic *imageCheck) ([]frameResult, error) {
	accs := make([]*frameAcc, len(policies))
	for i, pol := range policies {
		accs[i] = newFrameAcc(set, v, pol, lanes)
	}
	for k := 0; k < warm+reps; k++ {
		for i, pol := range policies {
			if err := e.configure(pol, lanes, cost); err != nil {
				return nil, err
			}
			st, err := e.render(set, v)
			if err != nil {
				return nil, err
			}
			if k < warm {
				continue
			}
			accs[i].add(st)
			if k == warm+reps-1 && ic != nil {
				ic.compare(e, &accs[i].fr)
			}
		}
	}
	out := make([]frameResult, len(policies))
	for i, a := range accs {
		out[i] = a.result()
	}
	return out, nil
}

// imageCheck compares every frame of a set at a view with the first one.
type imageCheck struct {
	ref map[[2]string]imageRef
}

type imageRef struct {
	pixels, prims []uint32
	label         string
}

// compare reads the renderer's image and primitive ids and compares them
// with the first frame's of the same set and view; the first frame's are
// kept (returned as first).
func (ic *imageCheck) compare(e *experiment, fr *frameResult) (first bool) {
	if ic.ref == nil {
		ic.ref = map[[2]string]imageRef{}
	}
	key := [2]string{setNames[fr.Set], fr.View.Name}
	pix, prims := e.r.Pixels(), e.r.Prims()
	fr.Captured = true
	ref, ok := ic.ref[key]
	if !ok {
		ic.ref[key] = imageRef{pix, prims, fmt.Sprintf("%v lanes %s", fr.Policy, lanesLabel(fr.Lanes))}
		fr.Same = true
		return true
	}
	fr.Differ = countDiffer(pix, prims, ref.pixels, ref.prims)
	fr.Same = fr.Differ == 0
	return false
}

// countDiffer counts the pixels whose colour or primitive id differ.
func countDiffer(pix, prims, refPix, refPrims []uint32) int {
	if len(pix) != len(refPix) || len(prims) != len(refPrims) || len(pix) != len(prims) {
		return max(len(pix), len(refPix))
	}
	n := 0
	for i := range pix {
		if pix[i] != refPix[i] || prims[i] != refPrims[i] {
			n++
		}
	}
	return n
}

// pixels returns the kept image of a set at a view (bottom row first).
func (ic *imageCheck) pixels(set int, v string) []uint32 {
	return ic.ref[[2]string{setNames[set], v}].pixels
}

// lanesRan says what Lanes each loop ran with when the balancer raised the
// requested value (software renderers), or "".
func lanesRan(fr *frameResult) string {
	if fr.Lanes == 0 {
		return ""
	}
	var parts []string
	for _, l := range []struct {
		name string
		st   *loopRun
	}{{"scan", &fr.Scan}, {"z", &fr.Z}} {
		want := min(fr.Lanes, max(l.st.Processors, 1))
		if l.st.Processors > 0 && l.st.Lanes != want {
			parts = append(parts, fmt.Sprintf("%s %d", l.name, l.st.Lanes))
		}
	}
	return strings.Join(parts, ", ")
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
