package rasterizer

import (
	"math"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/view"
)

// shadeRecords holds a frame's shading records (shaders/rasterizer/
// shaderecord.glsl): per primitive id three vec4, K's columns, which the
// setup passes store for every triangle they set up and the shading reads
// for the triangle that won a pixel. A pixel's shading then multiplies a
// matrix by the pixel instead of transforming the triangle's vertices and
// interpolating its normals. A mesh whose records would not fit a storage
// block is shaded without them: shade.glsl computes the same matrix per
// pixel, the same bits.
type shadeRecords struct {
	c    *gpu.Context
	buf  *gpu.Buffer[mesh.Vec4]
	tex  *gpu.TexelBuffer // for the shading kernels that read buffer textures (SHADE_TEXELS)
	most int              // the most triangles one storage block's records cover
}

func newShadeRecords(c *gpu.Context) *shadeRecords {
	return &shadeRecords{c: c, most: int(min(c.Caps().MaxSSBOSize/int64(3*16), math.MaxInt32/3))}
}

func (s *shadeRecords) delete() {
	if s != nil {
		s.buf.Delete()
		s.tex.Delete()
	}
}

// prepare makes room for the records of n triangles and says whether the
// frame keeps them (false where they would not fit a storage block). On
// the GL thread.
func (s *shadeRecords) prepare(n int) (bool, error) {
	if n > s.most {
		return false, nil
	}
	if err := grow(s.c, &s.buf, 3*max(n, 1), "shading records"); err != nil {
		return false, err
	}
	return true, nil
}

// bindStore binds the records for the setup passes to write, on the GL
// thread.
func (s *shadeRecords) bindStore() { s.c.BindStorage(bindingShadeRecs, s.buf) }

// bindRead binds the records of n triangles for a shading kernel to read:
// as a buffer texture where it reads them so (texels), else as a storage
// block. On the GL thread, after the setup passes' writes.
func (s *shadeRecords) bindRead(n int, texels bool) error {
	if !texels {
		s.c.BindStorage(bindingShadeRecs, s.buf)
		return nil
	}
	if s.tex == nil {
		var err error
		if s.tex, err = gpu.NewTexelBuffer(s.c); err != nil {
			return err
		}
	}
	s.c.Barrier(gpu.BarrierTexture)
	s.c.BindTexels(unitShadeRecs, s.tex, s.buf.Slice(0, 3*max(n, 1)), gpu.TexelRGBA32F)
	return nil
}

// setRecordUniforms sets what the setup passes need to store records, and
// the shading to work them out per pixel (setShading): the normal matrix
// of cam and the material's shading.
func setRecordUniforms(p *gpu.Program, cam *view.Camera, mat Material) {
	p.SetMat4("normalMatrix", [16]float32(normalMatrix(*cam)))
	flat := int32(0)
	if mat.Shading == Flat {
		flat = 1
	}
	p.SetInt("flatShading", flat)
}
