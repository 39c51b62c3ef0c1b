package rasterizer

import (
	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/scan"
)

// zBuffer runs the batch's z-buffer loop (shaders/rasterizer/zbuffer.comp)
// into the visibility buffer: one processor a span, one task a pixel. On
// the emulated 64-bit path the batch's winners are then merged; on the
// 32-bit path the id pass follows.
func (f *frame) zBuffer(bt batch) error {
	if bt.spans == 0 {
		return nil
	}
	r := f.r
	err := f.timed(StageZPrepare, func() error {
		if !f.cleared {
			f.clear()
		}
		if err := r.loadSpans(bt.spans); err != nil {
			return err
		}
		f.st.Pixels += int64(scan.Reduce(r.sc, r.zLoop.Workload(), scan.Add))
		return nil
	})
	if err != nil {
		return err
	}
	var zs balancer.Stats
	err = f.timed(StageZLoop, func() (err error) {
		zs, err = r.zLoop.Run(r.zSolution(r.zSol[0], f.st.Batches > 1))
		return err
	})
	if err != nil {
		return err
	}
	addLoopStats(&f.st.ZBuffer, zs)
	if r.winner != nil {
		f.timedGL(StageMerge, func() {
			r.c.BindStorage(bindingVisibility, r.depth)
			r.c.BindStorage(bindingWinner, r.winner)
			r.c.BindStorage(bindingTris, r.tris)
			r.prepare.prog[mergeWinners].SetInt("width", int32(r.opts.Width))
			r.prepare.run(mergeWinners, r.opts.Width*r.opts.Height)
		})
	}
	if !r.vis64 {
		return f.timed(StageIDPass, func() error { return f.idPass(bt) })
	}
	return nil
}

// idPass is the 32-bit path's second pass over the batch's (span, pixel)
// tasks: at each pixel, the lowest primitive id among the tests at the
// depth the first pass left. It is not the paper's loop but the price of
// lacking 64-bit atomics, so it runs once over every task with the
// load-balancing search, one invocation a task, whatever the policy.
func (f *frame) idPass(bt batch) error {
	r := f.r
	if err := r.loadSpans(bt.spans); err != nil {
		return err
	}
	cfg := r.opts.ZBuffer
	cfg.Policy, cfg.Strategy, cfg.Lanes = balancer.Never, balancer.Search, 0
	if err := r.zLoop.SetConfig(cfg); err != nil {
		return err
	}
	ids, err := r.zLoop.Run(r.zSolution(r.zSol[1], false))
	if serr := r.zLoop.SetConfig(r.opts.ZBuffer); err == nil {
		err = serr
	}
	if err != nil {
		return err
	}
	addLoopStats(&f.st.ZBufferIDs, ids)
	return nil
}

// clear resets the visibility buffer.
func (f *frame) clear() {
	r := f.r
	r.c.Do(func() {
		r.c.BindStorage(bindingVisibility, r.depth)
		r.c.BindStorage(bindingPrims, r.prims)
		r.prepare.run(clearVisibility, r.opts.Width*r.opts.Height)
	})
	if r.winner != nil {
		r.winner.Fill(raster.NoPrimitive)
	}
	f.cleared = true
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

// zSolution binds the z-buffer kernel prog's buffers and dispatches it;
// laterBatch tells the 32-bit depth pass that earlier batches left ids.
func (r *Renderer) zSolution(prog *gpu.Program, laterBatch bool) balancer.Solution {
	return balancer.SolutionFunc(func(it *balancer.Iteration) {
		r.c.BindStorage(bindingSpans, r.spans)
		r.c.BindStorage(bindingTris, r.tris)
		r.c.BindStorage(bindingVisibility, r.depth)
		r.c.BindStorage(bindingPrims, r.prims)
		if r.winner != nil {
			r.c.BindStorage(bindingWinner, r.winner)
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
