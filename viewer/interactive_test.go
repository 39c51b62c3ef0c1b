package main

import (
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu/window"
	"github.com/dpgl/dpgl/rasterizer/dataset"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
	"github.com/dpgl/dpgl/viewer/internal/app"
	"github.com/dpgl/dpgl/viewer/internal/control"
	"github.com/dpgl/dpgl/viewer/internal/scene"
)

// TestInteractiveWindow runs the interactive loop on a real GLFW window (in
// a child process, like the scripted tests): the window is resized by the
// window system, and the loop re-renders at the new size, shows exactly the
// new frame, renders nothing on wakes without input, and stops when the
// window is closed.
func TestInteractiveWindow(t *testing.T) {
	needDisplay(t)
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "DPGL_VIEWER_MAIN=interactive")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "interactive: ok") {
		t.Fatalf("interactive check: %v\n%s", err, out)
	}
}

// probe is the GLFW display with a script run at each Wait.
type probe struct {
	*display
	a     *app.App
	waits int
	phase int
	idle  int // Frames when the idle phase began
	quiet int // waits in the idle phase
	err   error
}

func (p *probe) fail(format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf(format, args...)
	}
	p.c.Do(func() { p.win.GLFW().SetShouldClose(true) })
}

func (p *probe) Wait() {
	p.waits++
	if p.waits > 2000 {
		p.fail("timed out in phase %d", p.phase)
	}
	a := p.a
	switch p.phase {
	case 0: // the first frame, at the window's size
		if w, h := a.Scene().Size(); w != 80 || h != 60 || a.Frames != 1 || a.Presents != 1 {
			p.fail("start: scene %dx%d, %d frames, %d presents", w, h, a.Frames, a.Presents)
			break
		}
		p.c.Do(func() { p.win.GLFW().SetSize(100, 70) })
		p.phase = 1
	case 1: // the resize arrives through the callback; a frame follows
		if w, h := a.Scene().Size(); w == 100 && h == 70 {
			if a.Frames != 2 {
				p.fail("after the resize: %d frames, want 2", a.Frames)
				break
			}
			img, err := p.Present(a.Scene().Framebuffer(), nil, true)
			if err != nil || img.Bounds() != image.Rect(0, 0, 100, 70) {
				p.fail("screenshot after the resize: %v, %v", img.Bounds(), err)
				break
			}
			px := a.Scene().Texture().Read()
			for y := 0; y < 70; y++ {
				for x := 0; x < 100; x++ {
					o := 4 * ((69-y)*100 + x) // texture rows go up
					if c := img.RGBAAt(x, y); c.R != px[o] || c.G != px[o+1] || c.B != px[o+2] {
						p.fail("window pixel (%d,%d) is %v, the frame's %v", x, y, c, px[o:o+4])
						return
					}
				}
			}
			p.phase, p.idle = 2, a.Frames
		}
	case 2: // wakes without input render nothing
		if a.Frames != p.idle {
			p.fail("a wake without input rendered a frame")
			break
		}
		if p.quiet++; p.quiet == 20 {
			p.c.Do(func() { p.win.GLFW().SetShouldClose(true) })
			p.phase = 3
		}
	}
	p.display.Wait()
}

// interactiveCheck is the child's side of TestInteractiveWindow.
func interactiveCheck(out io.Writer) int {
	err := func() error {
		win, err := window.Open(window.Options{Title: "test", Width: 80, Height: 60, Resizable: true})
		if err != nil {
			return err
		}
		defer win.Close()
		p := &probe{display: newDisplay(win)}
		defer p.close()
		pair := dataset.FromField(volume.Torus(), 16, dataset.DefaultReduction)
		a, err := app.New(win.Ctx, p, app.Config{
			Pair: pair, View: view.Paper()[1],
			Settings: control.Settings{Policy: balancer.Bounded, Overlay: true, Iso: pair.Iso},
			IsoMin:   -1, IsoMax: 1, IsoStep: 0.1,
			Scene: scene.Options{ScanCost: 8, ZBufferCost: 8},
			Out:   io.Discard,
		})
		if err != nil {
			return err
		}
		defer a.Delete()
		p.a = a
		p.attach(a.State())
		// Empty events every few milliseconds: Wait returns whether or not
		// the window system says anything.
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			for {
				select {
				case <-stop:
					return
				case <-time.After(5 * time.Millisecond):
					p.Wake()
				}
			}
		}()
		err = a.Run()
		close(stop)
		<-done
		if err != nil {
			return err
		}
		if p.err != nil {
			return p.err
		}
		if p.phase != 3 {
			return errors.New("the loop stopped before the script ended")
		}
		return nil
	}()
	if err != nil {
		fmt.Fprintf(out, "interactive: %v\n", err)
		return 1
	}
	fmt.Fprintln(out, "interactive: ok")
	return 0
}
