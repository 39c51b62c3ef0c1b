package rasterizer

import (
	"fmt"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
)

// gpuTri mirrors struct Tri of shaders/rasterizer/raster.glsl (std430,
// 64 bytes): a set-up triangle as raster.Triangle holds it.
type gpuTri struct {
	X0, Y0, X1, Y1 int32
	X2, Y2         int32
	AreaLo, AreaHi uint32 // twice the area, an int64 in two words
	Z0, Z1, Z2     uint32
	Prim           uint32
	YLo, YHi       int32
	Flipped        int32
	_              int32
}

func (g gpuTri) triangle() raster.Triangle {
	return raster.Triangle{
		V:       [3]raster.Vertex{{X: g.X0, Y: g.Y0, Z: g.Z0}, {X: g.X1, Y: g.Y1, Z: g.Z1}, {X: g.X2, Y: g.Y2, Z: g.Z2}},
		Area2:   int64(uint64(g.AreaHi)<<32 | uint64(g.AreaLo)),
		YLo:     g.YLo,
		YHi:     g.YHi,
		Flipped: g.Flipped != 0,
		Prim:    g.Prim,
	}
}

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
		s.c.BindStorage(0, b.pos)
		s.c.BindStorage(1, s.counts)
		s.c.BindStorage(4, s.stats)
		s.uniforms(s.count, b)
		s.count.DispatchInvocations(b.n)
		s.c.Barrier(gpu.BarrierStorage)
	})
	return nil
}

// emitPass writes the set-up triangles to tris and their workloads to rows,
// given s.counts replaced by its exclusive scan.
func (s *setupStage) emitPass(b *setupBatch, tris gpu.Array[gpuTri], rows gpu.Array[uint32]) {
	s.c.Do(func() {
		s.c.BindStorage(0, b.pos)
		s.c.BindStorage(1, s.counts)
		s.c.BindStorage(2, tris)
		s.c.BindStorage(3, rows)
		s.c.BindStorage(4, s.stats)
		s.uniforms(s.emit, b)
		s.emit.DispatchInvocations(b.n)
		s.c.Barrier(gpu.BarrierStorage)
	})
}

// readStats returns the skip statistics of the last counting pass.
func (s *setupStage) readStats(input, output int) raster.SetupStats {
	v := s.stats.Download()
	return raster.SetupStats{Input: input, Outside: int(v[0]), Clipped: int(v[1]), NonFinite: int(v[2]), ZeroArea: int(v[3]), Output: output}
}
