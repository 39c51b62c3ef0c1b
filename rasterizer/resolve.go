package rasterizer

import (
	"errors"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/view"
)

// resolveStage runs shaders/rasterizer/resolve.comp.
type resolveStage struct {
	c *gpu.Context
	// prog[records][quads]: [1][...] reads the frame's shading records,
	// [0][...] works them out per pixel (Renderer.Resolve's words, or a
	// mesh too large for them); [...][1] (QUADS) shades four pixels an
	// invocation, for a mesh of one block and an image width that is a
	// multiple of 4. Made when first used.
	prog [2][2]*gpu.Program
	// merging[records] is the QUADS variant that first merges the frame's
	// last batch's winning keys (resolve.comp MERGE: the 32-bit path).
	merging [2]*gpu.Program
	// texels says that the shading reads the mesh's vertices and normals
	// as buffer textures (shade.glsl SHADE_TEXELS, as the tiled path's
	// does: llvmpipe gathers a texel for a vector's lanes at once, where
	// a storage block's load is a scalar access per lane and word), where
	// the driver's texel limit covers any storage block.
	texels               bool
	posTexels, nrmTexels *gpu.TexelBuffer
}

// newTexelBuffers makes the buffer textures *ts of a stage whose kernels
// read buffer textures; on an error the ones made are left for the
// stage's delete.
func newTexelBuffers(c *gpu.Context, ts ...**gpu.TexelBuffer) (err error) {
	for _, t := range ts {
		if *t, err = gpu.NewTexelBuffer(c); err != nil {
			return err
		}
	}
	return nil
}

// define is a kernel's 0/1 define (TEXELS, SHADE_RECORDS, ...) for b.
func define(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// bit is 1 for true and 0 for false: the index of a kernel variant in the
// stages' arrays of them.
func bit(b bool) int {
	if b {
		return 1
	}
	return 0
}

func newResolveStage(c *gpu.Context, storageBlocks bool) (s *resolveStage, err error) {
	s = &resolveStage{c: c}
	defer func() {
		if err != nil {
			s.delete()
			s = nil
		}
	}()
	s.texels = texelInputs(c, storageBlocks)
	if s.texels {
		if err = newTexelBuffers(c, &s.posTexels, &s.nrmTexels); err != nil {
			return nil, err
		}
	}
	if _, err := s.program(true, true, false); err != nil {
		return nil, err
	}
	return s, nil
}

// program returns resolve.comp's variant that reads records or not, four
// pixels an invocation (quads) or one, merging keys first (merge, with
// quads) or not.
func (s *resolveStage) program(records, quads, merge bool) (*gpu.Program, error) {
	r, q := bit(records), bit(quads)
	p := &s.prog[r][q]
	if merge {
		p = &s.merging[r]
	}
	if *p == nil {
		prog, err := s.c.Program("rasterizer/resolve.comp", map[string]string{"SHADE_TEXELS": define(s.texels), "SHADE_RECORDS": define(records), "QUADS": define(quads), "MERGE": define(merge)})
		if err != nil {
			return nil, err
		}
		*p = prog
	}
	return *p, nil
}

// keyMerge is a batch's merge of the 32-bit path's winning keys
// (prepare.comp MERGE_KEYS), left for the resolve pass to do as it shades
// (resolve.comp MERGE) when the batch is the frame's last: the depth and
// id buffers, each pixel's (winner, filter) pair, the batch's keys from
// keyBase, and whether nothing was merged into the buffers since they
// were cleared.
type keyMerge struct {
	depth   *gpu.Buffer[uint32]
	winner  *gpu.Buffer[[2]uint32]
	zkeys   *gpu.Buffer[uint32]
	keyBase uint32
	cleared bool
}

// bind binds the merge's buffers and sets its uniforms in p (MERGE_KEYS
// or resolve.comp MERGE), on the GL thread.
func (m *keyMerge) bind(c *gpu.Context, p *gpu.Program) {
	c.BindStorage(bindingVisibility, m.depth)
	c.BindStorage(bindingWinner, m.winner)
	c.BindStorage(bindingZKeys, m.zkeys)
	p.SetUint("keyBase", m.keyBase)
	p.SetInt("cleared", int32(bit(m.cleared)))
}

func (s *resolveStage) delete() {
	s.posTexels.Delete()
	s.nrmTexels.Delete()
}

func unorm(c uint8) float32 { return float32(c) / 255 }

// run shades every pixel of prims (one primitive id a pixel, bottom row
// first) into rgba (RGBA8 packed, R in the low byte), one pass per block of
// the mesh (each shades the pixels its triangles won, and every pass
// paints the background; one pass without a block when there is none),
// from the shading records of recs where it is not nil (the frame's setup
// stored them), else from the vertices. Only the pixels [box[0], box[2])
// x [box[1], box[3]) can hold a primitive (the whole image, or a frame's
// verified shadedBox): the passes shade those, a fill paints the others.
// With a merge (the 32-bit path's last batch), the pass first merges the
// batch's winning keys into the depth and ids (quadsPass must have said
// yes). Must run on the GL thread.
func (s *resolveStage) run(blocks []*mesh.GPU, prims, rgba gpu.Array[uint32], cam view.Camera, mat Material, w, h int, recs *shadeRecords, box [4]int, merge *keyMerge) error {
	if len(blocks) == 0 {
		blocks = []*mesh.GPU{nil}
	}
	quads := quadsPass(blocks, w)
	if merge != nil && !quads {
		return errors.New("rasterizer: internal error: the resolve pass was given a merge it cannot take (a mesh of several blocks, or a width not a multiple of 4)")
	}
	p, err := s.program(recs != nil, quads, merge != nil)
	if err != nil {
		return err
	}
	if merge != nil {
		merge.bind(s.c, p)
	}
	if recs != nil {
		n := 0
		for _, b := range blocks {
			if b != nil {
				n += b.N
			}
		}
		if err := recs.bindRead(n, s.texels); err != nil {
			return err
		}
	}
	if s.texels {
		// The vertices and normals may come from shaders (the
		// isosurface's), read here through texture fetches.
		s.c.Barrier(gpu.BarrierTexture)
	}
	if quads {
		box = quadAligned(box, w)
	}
	if box != [4]int{0, 0, w, h} {
		// The background outside the box by a fill, the box by the
		// passes (they paint its background too).
		buf, off := rgba.Base()
		buf.FillRange(off, rgba.Len(), PackRGBA(mat.Background))
	}
	if box[0] < box[2] && box[1] < box[3] {
		base := 0
		for _, b := range blocks {
			s.pass(p, quads, b, base, prims, rgba, cam, mat, w, h, box)
			if b != nil {
				base += b.N
			}
		}
	}
	s.c.Barrier(gpu.BarrierStorage)
	return nil
}

// quadsPass says whether run shades blocks into an image w pixels wide
// four pixels an invocation (QUADS: one block, a width that is a multiple
// of 4): the only pass that can merge a batch's keys as it shades.
func quadsPass(blocks []*mesh.GPU, w int) bool {
	return len(blocks) == 1 && blocks[0] != nil && w%4 == 0
}

// shadedBox returns the pixels [x0, x1) x [y0, y1) (as x0, y0, x1, y1)
// that the triangles of blocks can cover as cam sees them: the box that
// the mesh's bounds (the first block's, which hold the chain's) project
// to, two pixels wider on every side, within the image. Where the bounds
// are unknown, reach to or behind the eye (w <= 0 at a corner), or do not
// project to finite numbers, the whole image. The box is convex and lies
// in front of the eye, so its projection is the convex hull of its
// corners'; a covered pixel's centre lies within a triangle, which lies
// within it, and the two pixels take up the snapping to subpixels and the
// float32 transform's rounding. The unzoomed views leave half the image or
// more outside. Bounds are the mesh's writer's word, so the setup passes
// check every set-up triangle against the box, and a frame with one
// outside it shades the whole image (frame.checkedBox).
func shadedBox(blocks []*mesh.GPU, cam view.Camera, w, h int) [4]int {
	whole := [4]int{0, 0, w, h}
	cs, ok := boundsCorners(blocks, cam)
	if !ok {
		return whole
	}
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, c := range cs {
		if !(c[3] > 0) {
			return whole
		}
		x := (c[0]/c[3] + 1) * 0.5 * float64(w)
		y := (c[1]/c[3] + 1) * 0.5 * float64(h)
		if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
			return whole
		}
		minX, maxX = math.Min(minX, x), math.Max(maxX, x)
		minY, maxY = math.Min(minY, y), math.Max(maxY, y)
	}
	clampTo := func(v float64, n int) int { return int(math.Max(0, math.Min(float64(n), v))) }
	return [4]int{clampTo(math.Floor(minX)-2, w), clampTo(math.Floor(minY)-2, h), clampTo(math.Ceil(maxX)+2, w), clampTo(math.Ceil(maxY)+2, h)}
}

// boundsCorners returns the corners of the mesh's bounds (the first
// block's, which hold the chain's) in clip space as cam sees them, in
// float64; ok is false where the bounds are unknown.
func boundsCorners(blocks []*mesh.GPU, cam view.Camera) (cs [8][4]float64, ok bool) {
	if len(blocks) == 0 || blocks[0] == nil {
		return cs, false
	}
	lo, hi, ok := blocks[0].Bounds()
	if !ok {
		return cs, false
	}
	m := cam.MVP()
	for k := range cs {
		p := [3]float64{float64(lo[0]), float64(lo[1]), float64(lo[2])}
		for a := 0; a < 3; a++ {
			if k>>a&1 != 0 {
				p[a] = float64(hi[a])
			}
		}
		// Column-major: row i of m * (p, 1).
		for i := 0; i < 4; i++ {
			cs[k][i] = float64(m[i])*p[0] + float64(m[4+i])*p[1] + float64(m[8+i])*p[2] + float64(m[12+i])
		}
	}
	return cs, true
}

// boundsInView says whether the mesh's bounds lie within cam's view
// volume, a thousandth of w inside each plane, so that no triangle lies
// wholly outside it (raster.glsl's clipClass, in float32, decides): false
// where the bounds are unknown. The box and the volume are convex, so the
// corners decide. A speed hint only (the tiled setup's culling pass).
func boundsInView(blocks []*mesh.GPU, cam view.Camera) bool {
	cs, ok := boundsCorners(blocks, cam)
	if !ok {
		return false
	}
	for _, c := range cs {
		in := c[3] * (1 - 1e-3)
		if !(c[3] > 0 && math.Abs(c[0]) < in && math.Abs(c[1]) < in && math.Abs(c[2]) < in) {
			return false
		}
	}
	return true
}

// quadAligned is box widened to whole quads, four pixels of a row whose
// first x is a multiple of 4, of an image w pixels wide (w a multiple of
// 4).
func quadAligned(box [4]int, w int) [4]int {
	box[0] &^= 3
	box[2] = min(w, (box[2]+3)&^3)
	return box
}

// pass shades the pixels of box (shadedBox) whose primitive lies in block
// b, whose first triangle has id base.
func (s *resolveStage) pass(p *gpu.Program, quads bool, b *mesh.GPU, base int, prims, rgba gpu.Array[uint32], cam view.Camera, mat Material, w, h int, box [4]int) {
	n := 0
	if b != nil {
		n = b.N
	}
	setShading(s.c, p, b, cam, mat)
	if s.texels && b != nil {
		s.c.BindTexels(unitPositions, s.posTexels, b.Positions.Slice(0, 3*b.N), gpu.TexelRGBA32F)
		s.c.BindTexels(unitNormals, s.nrmTexels, b.Normals.Slice(0, 3*b.N), gpu.TexelRGBA32F)
	}
	p.SetUint("primBase", uint32(base))
	p.SetUint("primCount", uint32(n))
	s.c.BindStorage(bindingPrims, prims)
	s.c.BindStorage(bindingImage, rgba)
	p.SetIvec2("size", int32(w), int32(h))
	p.SetIvec2("origin", int32(box[0]), int32(box[1]))
	if quads {
		p.DispatchInvocations2D((box[2]-box[0])/4, box[3]-box[1])
		return
	}
	p.DispatchInvocations2D(box[2]-box[0], box[3]-box[1])
}

// setShading binds block b's positions and normals (none for a nil b) and
// sets the uniforms of shaders/rasterizer/shade.glsl in p for camera cam
// and material mat, on the GL thread.
func setShading(c *gpu.Context, p *gpu.Program, b *mesh.GPU, cam view.Camera, mat Material) {
	if b != nil {
		c.BindStorage(bindingPositions, b.Positions)
		c.BindStorage(bindingNormals, b.Normals)
	} else {
		c.BindStorage(bindingPositions, nil)
		c.BindStorage(bindingNormals, nil)
	}
	setRecordUniforms(p, &cam, mat) // the normal matrix and flat shading
	// An orthographic projection leaves w = 1 whatever the depth: its
	// bottom row is (0, 0, 0, 1).
	ortho := int32(0)
	if pr := cam.Projection; pr[3] == 0 && pr[7] == 0 && pr[11] == 0 && pr[15] == 1 {
		ortho = 1
	}
	p.SetInt("orthographic", ortho)
	p.SetMat4("mvp", cam.MVP())
	p.SetMat4("eyeRay", eyeRay(cam.Projection))
	p.SetVec4("baseColor", unorm(mat.Base.R), unorm(mat.Base.G), unorm(mat.Base.B), 1)
	p.SetVec4("background", unorm(mat.Background.R), unorm(mat.Background.G), unorm(mat.Background.B), unorm(mat.Background.A))
	p.SetVec4("material", mat.Ambient, mat.Diffuse, mat.Specular, float32(math.Max(float64(mat.Shininess), 1)))
}

// resolveInput is the resolve stage's input: the mesh's blocks as cam
// sees them, whether the frame stored shading records, and the pixels
// that can hold a primitive (frame.checkedBox).
type resolveInput struct {
	blocks  []*mesh.GPU
	cam     view.Camera
	records bool
	box     [4]int
}

// resolveFrame ends a frame that its batches did not shade (the tiled
// path's one batch does): the visibility buffer cleared if no batch
// reached the z-buffer (an empty or invisible mesh), the 64-bit path's
// primitive ids extracted, and every pixel shaded, with the 32-bit path's
// last merge (vs.pending) folded in where the pass can take it.
func (r *Renderer) resolveFrame(in resolveInput, vs *visState, tm stageTimer) error {
	w, h := r.opts.Width, r.opts.Height
	if !vs.cleared {
		tm.timedGL(StageZPrepare, func() { r.clearVisibility(vs) })
	}
	if r.vis64 {
		tm.timedGL(StageExtract, func() {
			r.c.BindStorage(bindingVisibility, r.depth)
			r.c.BindStorage(bindingPrims, r.prims)
			r.prepare.run(extractPrims, w*h)
		})
	}
	var recs *shadeRecords
	if in.records {
		recs = r.recs
	}
	r.lastBox = in.box
	// The last batch's merge in the resolve pass where it can take it
	// (one pass over the box, and one dispatch, fewer), else on its own.
	merge := vs.pending
	if merge != nil && (r.test.resolveMergeApart || !quadsPass(in.blocks, w)) {
		r.flushMerge(vs, in.box, tm)
		merge = nil
	}
	vs.pending = nil
	r.lastFolded = merge != nil
	var err error
	tm.timedGL(StageResolve, func() {
		err = r.resolve.run(in.blocks, r.prims, r.rgba, in.cam, r.opts.Material, w, h, recs, in.box, merge)
	})
	return err
}

// normalMatrix is the inverse transpose of cam's view matrix (its upper
// 3x3: shade.glsl's and shaderecord.glsl's normalMatrix).
func normalMatrix(cam view.Camera) mgl32.Mat4 { return cam.View.Mat3().Inv().Transpose().Mat4() }

// eyeRay is shade.glsl's, a 3x3 matrix in the upper left of a 4x4 one:
// the columns 0, 1 and 3 of the inverse of projection pr, whose product
// with (x, y, 1) is the eye-space point at depth 0 of normalized device
// coordinates on the ray of (x, y); zero where pr has no inverse (the
// shader then looks down -z).
func eyeRay(pr mgl32.Mat4) [16]float32 {
	inv := pr.Inv()
	var m [16]float32
	for j, c := range [3]int{0, 1, 3} {
		col := inv.Col(c)
		m[4*j], m[4*j+1], m[4*j+2] = col[0], col[1], col[2]
	}
	return m
}
