package rasterizer

import (
	"fmt"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/scan"
)

// setupStage runs shaders/rasterizer/setup.comp: transform, clip and set up a
// triangle soup, in a counting pass and an emitting pass around an exclusive
// scan of the counts. Each pass runs twice: over every triangle, clipping
// none and listing those that cross a clipping plane, then over the listed
// ones, clipping them (a SIMD vector runs the clipper's loops if any of
// its lanes needs them: in a pass of their own, only the few triangles
// that cross the view's planes pay for them). The counting pass over
// every triangle keeps each unclipped triangle's set-up triangle in the
// triangles' buffer at its input's index, where the loops read it; the
// emitting pass numbers the set-up triangles, writing where each lies
// (slots), and the clipping one puts its set-up triangles past the
// inputs.
type setupStage struct {
	c *gpu.Context
	// count and countClip are the counting passes over every triangle
	// (the ones to clip listed) and over the listed ones, clipped: [1]
	// stores the shading records of the triangles they set up, [0] (made
	// when first needed) does not.
	count, countClip [2]*gpu.Program
	emit, emitClip   *gpu.Program
	// counts holds per input triangle its outputs, then their offsets
	// (and the total after the batch's n of them), then from n+1 the
	// triangles listed for clipping.
	counts *gpu.Buffer[uint32]
	// texels says that the passes read the vertices as a buffer texture
	// (setup.comp TEXELS: llvmpipe gathers a texel for a vector's lanes at
	// once), where the driver's texel limit covers any storage block.
	texels               bool
	posTexels, nrmTexels *gpu.TexelBuffer
	// stats: outside, clipped, non-finite, zero-area; the listed
	// triangles; the clipping passes' work groups (x, y, z: their indirect
	// dispatch); the set-up triangles too large for the z-buffer's depth
	// in doubles (zbuffer.comp EXACT_DEPTH); those reaching past the
	// frame's box.
	stats *gpu.Buffer[uint32]
}

// The words of setupStage.stats (setup.comp's stats).
const (
	setupStatListed = 4 // triangles listed for the clipping passes
	setupStatGroups = 5 // their work groups: x, y, z from here
	setupStatLarge  = 8 // set-up triangles whose area2 is 2^28 or more
	setupStatOutBox = 9 // set-up triangles reaching past the frame's box (shadedBox)
	setupStatWords  = 10
)

func newSetupStage(c *gpu.Context, storageBlocks bool) (*setupStage, error) {
	if !c.Caps().Int64 {
		return nil, fmt.Errorf("rasterizer: the renderer's exact integer arithmetic needs GL_ARB_gpu_shader_int64, which %s lacks", c.Caps().Renderer)
	}
	s := &setupStage{c: c}
	s.texels = texelInputs(c, storageBlocks)
	if s.texels {
		if err := newTexelBuffers(c, &s.posTexels, &s.nrmTexels); err != nil {
			s.delete()
			return nil, err
		}
	}
	for _, k := range []struct {
		p    **gpu.Program
		clip string
	}{{&s.emit, "0"}, {&s.emitClip, "1"}} {
		p, err := c.Program("rasterizer/setup.comp", map[string]string{"EMIT": "1", "CLIP_PASS": k.clip, "TEXELS": define(s.texels)})
		if err != nil {
			s.delete()
			return nil, err
		}
		*k.p = p
	}
	// The counting passes that store shading records, which frames
	// usually take; the others are made when first needed.
	if _, _, err := s.counting(true); err != nil {
		s.delete()
		return nil, err
	}
	var err error
	if s.stats, err = gpu.NewBuffer[uint32](c, setupStatWords); err != nil {
		s.delete()
		return nil, err
	}
	return s, nil
}

func (s *setupStage) delete() {
	s.counts.Delete()
	s.stats.Delete()
	s.posTexels.Delete()
	s.nrmTexels.Delete()
}

// counting returns the counting passes, storing shading records or not.
func (s *setupStage) counting(records bool) (all, clip *gpu.Program, err error) {
	k := bit(records)
	if s.count[k] == nil {
		for _, v := range []struct {
			p    **gpu.Program
			clip string
		}{{&s.count[k], "0"}, {&s.countClip[k], "1"}} {
			if *v.p, err = s.c.Program("rasterizer/setup.comp", map[string]string{"EMIT": "0", "CLIP_PASS": v.clip, "TEXELS": define(s.texels), "SHADE_RECORDS": define(records)}); err != nil {
				return nil, nil, err
			}
		}
	}
	return s.count[k], s.countClip[k], nil
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
	box           [4]int // the frame's shadedBox, which the counting passes check
	// cull: the view may leave triangles wholly outside it (the mesh's
	// bounds do not lie within it), so the tiled setup may mark and list
	// the others first and set up only those (tiledStage.culls).
	cull bool
	// With records, the counting passes store the shading records of
	// the triangles they set up (shaderecord.glsl), from the normals,
	// the camera and the material.
	records bool
	normals gpu.Array[mesh.Vec4]
	cam     *view.Camera
	mat     Material
}

// recordInputs binds what passes ps read to store shading records, and
// sets their uniforms, on the GL thread; nothing without records. nrm is
// the stage's buffer texture of the normals (nil where the passes read
// storage blocks).
func (b *setupBatch) recordInputs(c *gpu.Context, nrm *gpu.TexelBuffer, recs *shadeRecords, ps ...*gpu.Program) {
	if !b.records {
		return
	}
	if nrm != nil {
		c.BindTexels(unitNormals, nrm, b.normals, gpu.TexelRGBA32F)
	} else {
		c.BindStorage(bindingNormals, b.normals)
	}
	recs.bindStore()
	for _, p := range ps {
		setRecordUniforms(p, b.cam, b.mat)
	}
}

// bindVertices binds the batch's vertices as the passes read them, on
// the GL thread.
func (s *setupStage) bindVertices(b *setupBatch) {
	if !s.texels {
		s.c.BindStorage(bindingPositions, b.pos)
		return
	}
	// The vertices may come from shaders (the isosurface's), read here
	// through texture fetches.
	s.c.Barrier(gpu.BarrierTexture)
	s.c.BindTexels(unitPositions, s.posTexels, b.pos, gpu.TexelRGBA32F)
}

// uniforms sets what both passes read.
func (s *setupStage) uniforms(p *gpu.Program, b *setupBatch) {
	gx, gy := raster.Guard(b.width, b.height)
	p.SetMat4("mvp", *b.mvp)
	p.SetUint("numIn", uint32(b.n))
	p.SetUint("first", uint32(b.first))
	p.SetUint("primBase", b.primBase)
	p.SetIvec2("size", int32(b.width), int32(b.height))
	p.SetVec2("guard", gx, gy)
	p.SetIvec2("boxLo", int32(b.box[0]), int32(b.box[1]))
	p.SetIvec2("boxHi", int32(b.box[2]), int32(b.box[3]))
}

// passes runs a pass over every triangle of the batch, then its clipping
// twin over the listed ones, as many work groups as the first pass
// counted (no read-back). On the GL thread.
func (s *setupStage) passes(all, clip *gpu.Program, b *setupBatch) {
	s.uniforms(all, b)
	all.DispatchInvocations(b.n)
	s.c.Barrier(gpu.BarrierStorage | gpu.BarrierCommand)
	s.uniforms(clip, b)
	clip.DispatchIndirect(s.stats, 4*setupStatGroups)
	s.c.Barrier(gpu.BarrierStorage)
}

// countPass runs the counting passes over the batch and leaves the
// per-triangle output counts in s.counts, each unclipped triangle's
// set-up triangle in tris at its index in the batch (tris holds b.n), and
// the shading records in recs where the batch keeps them.
func (s *setupStage) countPass(b *setupBatch, tris gpu.Array[gpuTri], recs *shadeRecords) error {
	all, clip, err := s.counting(b.records)
	if err != nil {
		return err
	}
	if err := grow(s.c, &s.counts, 2*b.n+2, "setup counts"); err != nil {
		return err
	}
	s.stats.Write(0, []uint32{0, 0, 0, 0, 0, 0, 1, 1, 0, 0})
	s.c.Do(func() {
		s.bindVertices(b)
		s.c.BindStorage(bindingSetupCounts, s.counts)
		s.c.BindStorage(bindingSetupStats, s.stats)
		s.c.BindStorage(bindingTris, tris)
		// The counting passes declare the emitting passes' outputs but
		// leave them alone.
		s.c.BindStorage(bindingTriSlots, nil)
		s.c.BindStorage(bindingRows, nil)
		b.recordInputs(s.c, s.nrmTexels, recs, all, clip)
		s.passes(all, clip, b)
	})
	return nil
}

// emitPass numbers the set-up triangles, given s.counts replaced by its
// exclusive scan and total, the counts' sum: set-up triangle k lies at
// tris[slots[k]], and rows[k] is its workload. The counting pass left the
// unclipped ones in tris; the clipping one writes the others at
// tris[b.n + k] (tris holds b.n + total).
func (s *setupStage) emitPass(b *setupBatch, total int, tris gpu.Array[gpuTri], slots, rows gpu.Array[uint32]) {
	s.c.Do(func() {
		s.bindVertices(b)
		s.c.BindStorage(bindingSetupCounts, s.counts)
		s.c.BindStorage(bindingTris, tris)
		s.c.BindStorage(bindingTriSlots, slots)
		s.c.BindStorage(bindingRows, rows)
		s.c.BindStorage(bindingSetupStats, s.stats)
		s.emit.SetUint("numOut", uint32(total))
		s.emitClip.SetUint("numOut", uint32(total))
		s.passes(s.emit, s.emitClip, b)
	})
}

// readStats returns the skip statistics of the last counting pass, how
// many of its set-up triangles have an area2 of 2^28 or more, and how many
// reach past the batch's box.
func (s *setupStage) readStats(input, output int) (st raster.SetupStats, large, outsideBox int) {
	v := s.stats.Download()
	return raster.SetupStats{Input: input, Outside: int(v[0]), Clipped: int(v[1]), NonFinite: int(v[2]), ZeroArea: int(v[3]), Output: output}, int(v[setupStatLarge]), int(v[setupStatOutBox])
}

// setupInput is the setup stage's input: triangles of block from first
// (primitive ids from base+first), at most limit of them (0: no limit),
// transformed by mvp into a width x height image (the renderer's), the
// frame's box (shadedBox) to check, and whether to store shading records
// (for cam's view).
type setupInput struct {
	block       *mesh.GPU
	first, base int
	limit       int
	mvp         *[16]float32
	cam         *view.Camera
	box         [4]int
	records     bool
}

// setupOutput is what the setup stage made: the batch, its skip
// statistics, its set-up triangles that reach past the box, and the batch
// size to start the next batches with (the input's limit unless the batch
// had to shrink).
type setupOutput struct {
	batch      batch
	stats      raster.SetupStats
	outsideBox int
	limit      int
}

// setUp transforms, clips and sets up a batch of triangles: as many as
// the input's limit allows whose set-up triangles and spans fit a storage
// block each, shrinking the batch until they do. The set-up triangles are
// left in r.tris, their rows in r.rows and their first spans (the rows'
// exclusive scan) in r.spanBase.
func (r *Renderer) setUp(in setupInput, tm stageTimer) (setupOutput, error) {
	b := in.block
	// r.tris holds a set-up triangle per input triangle of the batch,
	// then the clipped ones' (setupStage.emitPass).
	n := min(b.N-in.first, r.maxSetup)
	if in.limit > 0 {
		n = min(n, in.limit)
	}
	out := setupOutput{limit: in.limit}
	sb := &setupBatch{pos: b.Positions.Slice(0, 3*b.N), first: in.first, primBase: uint32(in.base + in.first), mvp: in.mvp, width: r.opts.Width, height: r.opts.Height, box: in.box,
		records: in.records, normals: b.Normals.Slice(0, 3*b.N), cam: in.cam, mat: r.opts.Material}
	for {
		sb.n = n
		total, err := r.setupCount(sb, tm)
		if err != nil {
			return out, err
		}
		if n+total > r.maxSetup {
			n = shrinkBatch(n, n+total, r.maxSetup)
			out.limit = n
			continue
		}
		if n+total > r.tris.Len() {
			if err := grow(r.c, &r.tris, n+total, "set-up triangles"); err != nil {
				return out, err
			}
			continue
		}
		var spans, large int
		err = tm.timed(StageSetup, func() (err error) {
			spans, large, err = r.setupEmit(sb, total, &out)
			return err
		})
		if err != nil {
			return out, err
		}
		if spans > r.maxSpans {
			n = shrinkBatch(n, spans, r.maxSpans)
			out.limit = n
			continue
		}
		out.batch = batch{n: n, tris: total, spans: spans, exactDepth: large == 0}
		return out, nil
	}
}

// setupCount runs the counting passes over sb and scans their counts
// (StageTransformClip), and returns the batch's set-up triangles. Each
// scan runs over one more element than it has counts, a zero the counting
// and emitting passes write, so that the last offset is the total.
func (r *Renderer) setupCount(sb *setupBatch, tm stageTimer) (total int, err error) {
	n := sb.n
	err = tm.timed(StageTransformClip, func() error {
		// Room for the inputs' set-up triangles and a few clipped ones;
		// a batch that clips more runs again with more.
		if err := grow(r.c, &r.tris, min(n+n/8+64, r.maxSetup), "set-up triangles"); err != nil {
			return err
		}
		if err := r.setup.countPass(sb, r.tris, r.recs); err != nil {
			return err
		}
		counts := r.setup.counts.Slice(0, n+1)
		scan.Offsets(r.sc, counts, counts)
		total = int(r.setup.counts.Get(n))
		return nil
	})
	return total, err
}

// setupEmit runs the emitting passes over sb's total set-up triangles and
// scans their rows into each one's first span; it returns the spans, the
// set-up triangles too large for depths in doubles, and the skip
// statistics and the triangles past the box in out.
func (r *Renderer) setupEmit(sb *setupBatch, total int, out *setupOutput) (spans, large int, err error) {
	if err := grow(r.c, &r.slots, total, "set-up triangles' slots"); err != nil {
		return 0, 0, err
	}
	if err := grow(r.c, &r.rows, total+1, "triangle rows"); err != nil {
		return 0, 0, err
	}
	if err := grow(r.c, &r.spanBase, total+1, "span offsets"); err != nil {
		return 0, 0, err
	}
	r.setup.emitPass(sb, total, r.tris, r.slots, r.rows)
	// Each set-up triangle's first span; the last is the spans' total.
	scan.Offsets(r.sc, r.spanBase.Slice(0, total+1), r.rows.Slice(0, total+1))
	out.stats, large, out.outsideBox = r.setup.readStats(sb.n, total)
	return int(r.spanBase.Get(total)), large, nil
}
