package rasterizer

import (
	"errors"
	"fmt"
	"image"
	"math"
	"time"
	"unsafe"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/scan"
)

// Loop names, the keys of their calibrated costs.
const (
	ScanConversionLoop = "scan conversion"
	ZBufferLoop        = "z-buffer"
)

// Options configure a Renderer.
type Options struct {
	Width, Height int // image size, 1..raster.MaxImageSize
	// ScanConversion and ZBuffer configure the two loops: the balancing
	// policy (balancer.Never is the paper's Figure 1), Lanes and the
	// calibrated cost. Their Name is set by the renderer.
	ScanConversion, ZBuffer balancer.Config
	Material                Material
	// Visibility32 forces the 32-bit two-pass z-buffer even where the
	// driver has 64-bit atomics (for tests and comparisons).
	Visibility32 bool
}

// DefaultOptions renders 512x512, the paper's image size, with the
// cost-effective policy in both loops at the paper's CM-5 costs
// (PaperCosts). Those are a guess on any other machine, a safe one: a cost
// too high only balances less (CostEffective stops gathering once the cost
// exceeds what balancing could save), and one too low is reported once by
// the balancer. Calibrate measures this GPU's costs (LoadCosts finds the
// ones `bench calibrate` saved), and Costs.Apply sets them.
func DefaultOptions() Options {
	return Options{
		Width: 512, Height: 512,
		ScanConversion: balancer.Config{Policy: balancer.CostEffective, CostIterations: PaperScanConversionCost},
		ZBuffer:        balancer.Config{Policy: balancer.CostEffective, CostIterations: PaperZBufferCost},
		Material:       DefaultMaterial,
	}
}

func (o *Options) check() error {
	if o.Width < 1 || o.Height < 1 || o.Width > raster.MaxImageSize || o.Height > raster.MaxImageSize {
		return fmt.Errorf("rasterizer: image size %dx%d: want 1..%d on each side", o.Width, o.Height, raster.MaxImageSize)
	}
	if o.Material.Shading != Smooth && o.Material.Shading != Flat {
		return fmt.Errorf("rasterizer: Material.Shading %d: want Smooth (0) or Flat (1)", int(o.Material.Shading))
	}
	o.ScanConversion.Name = ScanConversionLoop
	o.ZBuffer.Name = ZBufferLoop
	return nil
}

// FrameStats describe one rendered frame.
type FrameStats struct {
	Setup raster.SetupStats
	// Spans is the number of scan-conversion tasks (rows of set-up
	// triangles), which become the z-buffer loop's processors; Pixels the
	// z-buffer loop's tasks.
	Spans, Pixels int64
	// Batches is the number of batches the triangles went through the
	// loops in: 1 unless the mesh, its set-up triangles or its spans
	// exceed a storage block (0 for an empty mesh). With more than one,
	// the loops' statistics below add the batches' runs.
	Batches int
	// The loops' balancer statistics. With the 32-bit visibility scheme the
	// z-buffer's tasks run twice: ZBuffer is the paper's loop (the depth
	// test under the configured policy), ZBufferIDs the pass that then
	// keeps the lowest primitive id at each pixel's depth, run once over all
	// tasks with balancer.Search.
	ScanConversion, ZBuffer, ZBufferIDs balancer.Stats
	Visibility                          string // "64-bit atomicMin" (or its tests' stand-in) or "32-bit: depths, then ids by search"
	// GPU time of each stage (summed over batches) and of the frame, from
	// timestamps; Wall is the host's time for Render, read-backs for the
	// decisions included.
	SetupTime, ScanTime, ZBufferTime, ResolveTime, Total, Wall time.Duration
}

// scanProblem is the scan-conversion loop's problem record (struct
// ScanProblem in shaders/rasterizer/scanconv.comp).
type scanProblem struct {
	Tri      uint32 // set-up triangle
	SpanBase uint32 // its first span
}

// Renderer is the data-parallel polygon renderer of Ortega, Hansen and
// Ahrens on compute shaders: transform and clip, the scan-conversion loop
// (triangles to spans), the z-buffer loop (spans to pixels) into a
// visibility buffer, and a shading pass. See the package documentation.
type Renderer struct {
	c        *gpu.Context
	sc       *scan.Scanner
	opts     Options
	atomic64 bool // the one-pass visibility path is available (driver, or tests' emulation)
	vis64    bool
	emulate  bool // vis64 through zbuffer.comp's stand-in for 64-bit atomicMin

	setup   *setupStage
	resolve *resolveStage
	scanSol *gpu.Program
	zSol    [2]*gpu.Program // pass 1 (or the 64-bit pass), pass 2
	prepare map[string]*gpu.Program

	scanLoop *balancer.Loop[scanProblem]
	zLoop    *balancer.Loop[uint32]

	tris     *gpu.Buffer[gpuTri]
	rows     *gpu.Buffer[uint32] // per set-up triangle: its rows, then (scanned) its first span
	spanBase *gpu.Buffer[uint32]
	spans    *gpu.Buffer[[4]int32]
	depth    *gpu.Buffer[uint32] // 32-bit scheme: depth; 64-bit: the packed buffer's two words a pixel
	prims    *gpu.Buffer[uint32]
	rgba     *gpu.Buffer[uint32]
	// winner is the emulated 64-bit path's per-pixel winning set-up
	// triangle (zbuffer.comp VIS64_EMULATE); nil on the other paths.
	winner *gpu.Buffer[uint32]
	stamps [4]*gpu.Stamp

	// maxSetup and maxSpans bound a batch's set-up triangles (64 bytes
	// each) and spans (16 bytes): what one storage block holds.
	maxSetup, maxSpans int
	// batchTriangles, when positive, caps a batch's triangles (tests).
	batchTriangles int
}

// New makes a renderer on the scanner's context.
func New(s *scan.Scanner, o Options) (r *Renderer, err error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	c := s.Context()
	r = &Renderer{c: c, sc: s, opts: o, prepare: map[string]*gpu.Program{}}
	r.atomic64 = hasAtomic64(c)
	r.vis64 = r.atomic64 && !o.Visibility32
	r.emulate = r.vis64 && !c.Caps().Atomic64
	r.maxSetup = int(min(c.Caps().MaxSSBOSize/int64(unsafe.Sizeof(gpuTri{})), math.MaxInt32))
	r.maxSpans = int(min(c.Caps().MaxSSBOSize/16, math.MaxInt32))
	defer func() {
		if err != nil {
			r.Delete()
			r = nil
		}
	}()
	if r.setup, err = newSetupStage(c); err != nil {
		return nil, err
	}
	if r.resolve, err = newResolveStage(c); err != nil {
		return nil, err
	}
	if r.scanSol, err = c.Program("rasterizer/scanconv.comp", nil); err != nil {
		return nil, err
	}
	vis := map[string]string{"VIS64": "0", "PASS": "1"}
	if r.vis64 {
		vis["VIS64"] = "1"
		if r.emulate {
			vis["VIS64_EMULATE"] = "1"
		}
	}
	if r.zSol[0], err = c.Program("rasterizer/zbuffer.comp", vis); err != nil {
		return nil, err
	}
	if !r.vis64 {
		if r.zSol[1], err = c.Program("rasterizer/zbuffer.comp", map[string]string{"VIS64": "0", "PASS": "2"}); err != nil {
			return nil, err
		}
	}
	for _, step := range []string{"0", "1", "2", "3", "4"} {
		if step == "3" && !r.vis64 || step == "4" && !r.emulate {
			continue
		}
		defs := map[string]string{"STEP": step, "VIS64": "0"}
		if r.vis64 && (step == "2" || step == "3") {
			defs["VIS64"] = "1"
		}
		if r.prepare[step], err = c.Program("rasterizer/prepare.comp", defs); err != nil {
			return nil, err
		}
	}
	if r.scanLoop, err = balancer.NewLoop[scanProblem](s, o.ScanConversion); err != nil {
		return nil, err
	}
	if r.zLoop, err = balancer.NewLoop[uint32](s, o.ZBuffer); err != nil {
		return nil, err
	}
	if err = r.image(); err != nil {
		return nil, err
	}
	for i := range r.stamps {
		r.stamps[i] = c.NewStamp()
	}
	return r, nil
}

// The one-pass visibility path as Stats.Visibility names it: on the
// driver's 64-bit atomicMin, and on the tests' stand-in for it.
const (
	visibility64         = "64-bit atomicMin"
	visibility64Emulated = "64-bit atomicMin, the tests' stand-in"
)

// emulateAtomic64 lets tests run the one-pass 64-bit visibility path on
// drivers without 64-bit atomics, through zbuffer.comp's lock-based
// stand-in for atomicMin (VIS64_EMULATE). Renderers made while it is set
// keep it.
var emulateAtomic64 bool

// hasAtomic64 says whether c runs the 64-bit visibility path.
func hasAtomic64(c *gpu.Context) bool { return c.Caps().Atomic64 || emulateAtomic64 && c.Caps().Int64 }

// image allocates the per-pixel buffers for the options' size.
func (r *Renderer) image() error {
	n := r.opts.Width * r.opts.Height
	r.depth.Delete()
	r.prims.Delete()
	r.rgba.Delete()
	r.winner.Delete()
	r.depth, r.prims, r.rgba, r.winner = nil, nil, nil, nil
	var err error
	words := n
	if r.vis64 {
		words = 2 * n
	}
	if r.depth, err = gpu.NewBuffer[uint32](r.c, words); err != nil {
		return fmt.Errorf("rasterizer: visibility buffer for %dx%d: %w", r.opts.Width, r.opts.Height, err)
	}
	if r.prims, err = gpu.NewBuffer[uint32](r.c, n); err != nil {
		return fmt.Errorf("rasterizer: primitive ids for %dx%d: %w", r.opts.Width, r.opts.Height, err)
	}
	if r.rgba, err = gpu.NewBuffer[uint32](r.c, n); err != nil {
		return fmt.Errorf("rasterizer: image for %dx%d: %w", r.opts.Width, r.opts.Height, err)
	}
	if r.emulate {
		if r.winner, err = gpu.NewBuffer[uint32](r.c, n); err != nil {
			return fmt.Errorf("rasterizer: emulated visibility for %dx%d: %w", r.opts.Width, r.opts.Height, err)
		}
	}
	return nil
}

// Options returns the renderer's options.
func (r *Renderer) Options() Options { return r.opts }

// Visibility64 reports whether the z-buffer uses 64-bit atomics.
func (r *Renderer) Visibility64() bool { return r.vis64 }

// SetOptions changes policies, lanes, costs, material and size for the next
// frames. Changing Visibility32 needs a new Renderer.
func (r *Renderer) SetOptions(o Options) error {
	if err := o.check(); err != nil {
		return err
	}
	if (r.atomic64 && !o.Visibility32) != r.vis64 {
		return errors.New("rasterizer: SetOptions cannot change Visibility32; make a new Renderer")
	}
	resize := o.Width != r.opts.Width || o.Height != r.opts.Height
	r.opts = o
	if err := r.scanLoop.SetConfig(o.ScanConversion); err != nil {
		return err
	}
	if err := r.zLoop.SetConfig(o.ZBuffer); err != nil {
		return err
	}
	if resize {
		return r.image()
	}
	return nil
}

// Delete frees every GPU object of the renderer (not the scanner).
func (r *Renderer) Delete() {
	if r.setup != nil {
		r.setup.delete()
	}
	if r.scanLoop != nil {
		r.scanLoop.Delete()
	}
	if r.zLoop != nil {
		r.zLoop.Delete()
	}
	r.tris.Delete()
	r.rows.Delete()
	r.spanBase.Delete()
	r.spans.Delete()
	r.depth.Delete()
	r.prims.Delete()
	r.rgba.Delete()
	r.winner.Delete()
	for _, s := range r.stamps {
		s.Delete()
	}
}

// grow makes *b hold at least n elements (1 at least, so it can be bound),
// with a quarter to spare so that frames of similar size do not
// reallocate, as far as a storage block allows.
func grow[T any](c *gpu.Context, b **gpu.Buffer[T], n int, what string) error {
	if *b != nil && (*b).Len() >= max(n, 1) {
		return nil
	}
	(*b).Delete()
	*b = nil
	most := int(min(c.Caps().MaxSSBOSize/int64(unsafe.Sizeof(*new(T))), math.MaxInt32))
	nb, err := gpu.NewBuffer[T](c, max(min(n+n/4, most), n, 1))
	if err != nil {
		return fmt.Errorf("rasterizer: %s (%d): %w", what, n, err)
	}
	*b = nb
	return nil
}

// run1D dispatches a prepare step over n elements (on the GL thread).
func (r *Renderer) run1D(step string, n int) {
	p := r.prepare[step]
	p.SetUint("n", uint32(n))
	p.DispatchInvocations(n)
	r.c.Barrier(gpu.BarrierStorage)
}

// Render draws the triangles of m (every block of the chain; a nil mesh
// is an error) as the camera sees them. The image and primitive ids stay
// on the GPU until Image or Prims reads them. Triangles that are outside
// the view, of zero area or not finite are counted in FrameStats.Setup and
// not drawn; a camera matrix that is not finite, or a mesh whose triangles
// are all non-finite, is an error rather than a blank frame.
//
// Triangles go through the stages in batches whose set-up triangles and
// spans each fit one storage block: usually one batch, the whole mesh; more
// for a mesh larger than one block or one whose spans overflow. Every batch
// draws into the same visibility buffer with global primitive ids, and the
// visibility rules keep the nearest surface with ties to the lowest id
// whatever the order of the tests, so the image is the one an unbatched
// render would draw, bit for bit.
func (r *Renderer) Render(m *mesh.GPU, cam view.Camera) (FrameStats, error) {
	var st FrameStats
	if m == nil {
		return st, errors.New("rasterizer: Render: the mesh is nil (an empty mesh is mesh.NewGPU(c, 0))")
	}
	start := time.Now()
	w, h := r.opts.Width, r.opts.Height
	mvp := cam.MVP()
	for i, v := range mvp {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return st, fmt.Errorf("rasterizer: the camera's matrix (projection × view) has %v in column %d, row %d: nothing can be drawn with it (was it fitted to coordinates beyond float32's range?)", v, i/4, i%4)
		}
	}
	blocks := m.Blocks()
	total := int64(m.Len())
	if total >= int64(raster.NoPrimitive) {
		return st, fmt.Errorf("rasterizer: %d triangles: primitive ids are 32-bit, with %#x meaning none", total, raster.NoPrimitive)
	}
	if r.vis64 && !r.c.Caps().Atomic64 {
		st.Visibility = visibility64Emulated
	} else if r.vis64 {
		st.Visibility = visibility64
	} else {
		st.Visibility = "32-bit: depths, then ids by search"
	}
	f := frame{r: r, st: &st, batch: r.batchTriangles, mvp: mvp}
	base := 0
	for _, b := range blocks {
		for first := 0; first < b.N; {
			n, err := f.draw(b, first, base)
			if err != nil {
				return st, err
			}
			first += n
		}
		base += b.N
	}
	if st.Setup.Input > 0 && st.Setup.NonFinite == st.Setup.Input {
		return st, fmt.Errorf("rasterizer: nothing drawn: all %d triangles have NaN or infinite coordinates after the camera transform", st.Setup.Input)
	}

	// Without a batch that reached the z-buffer (an empty or invisible
	// mesh), the visibility buffer is cleared here; then the 64-bit path's
	// ids are extracted and every pixel shaded.
	r.c.Do(func() { r.stamps[0].Record() })
	if !f.cleared {
		f.clear()
	}
	if r.vis64 {
		r.c.Do(func() {
			r.c.BindStorage(0, r.depth)
			r.c.BindStorage(1, r.prims)
			r.run1D("3", w*h)
		})
	}
	r.c.Do(func() { r.stamps[1].Record() })
	r.c.Do(func() {
		r.resolve.run(blocks, r.prims, r.rgba, cam, r.opts.Material, w, h)
		r.stamps[2].Record()
	})
	t0, t1, t2 := r.stamps[0].Nanos(), r.stamps[1].Nanos(), r.stamps[2].Nanos()
	st.ZBufferTime += time.Duration(t1 - t0)
	st.ResolveTime = time.Duration(t2 - t1)
	st.Total = st.SetupTime + st.ScanTime + st.ZBufferTime + st.ResolveTime
	st.Wall = time.Since(start)
	return st, nil
}

// frame is the state of one Render across its batches.
type frame struct {
	r       *Renderer
	st      *FrameStats
	cleared bool // the visibility buffer is cleared for this frame
	batch   int  // triangles to try in the next batch
	mvp     [16]float32
}

// clear resets the visibility buffer (on the calling goroutine, outside Do).
func (f *frame) clear() {
	r := f.r
	r.c.Do(func() {
		r.c.BindStorage(0, r.depth)
		r.c.BindStorage(1, r.prims)
		r.run1D("2", r.opts.Width*r.opts.Height)
	})
	if r.winner != nil {
		r.winner.Fill(raster.NoPrimitive)
	}
	f.cleared = true
}

// draw runs one batch, triangles [first, first+n) of block b whose first
// triangle has primitive id base, through setup, the scan-conversion loop
// and the z-buffer loop, for the largest n (up to f.batch) whose set-up
// triangles and spans fit their storage blocks, and returns n.
func (f *frame) draw(b *mesh.GPU, first, base int) (int, error) {
	r, st := f.r, f.st
	w, h := r.opts.Width, r.opts.Height
	mvp := f.mvp
	n := b.N - first
	if f.batch > 0 {
		n = min(n, f.batch)
	}
	sb := &setupBatch{pos: b.Positions.Slice(0, 3*b.N), first: first, primBase: uint32(base + first), mvp: &mvp, width: w, height: h}
	var total, spans int
	var setupStats raster.SetupStats
	for {
		r.c.Do(func() { r.stamps[0].Record() })
		sb.n = n
		// Transform, clip and set up: count, scan the counts, emit.
		if err := r.setup.countPass(sb); err != nil {
			return 0, err
		}
		counts := r.setup.counts.Slice(0, n)
		total = int(scan.Reduce(r.sc, counts, scan.Add))
		if total > r.maxSetup {
			n = f.shrink(n, total, r.maxSetup)
			continue
		}
		scan.ExclusiveScan(r.sc, counts, counts, scan.Add, 0)
		if err := grow(r.c, &r.tris, total, "set-up triangles"); err != nil {
			return 0, err
		}
		if err := grow(r.c, &r.rows, total, "triangle rows"); err != nil {
			return 0, err
		}
		r.setup.emitPass(sb, r.tris, r.rows)
		setupStats = r.setup.readStats(n, total)
		spans = 0
		if total > 0 {
			spans = int(scan.Reduce(r.sc, r.rows.Slice(0, total), scan.Add))
		}
		if spans > r.maxSpans {
			n = f.shrink(n, spans, r.maxSpans)
			continue
		}
		break
	}
	st.Setup = addSetupStats(st.Setup, setupStats)
	st.Spans += int64(spans)
	st.Batches++
	r.c.Do(func() { r.stamps[1].Record() })

	// The scan-conversion loop: one processor a set-up triangle, one task a
	// row; each triangle's spans go to its own place.
	if total > 0 {
		rows := r.rows.Slice(0, total)
		if err := grow(r.c, &r.spanBase, total, "span offsets"); err != nil {
			return 0, err
		}
		scan.ExclusiveScan(r.sc, r.spanBase.Slice(0, total), rows, scan.Add, 0)
		if err := grow(r.c, &r.spans, spans, "spans"); err != nil {
			return 0, err
		}
		if err := r.scanLoop.Resize(total); err != nil {
			return 0, err
		}
		r.c.Do(func() {
			r.c.BindStorage(0, rows)
			r.c.BindStorage(1, r.spanBase)
			r.c.BindStorage(2, r.scanLoop.Workload())
			r.c.BindStorage(3, r.scanLoop.ParallelIndex())
			r.c.BindStorage(4, r.scanLoop.Problem())
			r.run1D("0", total)
		})
		sc, err := r.scanLoop.Run(balancer.SolutionFunc(func(it *balancer.Iteration) {
			r.c.BindStorage(3, r.tris)
			r.c.BindStorage(4, r.spans)
			r.scanSol.SetInt("width", int32(w))
			it.Dispatch(r.scanSol)
		}))
		if err != nil {
			return 0, err
		}
		addLoopStats(&st.ScanConversion, sc)
	}
	r.c.Do(func() { r.stamps[2].Record() })

	// The z-buffer loop: one processor a span, one task a pixel.
	if spans > 0 {
		if !f.cleared {
			f.clear()
		}
		if err := r.loadSpans(spans); err != nil {
			return 0, err
		}
		st.Pixels += int64(scan.Reduce(r.sc, r.zLoop.Workload(), scan.Add))
		zs, err := r.zLoop.Run(r.zSolution(r.zSol[0], st.Batches > 1))
		if err != nil {
			return 0, err
		}
		addLoopStats(&st.ZBuffer, zs)
		if r.winner != nil {
			r.c.Do(func() {
				r.c.BindStorage(0, r.depth)
				r.c.BindStorage(1, r.winner)
				r.c.BindStorage(2, r.tris)
				r.prepare["4"].SetInt("width", int32(w))
				r.run1D("4", w*h)
			})
		}
		if !r.vis64 {
			// The primitive-id pass is not the paper's loop but the price of
			// lacking 64-bit atomics: it runs once over every (span, pixel)
			// task with the load-balancing search, one invocation a task.
			if err := r.loadSpans(spans); err != nil {
				return 0, err
			}
			cfg := r.opts.ZBuffer
			cfg.Policy, cfg.Strategy, cfg.Lanes = balancer.Never, balancer.Search, 0
			if err := r.zLoop.SetConfig(cfg); err != nil {
				return 0, err
			}
			ids, err := r.zLoop.Run(r.zSolution(r.zSol[1], false))
			if serr := r.zLoop.SetConfig(r.opts.ZBuffer); err == nil {
				err = serr
			}
			if err != nil {
				return 0, err
			}
			addLoopStats(&st.ZBufferIDs, ids)
		}
	}
	r.c.Do(func() { r.stamps[3].Record() })
	var t [4]uint64
	for i := range t {
		t[i] = r.stamps[i].Nanos()
	}
	st.SetupTime += time.Duration(t[1] - t[0])
	st.ScanTime += time.Duration(t[2] - t[1])
	st.ZBufferTime += time.Duration(t[3] - t[2])
	return n, nil
}

// shrink returns the batch size to try, and to start the next batches
// with, after n triangles made got of something that holds at most limit:
// in proportion, with a tenth to spare, and at least halved so that the
// search ends.
func (f *frame) shrink(n, got, limit int) int {
	if n <= 1 {
		// One triangle makes at most 7 set-up triangles of at most
		// MaxImageSize rows each: far below any storage block.
		panic(fmt.Sprintf("rasterizer: one triangle made %d of a limit of %d", got, limit))
	}
	f.batch = max(1, min(n/2, int(float64(n)*float64(limit)/float64(got)*0.9)))
	return f.batch
}

// addSetupStats sums two batches' setup statistics.
func addSetupStats(a, b raster.SetupStats) raster.SetupStats {
	return raster.SetupStats{
		Input: a.Input + b.Input, Outside: a.Outside + b.Outside, Clipped: a.Clipped + b.Clipped,
		NonFinite: a.NonFinite + b.NonFinite, ZeroArea: a.ZeroArea + b.ZeroArea, Output: a.Output + b.Output,
	}
}

// addLoopStats folds one batch's run of a loop into the frame's: the
// first batch's stats as they are (so an unbatched frame reports exactly
// its loop's run), later ones' counts, times and tasks added, their
// maxima kept.
func addLoopStats(dst *balancer.Stats, src balancer.Stats) {
	if dst.Name == "" {
		*dst = src
		return
	}
	dst.Processors += src.Processors
	dst.Start.Processors += src.Start.Processors
	dst.Start.NumIdle += src.Start.NumIdle
	dst.Start.SumWorkload += src.Start.SumWorkload
	dst.Start.MaxWorkload = max(dst.Start.MaxWorkload, src.Start.MaxWorkload)
	dst.Iterations += src.Iterations
	dst.Balances += src.Balances
	dst.Gathers += src.Gathers
	dst.Counts += src.Counts
	dst.Savings += src.Savings
	for _, p := range [][2]*balancer.PhaseTimes{{&dst.Count, &src.Count}, {&dst.Gather, &src.Gather}, {&dst.Redistribute, &src.Redistribute}, {&dst.Solve, &src.Solve}, {&dst.Schedule, &src.Schedule}} {
		p[0].Merge(*p[1])
	}
	dst.Tasks += src.Tasks
	dst.CriticalPath += src.CriticalPath
	if src.MaxCost > dst.MaxCost {
		dst.MaxCost, dst.MaxCostAt = src.MaxCost, src.MaxCostAt
	}
	dst.Time += src.Time
	dst.Wall += src.Wall
}

// zSolution binds the z-buffer kernel prog's buffers and dispatches it;
// laterBatch tells the 32-bit depth pass that earlier batches left ids.
func (r *Renderer) zSolution(prog *gpu.Program, laterBatch bool) balancer.Solution {
	return balancer.SolutionFunc(func(it *balancer.Iteration) {
		r.c.BindStorage(3, r.spans)
		r.c.BindStorage(4, r.tris)
		r.c.BindStorage(5, r.depth)
		r.c.BindStorage(6, r.prims)
		if r.winner != nil {
			r.c.BindStorage(7, r.winner)
		}
		prog.SetInt("width", int32(r.opts.Width))
		if !r.vis64 && prog == r.zSol[0] {
			later := int32(0)
			if laterBatch {
				later = 1
			}
			prog.SetInt("laterBatch", later)
		}
		it.Dispatch(prog)
	})
}

// loadSpans loads the z-buffer loop with the spans: one processor a span,
// its length as the workload.
func (r *Renderer) loadSpans(spans int) error {
	if err := r.zLoop.Resize(spans); err != nil {
		return err
	}
	r.c.Do(func() {
		r.c.BindStorage(0, r.spans.Slice(0, spans))
		r.c.BindStorage(2, r.zLoop.Workload())
		r.c.BindStorage(3, r.zLoop.ParallelIndex())
		r.c.BindStorage(4, r.zLoop.Problem())
		r.run1D("1", spans)
	})
	return nil
}

// Image reads the last frame's image.
func (r *Renderer) Image() *image.RGBA {
	return ToImage(r.rgba.Download(), r.opts.Width, r.opts.Height)
}

// Prims reads the last frame's primitive id per pixel, bottom row first
// (raster.NoPrimitive where nothing is drawn).
func (r *Renderer) Prims() []uint32 { return r.prims.Download() }

// Pixels reads the last frame's packed RGBA8 pixels, bottom row first.
func (r *Renderer) Pixels() []uint32 { return r.rgba.Download() }
