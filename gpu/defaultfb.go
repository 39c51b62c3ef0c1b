package gpu

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/go-gl/gl/v4.5-core/gl"
)

// The default framebuffer is what a window shows: contexts from package
// gpu/window have one (double-buffered: drawing goes to the back buffer,
// which the window's SwapBuffers shows), headless contexts have none.

// ErrNoDefaultFramebuffer is returned by ReadDefault on a context without a
// window (NewHeadless).
var ErrNoDefaultFramebuffer = errors.New("gpu: the context has no default framebuffer (no window)")

// BlitToDefaultRect copies color attachment 0 of f into the w x h rectangle
// of the default framebuffer whose lower-left corner is (x, y), in GL's
// window coordinates (y up), scaled with nearest filtering (on the GL
// thread). BlitToDefault(f, w, h) is BlitToDefaultRect(f, 0, 0, w, h); the
// rectangle form puts an overlay in a corner.
func (c *Context) BlitToDefaultRect(f *Framebuffer, x, y, w, h int) {
	c.mustOnThread("BlitToDefaultRect")
	if f == nil || f.id == 0 {
		panic("gpu: BlitToDefaultRect: f is nil or deleted")
	}
	if w <= 0 || h <= 0 {
		panic(fmt.Sprintf("gpu: BlitToDefaultRect: size %dx%d is not positive", w, h))
	}
	c.need(BarrierFramebuffer) // image stores into f's textures
	gl.NamedFramebufferReadBuffer(f.id, gl.COLOR_ATTACHMENT0)
	gl.BlitNamedFramebuffer(f.id, 0, 0, 0, int32(f.W), int32(f.H),
		int32(x), int32(y), int32(x+w), int32(y+h), gl.COLOR_BUFFER_BIT, gl.NEAREST)
	c.check("glBlitNamedFramebuffer")
}

// ReadDefault reads the w x h pixels at the lower-left corner of the default
// framebuffer's back buffer as RGBA8, 4 bytes a pixel, bottom row first (as
// Texture.Read). The back buffer holds what the window will show after its
// next SwapBuffers: read it after drawing and before swapping, since a swap
// leaves the back buffer undefined. Where the window has no alpha channel,
// alpha reads as 255. Pixels outside the window are undefined: w x h should
// be within the window's framebuffer size. It returns
// ErrNoDefaultFramebuffer on a headless context.
func (c *Context) ReadDefault(w, h int) ([]byte, error) {
	if w <= 0 || h <= 0 {
		panic(fmt.Sprintf("gpu: ReadDefault: size %dx%d is not positive", w, h))
	}
	out := make([]byte, 4*w*h)
	var err error
	c.Do(func() {
		if gl.CheckNamedFramebufferStatus(0, gl.READ_FRAMEBUFFER) != gl.FRAMEBUFFER_COMPLETE {
			err = ErrNoDefaultFramebuffer
			return
		}
		var prevRead int32
		gl.GetIntegerv(gl.READ_FRAMEBUFFER_BINDING, &prevRead)
		gl.BindFramebuffer(gl.READ_FRAMEBUFFER, 0)
		gl.ReadBuffer(gl.BACK)
		// Blits and draws into the default framebuffer are ordered before
		// glReadPixels by GL itself; no memory barrier is needed.
		gl.PixelStorei(gl.PACK_ALIGNMENT, 4)
		gl.ReadPixels(0, 0, int32(w), int32(h), gl.RGBA, gl.UNSIGNED_BYTE, unsafe.Pointer(&out[0]))
		gl.BindFramebuffer(gl.READ_FRAMEBUFFER, uint32(prevRead))
		c.check("glReadPixels (default framebuffer)")
		c.readBacks.Add(1)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
