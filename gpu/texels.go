package gpu

import (
	"fmt"

	"github.com/go-gl/gl/v4.5-core/gl"
)

// TexelFormat is how a TexelBuffer reads its storage: four 32-bit
// components a texel, 16 bytes, or one (TexelR32UI), 4 bytes.
type TexelFormat uint32

// Texel formats: floats (samplerBuffer), signed (isamplerBuffer) and
// unsigned integers (usamplerBuffer), four words a texel; one unsigned
// word a texel (usamplerBuffer, in .x).
const (
	TexelRGBA32F  TexelFormat = gl.RGBA32F
	TexelRGBA32I  TexelFormat = gl.RGBA32I
	TexelRGBA32UI TexelFormat = gl.RGBA32UI
	TexelR32UI    TexelFormat = gl.R32UI
)

// texelBytes is the size of a texel of format f.
func texelBytes(f TexelFormat) int {
	if f == TexelR32UI {
		return 4
	}
	return 16
}

// TexelBuffer is a buffer texture (GL_TEXTURE_BUFFER): a storage range that
// shaders read by texelFetch on a sampler, a texel of four words at a time
// or of one (TexelFormat).
// Its bits are the storage's, so a texel holds the same values a storage
// block's load would. (llvmpipe fetches a texel for a SIMD vector's lanes
// with one gather, where a storage block's load with an address that
// differs between lanes is a scalar access per lane and word.) It points
// at no storage until BindTexels.
type TexelBuffer struct {
	ctx     *Context
	id      uint32
	deleted bool
}

// NewTexelBuffer makes a buffer texture.
func NewTexelBuffer(c *Context) (*TexelBuffer, error) {
	t := &TexelBuffer{ctx: c}
	var err error
	c.Do(func() {
		glError()
		gl.CreateTextures(gl.TEXTURE_BUFFER, 1, &t.id)
		if e := glError(); e != "" || t.id == 0 {
			if t.id != 0 {
				gl.DeleteTextures(1, &t.id)
			}
			err = fmt.Errorf("gpu: NewTexelBuffer: %s", e)
			return
		}
		c.track(KindTexture, 1)
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// Delete frees the texture (not the storage it reads). Delete is
// idempotent, and a nil *TexelBuffer's is a no-op.
func (t *TexelBuffer) Delete() {
	if t == nil || t.deleted {
		return
	}
	t.deleted = true
	t.ctx.Do(func() {
		gl.DeleteTextures(1, &t.id)
		t.ctx.track(KindTexture, -1)
	})
	t.id = 0
}

// MaxTexels is the most texels a TexelBuffer may read
// (GL_MAX_TEXTURE_BUFFER_SIZE), on the GL thread.
func (c *Context) MaxTexels() int {
	c.mustOnThread("MaxTexels")
	var n int32
	gl.GetIntegerv(gl.MAX_TEXTURE_BUFFER_SIZE, &n)
	return int(n)
}

// BindTexels points t at storage s, read in format f, and binds it to
// texture unit unit (a sampler's layout(binding = unit)), on the GL thread.
// s's bytes must be whole texels, at most MaxTexels of them, starting at
// a multiple of the driver's GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT; a
// zero-size s leaves the unit without a texture.
func (c *Context) BindTexels(unit int, t *TexelBuffer, s Storage, f TexelFormat) {
	c.mustOnThread("BindTexels")
	if t == nil || t.deleted {
		panic("gpu: BindTexels: a nil or deleted TexelBuffer")
	}
	if t.ctx != c {
		panic("gpu: BindTexels: the TexelBuffer belongs to another Context")
	}
	var units, align int32
	gl.GetIntegerv(gl.MAX_COMBINED_TEXTURE_IMAGE_UNITS, &units)
	if unit < 0 || unit >= int(units) {
		panic(fmt.Sprintf("gpu: BindTexels: unit %d out of the driver's 0..%d", unit, units-1))
	}
	if s.ByteSize() == 0 || s.bufferID() == 0 {
		gl.BindTextureUnit(uint32(unit), 0)
		c.check("glBindTextureUnit")
		return
	}
	gl.GetIntegerv(gl.TEXTURE_BUFFER_OFFSET_ALIGNMENT, &align)
	off, size := s.ByteOffset(), s.ByteSize()
	tb := texelBytes(f)
	if size%tb != 0 || (align > 0 && off%int(align) != 0) {
		panic(fmt.Sprintf("gpu: BindTexels: bytes [%d, %d) are not whole texels of %d bytes from a multiple of %d", off, off+size, tb, align))
	}
	if n := size / tb; n > c.MaxTexels() {
		panic(fmt.Sprintf("gpu: BindTexels: %d texels exceed the driver's %d (GL_MAX_TEXTURE_BUFFER_SIZE)", n, c.MaxTexels()))
	}
	gl.TextureBufferRange(t.id, uint32(f), s.bufferID(), off, size)
	gl.BindTextureUnit(uint32(unit), t.id)
	c.check("glTextureBufferRange")
}
