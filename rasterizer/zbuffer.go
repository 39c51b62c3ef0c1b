package rasterizer

import (
	"math"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/scan"
)

// zOutput is what the z-buffer stage reports of a batch: its pixels (the
// loop's tasks), whether it took the 32-bit path's two-pass fallback
// (idPass), and the loop's statistics, with the id pass's where it ran
// (ranIDs).
type zOutput struct {
	pixels         int64
	idPass, ranIDs bool
	loop, ids      balancer.Stats
}

// zBuffer runs the batch's z-buffer loop (shaders/rasterizer/zbuffer.comp)
// into the visibility buffer: one processor a span, one task a pixel. On
// the 32-bit path and the emulated 64-bit one the batch's winners are then
// merged; on the 32-bit path's fallback the id pass follows. laterBatch
// says that earlier batches of the frame drew; box is the frame's checked
// box (frame.checkedBox), where every test lies; vs is the visibility
// buffers' state, which it updates.
func (r *Renderer) zBuffer(bt batch, laterBatch bool, box [4]int, vs *visState, tm stageTimer) (out zOutput, err error) {
	if bt.spans == 0 {
		return out, nil
	}
	r.flushMerge(vs, box, tm) // the last batch's, whose keys the scan below replaces
	keys := false
	err = tm.timed(StageZPrepare, func() (err error) {
		keys, out.pixels, err = r.zPrepare(bt, vs)
		return err
	})
	if err != nil {
		return out, err
	}
	out.idPass = !r.vis64 && !keys
	kernel := zDepth
	if keys {
		kernel = zKeys
	}
	r.lastExactDepth = bt.exactDepth
	err = tm.timed(StageZLoop, func() error {
		sol, err := r.zSolution(kernel, bt.exactDepth, laterBatch, bt.spans)
		if err != nil {
			return err
		}
		out.loop, err = r.zLoop.Run(sol)
		return err
	})
	if err != nil {
		return out, err
	}
	return out, r.zWinners(bt, keys, vs, tm, &out)
}

// zPrepare clears the visibility buffer once a frame and loads the
// z-buffer loop with the batch's spans, counting their pixels; on the
// 32-bit path it also lays out each span's first test (the exclusive
// scan of the spans' pixels) in r.zkeys and says whether the tests' keys
// fit after them (keys), else the batch takes the two-pass fallback.
func (r *Renderer) zPrepare(bt batch, vs *visState) (keys bool, pixels int64, err error) {
	if !vs.cleared {
		r.clearVisibility(vs)
	}
	if err := r.loadSpans(bt.spans); err != nil {
		return false, 0, err
	}
	if r.vis64 {
		return false, int64(scan.Reduce(r.sc, r.zLoop.Workload(), scan.Add)), nil
	}
	// Each span's first test, then two words a test from keyBase. The
	// scan's last offset and the last span's pixels give the batch's
	// pixels, where a reduction would take another pass over the spans.
	if err := grow(r.c, &r.zkeys, int(keyBase(bt.spans)), "visibility keys"); err != nil {
		return false, 0, err
	}
	offsets := r.zkeys.Slice(0, bt.spans)
	scan.Offsets(r.sc, offsets, r.zLoop.Workload())
	var last, lastPixels [1]uint32
	offsets.Read(bt.spans-1, last[:])
	r.zLoop.Workload().Read(bt.spans-1, lastPixels[:])
	pixels = int64(last[0]) + int64(lastPixels[0])
	words := int64(keyBase(bt.spans)) + 2*pixels
	limit := r.c.Caps().MaxSSBOSize / 4
	if r.maxKeyWords > 0 {
		limit = int64(r.maxKeyWords)
	}
	if words > limit || words >= int64(raster.NoPrimitive) {
		return false, pixels, nil
	}
	if r.zkeys.Len() < int(words) {
		// Grown, the keys lose the offsets: scan again.
		if err := grow(r.c, &r.zkeys, int(words), "visibility keys"); err != nil {
			return false, pixels, err
		}
		scan.Offsets(r.sc, r.zkeys.Slice(0, bt.spans), r.zLoop.Workload())
	}
	return true, pixels, nil
}

// zWinners settles the batch's winners after its z-buffer loop: the
// 32-bit path's keys left pending for the next batch or the resolve pass
// to merge, the emulated 64-bit path's winners merged, or the 32-bit
// fallback's id pass (its statistics in out).
func (r *Renderer) zWinners(bt batch, keys bool, vs *visState, tm stageTimer, out *zOutput) error {
	switch {
	case keys:
		// Merged before the next batch's keys replace these (zBuffer),
		// or by the resolve pass as it shades (resolveFrame).
		vs.pending = &keyMerge{depth: r.depth, winner: r.pixelKeys, zkeys: r.zkeys, keyBase: keyBase(bt.spans), cleared: !vs.drawn}
		vs.drawn = true
	case r.emulate:
		tm.timedGL(StageMerge, func() {
			r.c.BindStorage(bindingVisibility, r.depth)
			r.c.BindStorage(bindingWinner, r.winner)
			r.c.BindStorage(bindingTris, r.tris)
			r.prepare.prog[mergeWinners].SetInt("width", int32(r.opts.Width))
			r.prepare.run(mergeWinners, r.opts.Width*r.opts.Height)
		})
	case !r.vis64:
		vs.drawn = true // by the fallback's depth pass
		return tm.timed(StageIDPass, func() (err error) {
			out.ids, err = r.idPass(bt)
			out.ranIDs = err == nil
			return err
		})
	}
	return nil
}

// flushMerge merges the pending batch's winning keys into the depth and
// id buffers (prepare.comp MERGE_KEYS), if a batch left them; every test
// lies in box, and the pixels outside hold no winner.
func (r *Renderer) flushMerge(vs *visState, box [4]int, tm stageTimer) {
	m := vs.pending
	if m == nil {
		return
	}
	vs.pending = nil
	tm.timedGL(StageMerge, func() {
		p := r.prepare.prog[mergeKeys]
		m.bind(r.c, p)
		r.c.BindStorage(bindingPrims, r.prims)
		w, h := r.opts.Width, r.opts.Height
		if w%4 != 0 {
			r.prepare.run(mergeKeys, w*h)
		} else if box := quadAligned(box, w); box[0] < box[2] && box[1] < box[3] {
			r.prepare.mergeBox(box, w, h)
		}
	})
}

// idPass is the 32-bit path's second pass over the batch's (span, pixel)
// tasks: at each pixel, the lowest primitive id among the tests at the
// depth the first pass left. It is not the paper's loop but the price of
// lacking 64-bit atomics, so it runs once over every task with the
// load-balancing search, one invocation a task, whatever the policy.
func (r *Renderer) idPass(bt batch) (balancer.Stats, error) {
	var ids balancer.Stats
	if err := r.loadSpans(bt.spans); err != nil {
		return ids, err
	}
	cfg := r.opts.ZBuffer
	cfg.Policy, cfg.Strategy, cfg.Lanes = balancer.Never, balancer.Search, 0
	if err := r.zLoop.SetConfig(cfg); err != nil {
		return ids, err
	}
	sol, err := r.zSolution(zIDs, bt.exactDepth, false, bt.spans)
	if err == nil {
		ids, err = r.zLoop.Run(sol)
	}
	if serr := r.zLoop.SetConfig(r.opts.ZBuffer); err == nil {
		err = serr
	}
	return ids, err
}

// keyBase is where the 32-bit path's test keys start in r.zkeys, past the
// spans' first tests: an even word, so that zbuffer.comp reads and writes
// a key as one uvec2.
func keyBase(spans int) uint32 { return uint32(spans+1) &^ 1 }

// clearVisibility resets the visibility buffer for a frame.
func (r *Renderer) clearVisibility(vs *visState) {
	if r.vis64 {
		r.c.Do(func() {
			r.c.BindStorage(bindingVisibility, r.depth)
			r.c.BindStorage(bindingPrims, r.prims)
			r.prepare.run(clearVisibility, r.opts.Width*r.opts.Height)
		})
	} else {
		// Fills, not a kernel storing a word at a time a lane.
		r.depth.Fill(raster.DepthMax)
		r.prims.Fill(raster.NoPrimitive)
	}
	if r.emulate {
		r.winner.Fill(raster.NoPrimitive)
	}
	if !r.vis64 {
		// No winner, and a depth filter above every depth (nothing
		// tested): one word repeated, which the driver fills as words.
		r.pixelKeys.Fill([2]uint32{raster.NoPrimitive, math.MaxUint32})
	}
	vs.cleared = true
}

// loadSpans loads the z-buffer loop with the spans: one processor a span,
// its length as the workload.
func (r *Renderer) loadSpans(spans int) error {
	if err := r.zLoop.Resize(spans); err != nil {
		return err
	}
	r.c.Do(func() {
		r.c.BindStorage(bindingSpans, r.spans.Slice(0, spans))
		r.c.BindStorage(bindingWorkload, r.zLoop.Workload())
		r.c.BindStorage(bindingParallelIndex, r.zLoop.ParallelIndex())
		r.c.BindStorage(bindingProblem, r.zLoop.Problem())
		r.prepare.run(spanProblems, spans)
	})
	return nil
}

// zKernel names the z-buffer loop's kernels (zbuffer.comp).
type zKernel int

const (
	zDepth zKernel = iota // the 64-bit pass, or the 32-bit fallback's depth pass (PASS 1)
	zIDs                  // the 32-bit fallback's id pass (PASS 2)
	zKeys                 // the 32-bit path's one pass (KEYS)
	numZKernels
)

// zProgram returns kernel k of the z-buffer loop, with depths in doubles
// where exact (EXACT_DEPTH: a batch whose set-up triangles all have an
// area2 below 2^28), making it when first asked for.
func (r *Renderer) zProgram(k zKernel, exact bool) (*gpu.Program, error) {
	e := bit(exact)
	if p := r.zSol[e][k]; p != nil {
		return p, nil
	}
	defs := map[string]string{"PASS": "1", "KEYS": define(k == zKeys), "EXACT_DEPTH": define(exact)}
	if k == zIDs {
		defs["PASS"] = "2"
	}
	for n, v := range r.zDefs {
		defs[n] = v
	}
	p, err := r.c.Program("rasterizer/zbuffer.comp", defs)
	if err != nil {
		return nil, err
	}
	r.zSol[e][k] = p
	return p, nil
}

// zSolution binds the buffers of the z-buffer loop's kernel k (with
// depths in doubles where exact) and dispatches it; laterBatch tells the
// 32-bit fallback's depth pass that earlier batches left ids, and spans
// are the batch's (where the 32-bit pass's keys start).
func (r *Renderer) zSolution(k zKernel, exact, laterBatch bool, spans int) (balancer.Solution, error) {
	prog, err := r.zProgram(k, exact)
	if err != nil {
		return nil, err
	}
	if r.texels {
		// The scan-conversion loop and setup wrote them as storage.
		r.c.Do(func() { r.c.Barrier(gpu.BarrierTexture) })
	}
	return balancer.SolutionFunc(func(it *balancer.Iteration) {
		r.c.BindStorage(bindingSpans, r.spans)
		r.c.BindStorage(bindingTris, r.tris)
		if r.texels {
			r.c.BindTexels(unitSpans, r.spanTexels, r.spans, gpu.TexelRGBA32I)
			r.c.BindTexels(unitTris, r.triTexels, r.tris, gpu.TexelRGBA32I)
		}
		r.c.BindStorage(bindingVisibility, r.depth)
		r.c.BindStorage(bindingPrims, r.prims)
		if r.winner != nil {
			r.c.BindStorage(bindingWinner, r.winner)
		}
		if r.pixelKeys != nil {
			r.c.BindStorage(bindingWinner, r.pixelKeys)
		}
		if k == zKeys {
			r.c.BindStorage(bindingZKeys, r.zkeys)
			prog.SetUint("keyBase", keyBase(spans))
		}
		prog.SetInt("width", int32(r.opts.Width))
		if !r.vis64 && k == zDepth {
			later := int32(0)
			if laterBatch {
				later = 1
			}
			prog.SetInt("laterBatch", later)
		}
		it.Dispatch(prog)
	}), nil
}
