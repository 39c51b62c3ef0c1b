package rasterizer

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
)

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
func (r *Renderer) Render(m *mesh.GPU, cam view.Camera) (st FrameStats, err error) {
	// The whole frame in one call to the GL thread: its stages' own Do
	// calls (some 30 a frame) then run at once, where each would hand
	// over to the GL thread and back (two thread wake-ups, tens of
	// microseconds on llvmpipe's 2-core machine).
	r.c.Do(func() { st, err = r.render(m, cam) })
	return st, err
}

func (r *Renderer) render(m *mesh.GPU, cam view.Camera) (FrameStats, error) {
	start := time.Now()
	f, err := r.newFrame(m, cam)
	if err != nil {
		return FrameStats{}, err
	}
	r.lastRecords = f.records
	draw := f.draw
	if r.opts.Tiled {
		draw, f.st.Visibility = f.drawTiled, visibilityTiled
	}
	base := 0
	for _, b := range m.Blocks() {
		for first := 0; first < b.N; {
			n, err := draw(b, first, base)
			if err != nil {
				return f.st, err
			}
			first += n
		}
		base += b.N
	}
	if st := f.st.Setup; st.Input > 0 && st.NonFinite == st.Input {
		return f.st, fmt.Errorf("rasterizer: nothing drawn: all %d triangles have NaN or infinite coordinates after the camera transform", st.Input)
	}
	if !f.shaded {
		in := resolveInput{blocks: m.Blocks(), cam: cam, records: f.records, box: f.checkedBox()}
		err := r.resolveFrame(in, &f.vis, f.tm)
		f.tm.read()
		if err != nil {
			return f.st, err
		}
	}
	f.st.setTimes(time.Since(start))
	return f.st, nil
}

// frame is the state of one Render across its batches. It orders the
// stages (setup.go, scanconv.go, zbuffer.go, resolve.go; tiledraw.go on
// the tiled path), which are the renderer's and take their inputs and
// return their outputs explicitly, and folds those into its statistics.
type frame struct {
	r     *Renderer
	st    FrameStats
	tm    stageTimer // the stages time themselves into st.Stages
	vis   visState   // the visibility buffers across the batches
	batch int        // triangles to try in the next batch
	mvp   [16]float32
	cam   view.Camera
	// shaded: the image is shaded, by the tiled path's one batch
	// (tiledraw.go), and the frame needs no resolve pass.
	shaded bool
	// records: the setup passes store the shading records of the
	// triangles they set up, in r.recs, and the shading reads them.
	records bool
	// box is the pixels the mesh's bounds project to (shadedBox), and
	// outsideBox the set-up triangles that setup found reaching past it:
	// with none, the resolve pass shades only the box.
	box        [4]int
	outsideBox int
	// inView: the mesh's bounds lie within the view (boundsInView): no
	// triangle lies wholly outside it, and the tiled setup culls none.
	inView bool
}

// visState is the visibility buffers' state across a frame's batches,
// which the z-buffer, tiled and resolve stages read and update.
type visState struct {
	cleared bool // the visibility buffer is cleared for this frame
	drawn   bool // a batch wrote the 32-bit path's depth and id buffers since
	// pending is the 32-bit path's last batch's merge of its winning
	// keys, not yet run (Renderer.flushMerge, or the resolve pass).
	pending *keyMerge
}

// newFrame checks Render's arguments and starts a frame.
func (r *Renderer) newFrame(m *mesh.GPU, cam view.Camera) (*frame, error) {
	if m == nil {
		return nil, errors.New("rasterizer: Render: the mesh is nil (an empty mesh is mesh.NewGPU(c, 0))")
	}
	mvp := cam.MVP()
	for i, v := range mvp {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, fmt.Errorf("rasterizer: the camera's matrix (projection × view) has %v in column %d, row %d: nothing can be drawn with it (was it fitted to coordinates beyond float32's range?)", v, i/4, i%4)
		}
	}
	if total := int64(m.Len()); total >= int64(raster.NoPrimitive) {
		return nil, fmt.Errorf("rasterizer: %d triangles: primitive ids are 32-bit, with %#x meaning none", total, raster.NoPrimitive)
	}
	f := &frame{r: r, batch: r.batchTriangles, mvp: mvp, cam: cam, box: shadedBox(m.Blocks(), cam, r.opts.Width, r.opts.Height),
		inView: boundsInView(m.Blocks(), cam)}
	f.tm = stageTimer{c: r.c, k: r.clock, t: &f.st.Stages}
	if r.test.resolveWholeImage {
		f.box = [4]int{0, 0, r.opts.Width, r.opts.Height}
	}
	// The tiled path's choice by its last frame (tiledRecordsPay).
	if !r.test.shadeRecordsOff && !(r.opts.Tiled && r.tiled != nil && !tiledRecordsPay(r.tiled.lastSetUp, r.tiled.lastShaded)) {
		var err error
		if f.records, err = r.recs.prepare(m.Len()); err != nil {
			return nil, err
		}
	}
	switch {
	case r.vis64 && !r.c.Caps().Atomic64:
		f.st.Visibility = visibility64Emulated
	case r.vis64:
		f.st.Visibility = visibility64
	default:
		f.st.Visibility = visibility32
	}
	return f, nil
}

// draw runs one batch, triangles [first, first+n) of block b whose first
// triangle has primitive id base, through the stages up to the visibility
// buffer, for the largest n (up to f.batch) whose set-up triangles and
// spans fit their storage blocks, and returns n.
func (f *frame) draw(b *mesh.GPU, first, base int) (int, error) {
	r := f.r
	in := setupInput{block: b, first: first, base: base, limit: f.batch, mvp: &f.mvp, cam: &f.cam, box: f.box, records: f.records}
	su, err := r.setUp(in, f.tm)
	if err != nil {
		return 0, err
	}
	bt := su.batch
	f.batch = su.limit
	f.st.Setup = addSetupStats(f.st.Setup, su.stats)
	f.outsideBox += su.outsideBox
	f.st.Spans += int64(bt.spans)
	f.st.Batches++
	sc, err := r.scanConvert(bt, f.tm)
	if err != nil {
		return 0, err
	}
	if bt.tris > 0 {
		addLoopStats(&f.st.ScanConversion, sc)
	}
	z, err := r.zBuffer(bt, f.st.Batches > 1, f.checkedBox(), &f.vis, f.tm)
	if err != nil {
		return 0, err
	}
	f.st.Pixels += z.pixels
	if z.idPass {
		f.st.Visibility = visibility32IDPass
	}
	if bt.spans > 0 {
		addLoopStats(&f.st.ZBuffer, z.loop)
	}
	if z.ranIDs {
		addLoopStats(&f.st.ZBufferIDs, z.ids)
	}
	f.tm.read()
	return bt.n, nil
}

// drawTiled is draw for Options.Tiled: one batch through the tiled
// stages (Renderer.drawTiled) in place of the loops, whose statistics
// stay empty; it returns the batch's triangles.
func (f *frame) drawTiled(b *mesh.GPU, first, base int) (int, error) {
	in := tiledInput{block: b, first: first, base: base, limit: f.batch, mvp: f.mvp, cam: f.cam, inView: f.inView, records: f.records}
	out, err := f.r.drawTiled(in, &f.vis, f.tm)
	if err != nil {
		return 0, err
	}
	f.batch = out.limit
	f.st.Setup = addSetupStats(f.st.Setup, out.stats)
	f.st.Batches++
	if out.drew {
		f.shaded = out.shaded
	}
	f.tm.read()
	return out.n, nil
}

// checkedBox is the frame's box (shadedBox) where setup found every set-up
// triangle so far within it, else the whole image; the tiled path's setup
// does not check.
func (f *frame) checkedBox() [4]int {
	r := f.r
	if r.opts.Tiled || f.outsideBox != 0 {
		return [4]int{0, 0, r.opts.Width, r.opts.Height}
	}
	return f.box
}

// batch is what setup made of a batch of triangles: n input triangles
// became tris set-up triangles of spans rows in all; exactDepth says that
// each has an area2 below 2^28, so that the z-buffer loop may work out
// depths in doubles (zbuffer.comp EXACT_DEPTH).
type batch struct {
	n, tris, spans int
	exactDepth     bool
}

// setTimes derives the frame's summary times from its stages.
func (st *FrameStats) setTimes(wall time.Duration) {
	t := &st.Stages
	st.SetupTime = t[StageTransformClip] + t[StageSetup] + t[StageTileSetup]
	st.ScanTime = t[StageScanPrepare] + t[StageScanLoop] + t[StageTileLists]
	st.ZBufferTime = t[StageZPrepare] + t[StageZLoop] + t[StageMerge] + t[StageIDPass] + t[StageExtract] + t[StageTiles]
	st.ResolveTime = t[StageResolve]
	st.Total = t.Sum()
	st.Wall = wall
}

// shrinkBatch returns the batch size to try, and to start the next
// batches with, after n triangles made got of something that holds at
// most limit: in proportion, with a tenth to spare, and at least halved so
// that the search ends.
func shrinkBatch(n, got, limit int) int {
	if n <= 1 {
		// One triangle makes at most 7 set-up triangles of at most
		// MaxImageSize rows each: far below any storage block.
		panic(fmt.Sprintf("rasterizer: one triangle made %d of a limit of %d", got, limit))
	}
	return max(1, min(n/2, int(float64(n)*float64(limit)/float64(got)*0.9)))
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
