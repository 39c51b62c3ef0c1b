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
	"github.com/dpgl/dpgl/rasterizer/raster"
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
	// Tiled draws with the tiled rasterizer (tiled.go) in place of the two
	// loops, which it leaves unused: the same image, bit for bit, faster.
	Tiled bool
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
	// The loops' balancer statistics: ZBuffer is the paper's loop (the
	// depth test under the configured policy). Only on the 32-bit path's
	// fallback (a batch whose tests' keys outgrow a storage block) do the
	// z-buffer's tasks run twice: ZBufferIDs is then the pass that keeps
	// the lowest primitive id at each pixel's depth, run once over all
	// tasks with balancer.Search.
	ScanConversion, ZBuffer, ZBufferIDs balancer.Stats
	Visibility                          string // "64-bit atomicMin" (or its tests' stand-in), "32-bit: the nearest tests' keys by compare-and-swap" or its fallback "32-bit: depths, then ids by search"
	// Stages is the GPU time of each stage, summed over the batches, from a
	// pair of timestamps each.
	Stages StageTimes
	// The stages' times in four groups (setup: StageTransformClip and
	// StageSetup; scan conversion: StageScanPrepare and StageScanLoop;
	// z-buffer: StageZPrepare to StageExtract; resolve), and Total, the
	// frame's, their sum. Wall is the host's time for Render, read-backs
	// for the decisions included.
	SetupTime, ScanTime, ZBufferTime, ResolveTime, Total, Wall time.Duration
}

// Renderer is the data-parallel polygon renderer of Ortega, Hansen and
// Ahrens on compute shaders: transform and clip, the scan-conversion loop
// (triangles to spans), the z-buffer loop (spans to pixels) into a
// visibility buffer, and a shading pass. See the package documentation.
type Renderer struct {
	c *gpu.Context
	// sc is the caller's scanner: the balancer loops scan with it, and
	// the renderer's own scans (the set-up triangles' and spans' offsets,
	// the keys' slots: scan.Offsets; the tiled culling's compaction:
	// scan.MarkedIndices) take its small-input path.
	sc       *scan.Scanner
	opts     Options
	test     testOptions // tests' overrides of the tuning (tuning.go)
	atomic64 bool        // the one-pass visibility path is available (driver, or tests' emulation)
	vis64    bool
	emulate  bool // vis64 through zbuffer.comp's stand-in for 64-bit atomicMin

	// The stages' kernels, in the order a frame runs them.
	setup   *setupStage
	prepare *prepareKernels
	scanSol *gpu.Program
	// zSol[exact][k]: the z-buffer loop's kernels, k a zKernel; exact
	// 1 works out depths in doubles (zbuffer.comp EXACT_DEPTH), for a
	// batch without large triangles. Made when first used (zProgram).
	zSol    [2][numZKernels]*gpu.Program
	zDefs   map[string]string // zbuffer.comp's defines common to its kernels
	resolve *resolveStage
	recs    *shadeRecords // the frame's shading records
	// lastRecords says whether the last frame shaded from records (tests).
	lastRecords bool
	// lastExactDepth says whether the last batch's z-buffer loop worked
	// out depths in doubles (tests).
	lastExactDepth bool
	// lastBox is the pixels the last frame's resolve pass shaded (tests).
	lastBox [4]int

	scanLoop *balancer.Loop[scanProblem]
	zLoop    *balancer.Loop[uint32]

	tris     *gpu.Buffer[gpuTri] // the set-up triangles: per input triangle of the batch, then the clipped ones' (setup.go)
	slots    *gpu.Buffer[uint32] // per set-up triangle: the element of tris that holds it
	rows     *gpu.Buffer[uint32] // per set-up triangle: its rows
	spanBase *gpu.Buffer[uint32] // per set-up triangle: its first span (the rows' exclusive scan)
	spans    *gpu.Buffer[span]
	depth    *gpu.Buffer[uint32] // 32-bit scheme: depth; 64-bit: the packed buffer's two words a pixel
	prims    *gpu.Buffer[uint32]
	rgba     *gpu.Buffer[uint32]
	// winner is the emulated 64-bit path's per-pixel winning set-up
	// triangle (zbuffer.comp VIS64_EMULATE); nil elsewhere.
	winner *gpu.Buffer[uint32]
	// pixelKeys is the 32-bit path's per pixel: its winning test and its
	// depth filter side by side (zbuffer.comp KEYS loads both at once);
	// nil on the 64-bit paths.
	pixelKeys *gpu.Buffer[[2]uint32]
	// zkeys is the 32-bit path's per batch: each span's first test, then
	// each test's key (zbuffer.comp KEYS).
	zkeys *gpu.Buffer[uint32]
	// texels: the loops read the set-up triangles, and the z-buffer
	// loop the spans, as buffer textures (scanconv.comp and zbuffer.comp
	// TEXELS), through these.
	texels                bool
	spanTexels, triTexels *gpu.TexelBuffer
	clock                 *stageClock
	tiled                 *tiledStage // Options.Tiled's, made when first used

	// maxSetup and maxSpans bound a batch's set-up triangles (64 bytes
	// each) and spans (16 bytes): what one storage block holds.
	maxSetup, maxSpans int
	// batchTriangles, when positive, caps a batch's triangles (tests).
	batchTriangles int
	// lastFolded: the last frame's resolve pass merged its last batch's
	// keys (resolve.comp MERGE; tests).
	lastFolded bool
	// maxKeyWords, when positive, caps zkeys below a storage block
	// (tests): a batch whose keys need more runs the two-pass fallback.
	maxKeyWords int
}

// New makes a renderer on the scanner's context.
func New(s *scan.Scanner, o Options) (*Renderer, error) { return newRenderer(s, o, testOptions{}) }

// newRenderer is New with tests' overrides of the tuning.
func newRenderer(s *scan.Scanner, o Options, test testOptions) (r *Renderer, err error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	c := s.Context()
	if c.Caps().MaxSSBOBindings < numBindings {
		return nil, fmt.Errorf("rasterizer: the renderer binds %d storage buffers at once, and %s offers %d binding points (GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS)", numBindings, c.Caps().Renderer, c.Caps().MaxSSBOBindings)
	}
	r = &Renderer{c: c, sc: s, opts: o, test: test}
	r.atomic64 = c.Caps().Atomic64 || test.emulateAtomic64 && c.Caps().Int64
	r.vis64 = r.atomic64 && !o.Visibility32
	r.emulate = r.vis64 && !c.Caps().Atomic64
	r.maxSetup = int(min(c.Caps().MaxSSBOSize/int64(unsafe.Sizeof(gpuTri{})), math.MaxInt32))
	r.maxSpans = int(min(c.Caps().MaxSSBOSize/int64(unsafe.Sizeof(span{})), math.MaxInt32))
	made := r // the error paths return nil for r: free what was made
	defer func() {
		if err != nil {
			made.Delete()
			r = nil
		}
	}()
	if r.setup, err = newSetupStage(c, test.storageBlockInputs); err != nil {
		return nil, err
	}
	if r.resolve, err = newResolveStage(c, test.storageBlockInputs); err != nil {
		return nil, err
	}
	r.recs = newShadeRecords(c)
	// The loops read their spans and triangles as buffer textures where
	// the driver's texel limit covers a storage block (as setup reads its
	// vertices).
	r.texels = r.setup.texels
	texels := define(r.texels)
	if r.texels {
		if err = newTexelBuffers(c, &r.spanTexels, &r.triTexels); err != nil {
			return nil, err
		}
	}
	if r.scanSol, err = c.Program("rasterizer/scanconv.comp", map[string]string{"TEXELS": texels}); err != nil {
		return nil, err
	}
	r.zDefs = map[string]string{"VIS64": define(r.vis64), "VIS64_EMULATE": define(r.emulate), "TEXELS": texels}
	// The kernel most frames take: the one pass, depths in doubles.
	first := zKeys
	if r.vis64 {
		first = zDepth
	}
	if _, err = r.zProgram(first, true); err != nil {
		return nil, err
	}
	if r.prepare, err = newPrepareKernels(c, r.vis64, r.emulate); err != nil {
		return nil, err
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
	r.clock = newStageClock(c)
	return r, nil
}

// The one-pass visibility path as Stats.Visibility names it: on the
// driver's 64-bit atomicMin, and on the tests' stand-in for it.
const (
	visibility64         = "64-bit atomicMin"
	visibility64Emulated = "64-bit atomicMin, the tests' stand-in"
	visibility32         = "32-bit: the nearest tests' keys by compare-and-swap"
	// visibility32IDPass is the 32-bit path's fallback for a batch whose
	// tests' keys outgrow a storage block: a depth pass, then an id pass.
	visibility32IDPass = "32-bit: depths, then ids by search"
)

// image allocates the per-pixel buffers for the options' size.
func (r *Renderer) image() error {
	n := r.opts.Width * r.opts.Height
	r.depth.Delete()
	r.prims.Delete()
	r.rgba.Delete()
	r.winner.Delete()
	r.pixelKeys.Delete()
	r.depth, r.prims, r.rgba, r.winner, r.pixelKeys = nil, nil, nil, nil, nil
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
			return fmt.Errorf("rasterizer: visibility winners for %dx%d: %w", r.opts.Width, r.opts.Height, err)
		}
	}
	if !r.vis64 {
		if r.pixelKeys, err = gpu.NewBuffer[[2]uint32](r.c, n); err != nil {
			return fmt.Errorf("rasterizer: visibility winners for %dx%d: %w", r.opts.Width, r.opts.Height, err)
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

// Delete frees every GPU object of the renderer (not the caller's
// scanner).
func (r *Renderer) Delete() {
	if r.setup != nil {
		r.setup.delete()
	}
	if r.resolve != nil {
		r.resolve.delete()
	}
	r.recs.delete()
	if r.scanLoop != nil {
		r.scanLoop.Delete()
	}
	if r.zLoop != nil {
		r.zLoop.Delete()
	}
	r.tris.Delete()
	r.slots.Delete()
	r.rows.Delete()
	r.spanBase.Delete()
	r.spans.Delete()
	r.depth.Delete()
	r.prims.Delete()
	r.rgba.Delete()
	r.winner.Delete()
	r.pixelKeys.Delete()
	r.zkeys.Delete()
	r.spanTexels.Delete()
	r.triTexels.Delete()
	r.clock.delete()
	if r.tiled != nil {
		r.tiled.delete()
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

// Image reads the last frame's image.
func (r *Renderer) Image() *image.RGBA {
	return ToImage(r.rgba.Download(), r.opts.Width, r.opts.Height)
}

// Prims reads the last frame's primitive id per pixel, bottom row first
// (raster.NoPrimitive where nothing is drawn).
func (r *Renderer) Prims() []uint32 { return r.prims.Download() }

// Pixels reads the last frame's packed RGBA8 pixels, bottom row first.
func (r *Renderer) Pixels() []uint32 { return r.rgba.Download() }
