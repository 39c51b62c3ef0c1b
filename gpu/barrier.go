package gpu

import "github.com/go-gl/gl/v4.5-core/gl"

// Barrier names what later commands need to see of earlier shader writes
// (glMemoryBarrier bits). Issue the one the next stage needs, not all.
type Barrier uint32

const (
	// BarrierStorage: shader storage written by a dispatch is read or
	// written by a later shader.
	BarrierStorage Barrier = gl.SHADER_STORAGE_BARRIER_BIT
	// BarrierCommand: a shader wrote indirect dispatch or draw arguments.
	BarrierCommand Barrier = gl.COMMAND_BARRIER_BIT
	// BarrierBufferUpdate: a shader wrote a buffer that a GL call then reads
	// or writes (glGetBufferSubData, glCopyBufferSubData, glClearBufferData).
	// The methods of Buffer issue it themselves when a shader may have
	// written since it was last issued.
	BarrierBufferUpdate Barrier = gl.BUFFER_UPDATE_BARRIER_BIT
	// BarrierVertex: a shader wrote vertex attributes or indices for a draw.
	BarrierVertex Barrier = gl.VERTEX_ATTRIB_ARRAY_BARRIER_BIT | gl.ELEMENT_ARRAY_BARRIER_BIT
	// BarrierImage: shader image stores read by later image loads.
	BarrierImage Barrier = gl.SHADER_IMAGE_ACCESS_BARRIER_BIT
	// BarrierTexture: shader writes read through texture fetches or
	// texture copies and downloads.
	BarrierTexture Barrier = gl.TEXTURE_FETCH_BARRIER_BIT | gl.TEXTURE_UPDATE_BARRIER_BIT
	// BarrierFramebuffer: shader image writes read as a framebuffer.
	BarrierFramebuffer Barrier = gl.FRAMEBUFFER_BARRIER_BIT

	// barrierPixelBuffer: a shader wrote a buffer that a pixel transfer
	// then reads as GL_PIXEL_UNPACK_BUFFER (Texture.CopyFromBuffer).
	barrierPixelBuffer Barrier = gl.PIXEL_BUFFER_BARRIER_BIT
	// barrierTextureUpdate: what glGetTextureImage and glTextureSubImage2D
	// of a texture need after shaders wrote it, as an image or through a
	// framebuffer.
	barrierTextureUpdate Barrier = gl.TEXTURE_UPDATE_BARRIER_BIT | gl.FRAMEBUFFER_BARRIER_BIT
	barrierAll           Barrier = gl.ALL_BARRIER_BITS
)

// A GL call that reads memory a shader wrote (glGetBufferSubData,
// glCopyBufferSubData, glGetTextureImage, a pixel-buffer upload) sees the
// writes only after a glMemoryBarrier with the bit for that kind of access;
// a GL call that writes such memory must wait for them the same way. The
// context keeps the bits that no barrier has issued since the last
// dispatch or draw (Context.unissued), and the read-backs and copies of
// this package issue the ones they need through need: callers never have
// to, and a second Read after one dispatch issues nothing.

// Barrier issues glMemoryBarrier(b). It must run on the GL thread.
func (c *Context) Barrier(b Barrier) {
	c.mustOnThread("Barrier")
	c.memoryBarrier(b)
}

func (c *Context) memoryBarrier(b Barrier) {
	gl.MemoryBarrier(uint32(b))
	c.check("glMemoryBarrier")
	c.unissued &^= b
	c.barriers++
	c.lastBarrier = b
}

// shaderWrote records that a dispatch or a draw may have written memory
// that later GL calls read: every kind of barrier is owed again.
func (c *Context) shaderWrote() { c.unissued = barrierAll }

// need issues the bits of b that a shader's writes still owe, if any. It
// runs on the GL thread.
func (c *Context) need(b Barrier) {
	if owed := c.unissued & b; owed != 0 {
		c.memoryBarrier(owed)
	}
}
