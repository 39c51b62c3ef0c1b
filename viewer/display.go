package main

import (
	"image"
	"sync"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/window"
	"github.com/dpgl/dpgl/viewer/internal/app"
	"github.com/dpgl/dpgl/viewer/internal/control"
	"github.com/dpgl/dpgl/viewer/internal/overlay"
)

// display is app.Display on a GLFW window. Every GLFW call runs on the
// context's GL thread (window's rule), so the input callbacks run there too,
// inside Wait and Poll, while the viewer's goroutine waits for Do: they
// change the control.State without a race.
type display struct {
	win *window.Window
	c   *gpu.Context
	st  *control.State

	// Panels are uploaded into textures kept per slot, remade when the
	// panel's size changes.
	panelTex []*gpu.Texture
	panelFB  []*gpu.Framebuffer

	mu   sync.Mutex
	open bool // Wake may post events (GLFW is not terminated)
}

func newDisplay(w *window.Window) *display {
	return &display{win: w, c: w.Ctx, open: true}
}

// attach sends the window's input to st.
func (d *display) attach(st *control.State) {
	d.st = st
	d.c.Do(func() {
		g := d.win.GLFW()
		g.SetKeyCallback(func(_ *glfw.Window, k glfw.Key, _ int, action glfw.Action, _ glfw.ModifierKey) {
			if action != glfw.Release {
				st.Key(keyFromGLFW(k))
			}
		})
		g.SetCharCallback(func(_ *glfw.Window, r rune) { st.Key(keyFromChar(r)) })
		g.SetMouseButtonCallback(func(w *glfw.Window, b glfw.MouseButton, action glfw.Action, _ glfw.ModifierKey) {
			x, y := d.cursor(w)
			st.MouseButton(buttonFromGLFW(b), action == glfw.Press, x, y)
		})
		g.SetCursorPosCallback(func(w *glfw.Window, _, _ float64) {
			x, y := d.cursor(w)
			st.CursorMove(x, y)
		})
		g.SetScrollCallback(func(_ *glfw.Window, _, dy float64) { st.Scroll(dy) })
		g.SetFramebufferSizeCallback(func(_ *glfw.Window, w, h int) { st.Resize(w, h) })
		g.SetRefreshCallback(func(*glfw.Window) { st.Expose() })
	})
}

// cursor is the cursor position in framebuffer pixels: GLFW reports it in
// screen coordinates, which differ on high-density displays.
func (d *display) cursor(w *glfw.Window) (float64, float64) {
	x, y := w.GetCursorPos()
	ww, wh := w.GetSize()
	fw, fh := w.GetFramebufferSize()
	if ww > 0 && wh > 0 {
		x *= float64(fw) / float64(ww)
		y *= float64(fh) / float64(wh)
	}
	return x, y
}

// keyFromGLFW maps the keys that have no character: Esc.
func keyFromGLFW(k glfw.Key) control.Key {
	if k == glfw.KeyEscape {
		return control.KeyQuit
	}
	return control.KeyNone
}

// keyFromChar maps typed characters, so that the keys follow the keyboard's
// layout: '+' is wherever the layout puts it (and '=' is its unshifted
// twin on US keyboards).
func keyFromChar(r rune) control.Key {
	switch r {
	case '1':
		return control.KeyView1
	case '2':
		return control.KeyView2
	case '3':
		return control.KeyView3
	case '4':
		return control.KeyView4
	case 'b', 'B':
		return control.KeyPolicy
	case 'g', 'G':
		return control.KeyStrategy
	case 't', 'T':
		return control.KeyTiled
	case 'u', 'U':
		return control.KeySet
	case '+', '=':
		return control.KeyIsoUp
	case '-', '_':
		return control.KeyIsoDown
	case 'l', 'L':
		return control.KeyLanes
	case 'r', 'R':
		return control.KeyHardware
	case 's', 'S':
		return control.KeyScreenshot
	case 'h', 'H', '?':
		return control.KeyHelp
	case 'o', 'O':
		return control.KeyOverlay
	case 'c', 'C':
		return control.KeyCamera
	case 'q', 'Q':
		return control.KeyQuit
	}
	return control.KeyNone
}

func buttonFromGLFW(b glfw.MouseButton) control.Button {
	switch b {
	case glfw.MouseButtonLeft:
		return control.ButtonLeft
	case glfw.MouseButtonRight:
		return control.ButtonRight
	}
	return control.ButtonOther
}

// Size is the framebuffer's size.
func (d *display) Size() (w, h int) {
	d.c.Do(func() { w, h = d.win.GLFW().GetFramebufferSize() })
	return w, h
}

// panel returns slot i's framebuffer holding img.
func (d *display) panel(i int, img *image.RGBA) (*gpu.Framebuffer, error) {
	for len(d.panelTex) <= i {
		d.panelTex = append(d.panelTex, nil)
		d.panelFB = append(d.panelFB, nil)
	}
	b := img.Bounds()
	if t := d.panelTex[i]; t == nil || t.W != b.Dx() || t.H != b.Dy() {
		d.panelFB[i].Delete()
		d.panelTex[i].Delete()
		d.panelFB[i], d.panelTex[i] = nil, nil
		t, err := gpu.NewTexture(d.c, b.Dx(), b.Dy(), gpu.RGBA8)
		if err != nil {
			return nil, err
		}
		fb, err := gpu.NewFramebuffer(d.c, nil, t)
		if err != nil {
			t.Delete()
			return nil, err
		}
		d.panelTex[i], d.panelFB[i] = t, fb
	}
	d.panelTex[i].Write(flipRows(img.Pix, b.Dx(), b.Dy()))
	return d.panelFB[i], nil
}

// flipRows turns top-row-first RGBA8 rows into GL's bottom-row-first, or
// back.
func flipRows(pix []byte, w, h int) []byte {
	out := make([]byte, len(pix))
	row := 4 * w
	for y := 0; y < h; y++ {
		copy(out[(h-1-y)*row:(h-y)*row], pix[y*row:(y+1)*row])
	}
	return out
}

// Present blits the frame over the whole window and the panels at their
// places, reads the back buffer for a screenshot, and swaps.
func (d *display) Present(frame *gpu.Framebuffer, panels []app.Panel, shot bool) (*image.RGBA, error) {
	w, h := d.Size()
	if w <= 0 || h <= 0 {
		return nil, nil // minimized: nothing to show
	}
	fbs := make([]*gpu.Framebuffer, len(panels))
	for i, p := range panels {
		var err error
		if fbs[i], err = d.panel(i, p.Img); err != nil {
			return nil, err
		}
	}
	d.c.Do(func() {
		d.c.BindFramebuffer(nil)
		d.c.Viewport(0, 0, w, h)
		if frame != nil {
			d.c.BlitToDefault(frame, w, h)
		}
		for i, p := range panels {
			b := p.Img.Bounds()
			// Panels are placed with y down; GL's window rows go up.
			d.c.BlitToDefaultRect(fbs[i], p.X, h-p.Y-b.Dy(), b.Dx(), b.Dy())
		}
	})
	var img *image.RGBA
	if shot {
		px, err := d.c.ReadDefault(w, h)
		if err != nil {
			return nil, err
		}
		img = &image.RGBA{Pix: flipRows(px, w, h), Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
	}
	d.c.Do(func() { d.win.GLFW().SwapBuffers() })
	return img, nil
}

// showText fills the window with a text panel (while the dataset loads).
func (d *display) showText(lines ...string) {
	w, h := d.Size()
	if w <= 0 || h <= 0 {
		return
	}
	p := overlay.Panel(lines, overlay.Scale(w, h), app.PanelFG, app.PanelBG)
	full := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(full.Pix); i += 4 {
		full.Pix[i], full.Pix[i+1], full.Pix[i+2], full.Pix[i+3] = app.PanelBG.R, app.PanelBG.G, app.PanelBG.B, 255
	}
	for y := 0; y < min(h, p.Bounds().Dy()); y++ {
		copy(full.Pix[y*full.Stride:y*full.Stride+4*min(w, p.Bounds().Dx())], p.Pix[y*p.Stride:])
	}
	d.Present(nil, []app.Panel{{Img: full}}, false)
	d.c.Do(glfw.PollEvents)
}

// SetTitle sets the window's title.
func (d *display) SetTitle(t string) { d.c.Do(func() { d.win.GLFW().SetTitle(t) }) }

// Wait sleeps in glfw.WaitEvents until input or Wake.
func (d *display) Wait() { d.c.Do(glfw.WaitEvents) }

// Poll delivers pending input.
func (d *display) Poll() { d.c.Do(glfw.PollEvents) }

// Wake posts an empty event (GLFW allows this from any thread) unless the
// window is closing.
func (d *display) Wake() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.open {
		glfw.PostEmptyEvent()
	}
}

// Closing reports the window's close button.
func (d *display) Closing() (c bool) {
	d.c.Do(func() { c = d.win.GLFW().ShouldClose() })
	return c
}

// close frees the panels' textures and stops Wake, before the window goes.
func (d *display) close() {
	d.mu.Lock()
	d.open = false
	d.mu.Unlock()
	for i := range d.panelTex {
		d.panelFB[i].Delete()
		d.panelTex[i].Delete()
	}
	d.panelTex, d.panelFB = nil, nil
}
