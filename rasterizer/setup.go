package rasterizer

import (
	"fmt"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/scan"
)

// setupStage runs shaders/rasterizer/setup.comp: transform, clip and set up a
// triangle soup, in a counting pass and an emitting pass around an exclusive
// scan of the counts.
type setupStage struct {
	c           *gpu.Context
	count, emit *gpu.Program
	counts      *gpu.Buffer[uint32] // per input triangle: outputs, then their offsets
	stats       *gpu.Buffer[uint32] // outside, clipped, non-finite, zero-area
}

func newSetupStage(c *gpu.Context) (*setupStage, error) {
	if !c.Caps().Int64 {
		return nil, fmt.Errorf("rasterizer: the renderer's exact integer arithmetic needs GL_ARB_gpu_shader_int64, which %s lacks", c.Caps().Renderer)
	}
	s := &setupStage{c: c}
	var err error
	if s.count, err = c.Program("rasterizer/setup.comp", map[string]string{"EMIT": "0"}); err != nil {
		return nil, err
	}
	if s.emit, err = c.Program("rasterizer/setup.comp", map[string]string{"EMIT": "1"}); err != nil {
		return nil, err
	}
	if s.stats, err = gpu.NewBuffer[uint32](c, 4); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *setupStage) delete() {
	s.counts.Delete()
	s.stats.Delete()
}

// setupBatch is the input of both passes: triangles [first, first+n) of
// the positions pos (3 vertices each), whose primitive ids are primBase,
// primBase+1, ...; the counts and outputs are indexed from 0 in the batch.
type setupBatch struct {
	pos           gpu.Array[mesh.Vec4]
	first, n      int
	primBase      uint32
	mvp           *[16]float32
	width, height int
}

// uniforms sets what both passes read.
func (s *setupStage) uniforms(p *gpu.Program, b *setupBatch) {
	gx, gy := raster.Guard(b.width, b.height)
	p.SetMat4("mvp", *b.mvp)
	p.SetUint("numTris", uint32(b.n))
	p.SetUint("first", uint32(b.first))
	p.SetUint("primBase", b.primBase)
	p.SetIvec2("size", int32(b.width), int32(b.height))
	p.SetVec2("guard", gx, gy)
}

// countPass runs the counting pass over the batch and leaves the
// per-triangle output counts in s.counts.
func (s *setupStage) countPass(b *setupBatch) error {
	if err := grow(s.c, &s.counts, b.n, "setup counts"); err != nil {
		return err
	}
	s.stats.Fill(0)
	s.c.Do(func() {
		s.c.BindStorage(bindingPositions, b.pos)
		s.c.BindStorage(bindingSetupCounts, s.counts)
		s.c.BindStorage(bindingSetupStats, s.stats)
		// The counting pass declares the emitting pass's outputs but
		// leaves them alone.
		s.c.BindStorage(bindingTris, nil)
		s.c.BindStorage(bindingRows, nil)
		s.uniforms(s.count, b)
		s.count.DispatchInvocations(b.n)
		s.c.Barrier(gpu.BarrierStorage)
	})
	return nil
}

// emitPass writes the set-up triangles to tris and their workloads to rows,
// given s.counts replaced by its exclusive scan and total, the counts' sum.
func (s *setupStage) emitPass(b *setupBatch, total int, tris gpu.Array[gpuTri], rows gpu.Array[uint32]) {
	s.c.Do(func() {
		s.c.BindStorage(bindingPositions, b.pos)
		s.c.BindStorage(bindingSetupCounts, s.counts)
		s.c.BindStorage(bindingTris, tris)
		s.c.BindStorage(bindingRows, rows)
		s.c.BindStorage(bindingSetupStats, s.stats)
		s.uniforms(s.emit, b)
		s.emit.SetUint("numOut", uint32(total))
		s.emit.DispatchInvocations(b.n)
		s.c.Barrier(gpu.BarrierStorage)
	})
}

// readStats returns the skip statistics of the last counting pass.
func (s *setupStage) readStats(input, output int) raster.SetupStats {
	v := s.stats.Download()
	return raster.SetupStats{Input: input, Outside: int(v[0]), Clipped: int(v[1]), NonFinite: int(v[2]), ZeroArea: int(v[3]), Output: output}
}

// setUp transforms, clips and sets up a batch of block b's triangles from
// first (primitive ids from base+first): as many as f.batch allows whose
// set-up triangles and spans fit a storage block each, shrinking the batch
// until they do. The set-up triangles are left in r.tris, their rows in
// r.rows.
func (f *frame) setUp(b *mesh.GPU, first, base int) (batch, error) {
	r := f.r
	n := b.N - first
	if f.batch > 0 {
		n = min(n, f.batch)
	}
	sb := &setupBatch{pos: b.Positions.Slice(0, 3*b.N), first: first, primBase: uint32(base + first), mvp: &f.mvp, width: r.opts.Width, height: r.opts.Height}
	for {
		sb.n = n
		// Transform, clip and set up: count, scan the counts, emit.
		var total, spans int
		err := f.timed(StageTransformClip, func() error {
			if err := r.setup.countPass(sb); err != nil {
				return err
			}
			total = int(scan.Reduce(r.sc, r.setup.counts.Slice(0, n), scan.Add))
			return nil
		})
		if err != nil {
			return batch{}, err
		}
		if total > r.maxSetup {
			n = f.shrink(n, total, r.maxSetup)
			continue
		}
		var stats raster.SetupStats
		err = f.timed(StageSetup, func() error {
			counts := r.setup.counts.Slice(0, n)
			scan.ExclusiveScan(r.sc, counts, counts, scan.Add, 0)
			if err := grow(r.c, &r.tris, total, "set-up triangles"); err != nil {
				return err
			}
			if err := grow(r.c, &r.rows, total, "triangle rows"); err != nil {
				return err
			}
			r.setup.emitPass(sb, total, r.tris, r.rows)
			stats = r.setup.readStats(n, total)
			if total > 0 {
				spans = int(scan.Reduce(r.sc, r.rows.Slice(0, total), scan.Add))
			}
			return nil
		})
		if err != nil {
			return batch{}, err
		}
		if spans > r.maxSpans {
			n = f.shrink(n, spans, r.maxSpans)
			continue
		}
		f.st.Setup = addSetupStats(f.st.Setup, stats)
		f.st.Spans += int64(spans)
		f.st.Batches++
		return batch{n: n, tris: total, spans: spans}, nil
	}
}
