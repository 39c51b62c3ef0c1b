package rasterizer

import (
	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu"
)

// scanConvert runs the batch's scan-conversion loop
// (shaders/rasterizer/scanconv.comp): one processor a set-up triangle, one
// task a row; each triangle's spans go to its own place (its first span is
// the exclusive scan of the rows), so r.spans comes out in one order
// whatever processor wrote which span. Setup left the first spans in
// r.spanBase. It returns the loop's statistics (none for a batch without
// set-up triangles).
func (r *Renderer) scanConvert(bt batch, tm stageTimer) (balancer.Stats, error) {
	var sc balancer.Stats
	if bt.tris == 0 {
		return sc, nil
	}
	rows := r.rows.Slice(0, bt.tris)
	err := tm.timed(StageScanPrepare, func() error {
		if err := grow(r.c, &r.spans, bt.spans, "spans"); err != nil {
			return err
		}
		if err := r.scanLoop.Resize(bt.tris); err != nil {
			return err
		}
		r.c.Do(func() {
			r.c.BindStorage(bindingRows, rows)
			r.c.BindStorage(bindingSpanBase, r.spanBase)
			r.c.BindStorage(bindingTriSlots, r.slots)
			r.c.BindStorage(bindingWorkload, r.scanLoop.Workload())
			r.c.BindStorage(bindingParallelIndex, r.scanLoop.ParallelIndex())
			r.c.BindStorage(bindingProblem, r.scanLoop.Problem())
			r.prepare.run(scanProblems, bt.tris)
		})
		return nil
	})
	if err != nil {
		return sc, err
	}
	err = tm.timed(StageScanLoop, func() (err error) {
		if r.texels {
			// Setup wrote them as storage.
			r.c.Do(func() { r.c.Barrier(gpu.BarrierTexture) })
		}
		sc, err = r.scanLoop.Run(balancer.SolutionFunc(func(it *balancer.Iteration) {
			r.c.BindStorage(bindingTris, r.tris)
			if r.texels {
				r.c.BindTexels(unitTris, r.triTexels, r.tris, gpu.TexelRGBA32I)
			}
			r.c.BindStorage(bindingSpans, r.spans)
			r.scanSol.SetInt("width", int32(r.opts.Width))
			it.Dispatch(r.scanSol)
		}))
		return err
	})
	return sc, err
}
