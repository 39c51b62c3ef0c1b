package gpu

import (
	"fmt"
	"unsafe"

	"github.com/go-gl/gl/v4.5-core/gl"
)

// TextureFormat is the storage format of a Texture.
type TextureFormat int

const (
	RGBA8    TextureFormat = iota // 8-bit normalized RGBA; 4 bytes a pixel
	R32UI                         // one uint32 a pixel (primitive ids)
	R32F                          // one float32 a pixel
	Depth32F                      // 32-bit float depth, for depth testing
)

type texFormat struct {
	internal, format, typ uint32
	bytes                 int
	name                  string
}

var texFormats = map[TextureFormat]texFormat{
	RGBA8:    {gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, 4, "RGBA8"},
	R32UI:    {gl.R32UI, gl.RED_INTEGER, gl.UNSIGNED_INT, 4, "R32UI"},
	R32F:     {gl.R32F, gl.RED, gl.FLOAT, 4, "R32F"},
	Depth32F: {gl.DEPTH_COMPONENT32F, gl.DEPTH_COMPONENT, gl.FLOAT, 4, "Depth32F"},
}

// Texture is a 2-D texture of W x H pixels with one mip level. Rows are
// stored bottom-up, as GL numbers them: row 0 is the bottom of the image.
type Texture struct {
	ctx    *Context
	id     uint32
	W, H   int
	Format TextureFormat
}

// NewTexture allocates a texture.
func NewTexture(c *Context, w, h int, f TextureFormat) (*Texture, error) {
	tf, ok := texFormats[f]
	if !ok {
		panic(fmt.Sprintf("gpu: NewTexture: unknown format %d", f))
	}
	if w <= 0 || h <= 0 {
		panic(fmt.Sprintf("gpu: NewTexture: size %dx%d is not positive", w, h))
	}
	t := &Texture{ctx: c, W: w, H: h, Format: f}
	var err error
	c.Do(func() {
		var max int32
		gl.GetIntegerv(gl.MAX_TEXTURE_SIZE, &max)
		if w > int(max) || h > int(max) {
			err = fmt.Errorf("gpu: NewTexture: %dx%d exceeds the driver's GL_MAX_TEXTURE_SIZE %d", w, h, max)
			return
		}
		glError()
		gl.CreateTextures(gl.TEXTURE_2D, 1, &t.id)
		gl.TextureStorage2D(t.id, 1, tf.internal, int32(w), int32(h))
		if e := glError(); e != "" {
			gl.DeleteTextures(1, &t.id)
			err = fmt.Errorf("gpu: NewTexture %dx%d %s: %s", w, h, tf.name, e)
			return
		}
		gl.TextureParameteri(t.id, gl.TEXTURE_MIN_FILTER, gl.NEAREST)
		gl.TextureParameteri(t.id, gl.TEXTURE_MAG_FILTER, gl.NEAREST)
		c.track(KindTexture, 1)
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// Bytes is the size of the texture's pixels in bytes.
func (t *Texture) Bytes() int { return t.W * t.H * texFormats[t.Format].bytes }

// Read returns the pixels, bottom row first, 4 bytes a pixel. It issues
// the memory barrier that shader writes to the texture owe it, and waits
// for the GPU.
func (t *Texture) Read() []byte {
	if t.id == 0 {
		panic("gpu: Texture.Read on a deleted Texture")
	}
	tf := texFormats[t.Format]
	out := make([]byte, t.Bytes())
	t.ctx.Do(func() {
		t.ctx.need(barrierTextureUpdate) // shader image stores into it
		gl.PixelStorei(gl.PACK_ALIGNMENT, 4)
		gl.GetTextureImage(t.id, 0, tf.format, tf.typ, int32(len(out)), unsafe.Pointer(&out[0]))
		t.ctx.check("glGetTextureImage")
		t.ctx.readBacks.Add(1)
	})
	return out
}

// ReadUint32 returns the pixels as uint32, bottom row first (R32UI ids, or
// RGBA8 packed with R in the low byte).
func (t *Texture) ReadUint32() []uint32 {
	b := t.Read()
	return unsafe.Slice((*uint32)(unsafe.Pointer(&b[0])), len(b)/4)
}

// Write uploads pixels (bottom row first, 4 bytes a pixel, len = Bytes()).
func (t *Texture) Write(pixels []byte) {
	if len(pixels) != t.Bytes() {
		panic(fmt.Sprintf("gpu: Texture.Write: %d bytes for a %dx%d texture of %d", len(pixels), t.W, t.H, t.Bytes()))
	}
	tf := texFormats[t.Format]
	t.ctx.Do(func() {
		t.ctx.need(barrierTextureUpdate) // after shader writes to the texture
		gl.PixelStorei(gl.UNPACK_ALIGNMENT, 4)
		gl.TextureSubImage2D(t.id, 0, 0, 0, int32(t.W), int32(t.H), tf.format, tf.typ, unsafe.Pointer(&pixels[0]))
		t.ctx.check("glTextureSubImage2D")
	})
}

// CopyFromBuffer copies W*H pixels of 4 bytes, bottom row first, from a
// storage buffer into the texture on the GPU (through GL_PIXEL_UNPACK_BUFFER),
// e.g. an image a compute shader wrote. It issues the pixel-buffer and
// texture-update barriers that make shader writes visible to the copy.
func (t *Texture) CopyFromBuffer(src Storage) {
	if src.ByteSize() < t.Bytes() {
		panic(fmt.Sprintf("gpu: Texture.CopyFromBuffer: buffer of %d bytes for a texture of %d", src.ByteSize(), t.Bytes()))
	}
	tf := texFormats[t.Format]
	t.ctx.Do(func() {
		t.ctx.need(barrierPixelBuffer | barrierTextureUpdate) // src and t written by shaders
		gl.BindBuffer(gl.PIXEL_UNPACK_BUFFER, src.bufferID())
		gl.PixelStorei(gl.UNPACK_ALIGNMENT, 4)
		gl.TextureSubImage2D(t.id, 0, 0, 0, int32(t.W), int32(t.H), tf.format, tf.typ, gl.PtrOffset(src.ByteOffset()))
		gl.BindBuffer(gl.PIXEL_UNPACK_BUFFER, 0)
		t.ctx.check("glTextureSubImage2D from a pixel buffer")
	})
}

// Delete frees the texture. It is idempotent.
func (t *Texture) Delete() {
	if t == nil || t.id == 0 {
		return
	}
	t.ctx.Do(func() {
		gl.DeleteTextures(1, &t.id)
		t.ctx.track(KindTexture, -1)
	})
	t.id = 0
}

// Framebuffer renders into textures: color attachments 0..n-1 and an
// optional depth attachment. It does not own the textures.
type Framebuffer struct {
	ctx   *Context
	id    uint32
	W, H  int
	Color []*Texture
	Depth *Texture
}

// NewFramebuffer attaches the textures, which must all have one size, and
// checks that the framebuffer is complete.
func NewFramebuffer(c *Context, depth *Texture, color ...*Texture) (*Framebuffer, error) {
	all := append([]*Texture{}, color...)
	if depth != nil {
		if depth.Format != Depth32F {
			panic("gpu: NewFramebuffer: depth attachment is not a Depth32F texture")
		}
		all = append(all, depth)
	}
	if len(all) == 0 {
		panic("gpu: NewFramebuffer: no attachments")
	}
	f := &Framebuffer{ctx: c, W: all[0].W, H: all[0].H, Color: color, Depth: depth}
	for _, t := range all {
		if t.W != f.W || t.H != f.H {
			panic(fmt.Sprintf("gpu: NewFramebuffer: attachments of %dx%d and %dx%d", f.W, f.H, t.W, t.H))
		}
		if t.Format == Depth32F && t != depth {
			panic("gpu: NewFramebuffer: a depth texture as a color attachment")
		}
	}
	var err error
	c.Do(func() {
		gl.CreateFramebuffers(1, &f.id)
		c.track(KindFramebuffer, 1)
		bufs := make([]uint32, len(color))
		for i, t := range color {
			gl.NamedFramebufferTexture(f.id, gl.COLOR_ATTACHMENT0+uint32(i), t.id, 0)
			bufs[i] = gl.COLOR_ATTACHMENT0 + uint32(i)
		}
		if depth != nil {
			gl.NamedFramebufferTexture(f.id, gl.DEPTH_ATTACHMENT, depth.id, 0)
		}
		if len(bufs) > 0 {
			gl.NamedFramebufferDrawBuffers(f.id, int32(len(bufs)), &bufs[0])
		} else {
			gl.NamedFramebufferDrawBuffer(f.id, gl.NONE)
		}
		if st := gl.CheckNamedFramebufferStatus(f.id, gl.FRAMEBUFFER); st != gl.FRAMEBUFFER_COMPLETE {
			gl.DeleteFramebuffers(1, &f.id)
			c.track(KindFramebuffer, -1)
			f.id = 0
			err = fmt.Errorf("gpu: NewFramebuffer: incomplete (status 0x%x)", st)
		}
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

// Delete frees the framebuffer (not its textures). It is idempotent.
func (f *Framebuffer) Delete() {
	if f == nil || f.id == 0 {
		return
	}
	f.ctx.Do(func() {
		gl.DeleteFramebuffers(1, &f.id)
		f.ctx.track(KindFramebuffer, -1)
	})
	f.id = 0
}

// Bind makes f the draw target with a viewport covering it (on the GL
// thread). A nil f selects the window's default framebuffer, whose size the
// caller passes to Viewport.
func (c *Context) BindFramebuffer(f *Framebuffer) {
	c.mustOnThread("BindFramebuffer")
	if f == nil {
		gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
		return
	}
	gl.BindFramebuffer(gl.FRAMEBUFFER, f.id)
	gl.Viewport(0, 0, int32(f.W), int32(f.H))
	c.check("glBindFramebuffer")
}

// Viewport sets the viewport (on the GL thread).
func (c *Context) Viewport(x, y, w, h int) {
	c.mustOnThread("Viewport")
	gl.Viewport(int32(x), int32(y), int32(w), int32(h))
}

// ClearColorUint clears color attachment i of f to v.
func (f *Framebuffer) ClearColorUint(i int, v [4]uint32) {
	f.ctx.Do(func() {
		gl.ClearNamedFramebufferuiv(f.id, gl.COLOR, int32(i), &v[0])
		f.ctx.check("glClearNamedFramebufferuiv")
	})
}

// ClearColor clears color attachment i of f to v (normalized and float
// formats).
func (f *Framebuffer) ClearColor(i int, v [4]float32) {
	f.ctx.Do(func() {
		gl.ClearNamedFramebufferfv(f.id, gl.COLOR, int32(i), &v[0])
		f.ctx.check("glClearNamedFramebufferfv")
	})
}

// ClearDepth clears the depth attachment of f to d.
func (f *Framebuffer) ClearDepth(d float32) {
	f.ctx.Do(func() {
		gl.ClearNamedFramebufferfv(f.id, gl.DEPTH, 0, &d)
		f.ctx.check("glClearNamedFramebufferfv(DEPTH)")
	})
}

// DepthTest turns the depth test with GL_LESS on or off (on the GL thread).
func (c *Context) DepthTest(on bool) {
	c.mustOnThread("DepthTest")
	if on {
		gl.Enable(gl.DEPTH_TEST)
		gl.DepthFunc(gl.LESS)
	} else {
		gl.Disable(gl.DEPTH_TEST)
	}
}

// DrawTriangles draws count/3 triangles with vertices first..first+count-1
// and no vertex attributes: the vertex shader fetches its data from storage
// buffers by gl_VertexID (on the GL thread).
func (p *Program) DrawTriangles(first, count int) {
	c := p.ctx
	c.mustOnThread("Program.DrawTriangles")
	if count <= 0 {
		return
	}
	if c.vao == 0 {
		gl.CreateVertexArrays(1, &c.vao)
		c.track(KindVertexArray, 1)
	}
	gl.UseProgram(p.id)
	gl.BindVertexArray(c.vao)
	gl.DrawArrays(gl.TRIANGLES, int32(first), int32(count))
	c.shaderWrote()
	c.check("glDrawArrays " + p.name)
}

// BlitToDefault copies color attachment 0 of f to the default framebuffer
// (a window), scaled to w x h with nearest filtering (on the GL thread).
func (c *Context) BlitToDefault(f *Framebuffer, w, h int) {
	c.mustOnThread("BlitToDefault")
	c.need(BarrierFramebuffer) // image stores into f's textures
	gl.NamedFramebufferReadBuffer(f.id, gl.COLOR_ATTACHMENT0)
	gl.BlitNamedFramebuffer(f.id, 0, 0, 0, int32(f.W), int32(f.H), 0, 0, int32(w), int32(h), gl.COLOR_BUFFER_BIT, gl.NEAREST)
	c.check("glBlitNamedFramebuffer")
}
