package control

import (
	"fmt"
	"math"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/rasterizer/view"
)

// PolygonSet selects which of a dataset's two polygon sets is drawn.
type PolygonSet int

const (
	Balanced   PolygonSet = iota // marching cubes: triangles about a cell's size
	Unbalanced                   // the decimated set: triangles of very different sizes
)

func (s PolygonSet) String() string {
	if s == Unbalanced {
		return "unbalanced"
	}
	return "balanced"
}

// LaneChoices are the Lanes values L cycles through: 0 (one invocation per
// processor), then the paper's machine sizes, 32 to 512 physical
// processors.
var LaneChoices = []int{0, 32, 64, 128, 256, 512}

// Mode is which of the renderer's paths draws the picture; every one
// draws the same image, bit for bit.
type Mode int

const (
	// Tiled is the renderer's fastest path (rasterizer.Options.Tiled),
	// which runs no balancer loop.
	Tiled Mode = iota
	// PaperLoops are the paper's two loops under Settings.Policy.
	PaperLoops
	// StrategyLoops are the same loops sharing tasks out by
	// Settings.Strategy (balancer.Config.Strategy) instead.
	StrategyLoops
)

func (m Mode) String() string {
	switch m {
	case Tiled:
		return "tiled"
	case PaperLoops:
		return "paper loops"
	case StrategyLoops:
		return "strategy loops"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// LoopStrategies are the strategies G cycles through: balancer.Strategies
// but the paper's own, which B's policies run.
var LoopStrategies = balancer.Strategies[1:]

// Settings are what the keys change, apart from the camera.
type Settings struct {
	Mode     Mode
	Policy   balancer.Policy   // of both loops, in PaperLoops
	Strategy balancer.Strategy // of both loops, in StrategyLoops (one of LoopStrategies)
	Lanes    int               // of both loops; 0 is one per processor
	Set      PolygonSet
	Hardware bool // show the hardware pipeline's primitive ids instead
	Help     bool // the key help panel
	Overlay  bool // the statistics panel
	Iso      float32
}

// Key is a key the viewer acts on, independent of the window system.
type Key int

const (
	KeyNone Key = iota
	KeyView1
	KeyView2
	KeyView3
	KeyView4
	KeyPolicy     // B
	KeyStrategy   // G
	KeyTiled      // T
	KeySet        // U
	KeyIsoUp      // + (or =, keypad +)
	KeyIsoDown    // - (or keypad -)
	KeyLanes      // L
	KeyHardware   // R
	KeyScreenshot // S
	KeyHelp       // H
	KeyOverlay    // O
	KeyQuit       // Esc, Q
	KeyCamera     // C
)

// Help is the key help, one line a binding.
var Help = []string{
	"drag          orbit (arcball)",
	"right-drag    pan",
	"scroll        zoom (magnify)",
	"1 2 3 4       the paper's views (0,0) (45,45) M(0,0) M(45,45)",
	"T             the tiled renderer (the fastest; the default)",
	"B             the paper's loops; again: next policy",
	"G             the loops by strategy; again: next one",
	"L             cycle Lanes (solution-phase invocations)",
	"U             balanced / unbalanced polygon set",
	"+ -           isovalue up / down (re-extract on the GPU)",
	"R             hardware pipeline reference (primitive ids)",
	"S             save a PNG screenshot",
	"O             statistics overlay on / off",
	"C             print the camera as a -view/-views value, e.g. (30,15)x2.5",
	"H             this help",
	"Esc Q         quit",
}

// Button is a mouse button.
type Button int

const (
	ButtonLeft Button = iota
	ButtonRight
	ButtonOther
)

// Change says what an input changed, so that the viewer redoes only what
// it must.
type Change uint

const (
	ChangeCamera   Change = 1 << iota // re-render
	ChangeLoops                       // mode, policy, strategy or lanes: reconfigure the renderer, re-render
	ChangeSet                         // the polygon set: re-render
	ChangeIso                         // re-extract the surface, re-render
	ChangeHardware                    // the hardware reference: re-render
	ChangeSize                        // the window's framebuffer: resize, re-render
	ChangePresent                     // show the picture again (overlay, help, an exposed window), no re-render
	WantScreenshot                    // save the window's contents
	WantQuit                          // leave
	WantCamera                        // print the camera's view (Camera.View)
)

// Render reports whether the change needs a new frame from the renderer.
func (c Change) Render() bool {
	return c&(ChangeCamera|ChangeLoops|ChangeSet|ChangeIso|ChangeHardware|ChangeSize) != 0
}

// State is the viewer's camera and settings, and the input handlers that
// change them. It knows no window system: the viewer feeds it keys, mouse
// positions in framebuffer pixels (x right, y down) and sizes, and Take
// tells what changed since the last call.
type State struct {
	Camera   Camera
	Settings Settings
	// Width and Height are the framebuffer's size in pixels.
	Width, Height int
	// IsoMin, IsoMax bound the isovalue; IsoStep is one +/- press.
	IsoMin, IsoMax, IsoStep float32
	// Views are what keys 1 to 4 select (view.Paper()).
	Views []view.View

	drag         Button
	dragging     bool
	lastX, lastY float64
	changes      Change
}

// NewState starts at view v of the box [lo, hi] with settings s in a w×h
// framebuffer; the isovalue moves in steps of step within [isoMin, isoMax].
func NewState(lo, hi [3]float32, v view.View, s Settings, w, h int, isoMin, isoMax, step float32) *State {
	if w <= 0 || h <= 0 {
		panic(fmt.Sprintf("control: NewState: size %dx%d", w, h))
	}
	if !(isoMin <= isoMax) || !(step > 0) || math.IsInf(float64(step), 0) {
		panic(fmt.Sprintf("control: NewState: isovalue range [%v, %v], step %v", isoMin, isoMax, step))
	}
	return &State{Camera: NewCamera(lo, hi, v), Settings: s, Width: w, Height: h,
		IsoMin: isoMin, IsoMax: isoMax, IsoStep: step, Views: view.Paper()}
}

// Take returns what changed since the last Take and forgets it.
func (s *State) Take() Change {
	c := s.changes
	s.changes = 0
	return c
}

// Key handles a key press.
func (s *State) Key(k Key) {
	st := &s.Settings
	switch k {
	case KeyView1, KeyView2, KeyView3, KeyView4:
		i := int(k - KeyView1)
		if i < len(s.Views) {
			s.Camera.SetView(s.Views[i])
			s.changes |= ChangeCamera
		}
	case KeyPolicy:
		// From another mode, B shows the policy the overlay names;
		// pressed again, it goes on to the next.
		if st.Mode == PaperLoops {
			st.Policy = next(balancer.Policies, st.Policy)
		}
		st.Mode = PaperLoops
		s.changes |= ChangeLoops
	case KeyStrategy:
		if st.Mode == StrategyLoops || st.Strategy == balancer.Paper {
			st.Strategy = next(LoopStrategies, st.Strategy)
		}
		st.Mode = StrategyLoops
		s.changes |= ChangeLoops
	case KeyTiled:
		if st.Mode != Tiled {
			st.Mode = Tiled
			s.changes |= ChangeLoops
		}
	case KeyLanes:
		st.Lanes = next(LaneChoices, st.Lanes)
		s.changes |= ChangeLoops
	case KeySet:
		st.Set = 1 - st.Set
		s.changes |= ChangeSet
	case KeyIsoUp, KeyIsoDown:
		d := s.IsoStep
		if k == KeyIsoDown {
			d = -d
		}
		iso := min(max(st.Iso+d, s.IsoMin), s.IsoMax)
		if iso != st.Iso {
			st.Iso = iso
			s.changes |= ChangeIso
		}
	case KeyHardware:
		st.Hardware = !st.Hardware
		s.changes |= ChangeHardware
	case KeyHelp:
		st.Help = !st.Help
		s.changes |= ChangePresent
	case KeyOverlay:
		st.Overlay = !st.Overlay
		s.changes |= ChangePresent
	case KeyScreenshot:
		s.changes |= WantScreenshot
	case KeyCamera:
		s.changes |= WantCamera
	case KeyQuit:
		s.changes |= WantQuit
	}
}

// next is the element after cur in list, cyclically; the first when cur is
// not in it.
func next[T comparable](list []T, cur T) T {
	for i, v := range list {
		if v == cur {
			return list[(i+1)%len(list)]
		}
	}
	return list[0]
}

// MouseButton handles a press or release at (x, y): the left button
// orbits, the right one pans, while held.
func (s *State) MouseButton(b Button, down bool, x, y float64) {
	if b == ButtonOther {
		return
	}
	if down {
		s.drag, s.dragging = b, true
		s.lastX, s.lastY = x, y
		return
	}
	if s.dragging && s.drag == b {
		s.CursorMove(x, y)
		s.dragging = false
	}
}

// CursorMove handles the cursor at (x, y): a drag step when a button is
// held, nothing otherwise.
func (s *State) CursorMove(x, y float64) {
	if !s.dragging || (x == s.lastX && y == s.lastY) {
		return
	}
	switch s.drag {
	case ButtonLeft:
		s.Camera.RotateEye(Arcball(s.lastX, s.lastY, x, y, s.Width, s.Height))
	case ButtonRight:
		s.Camera.PanPixels(x-s.lastX, y-s.lastY, s.Width, s.Height)
	}
	s.lastX, s.lastY = x, y
	s.changes |= ChangeCamera
}

// Scroll handles the wheel: dy notches up magnify by ZoomStep each.
func (s *State) Scroll(dy float64) {
	if dy == 0 || math.IsNaN(dy) {
		return
	}
	before := s.Camera.Magnification
	s.Camera.Zoom(float32(math.Pow(ZoomStep, dy)))
	if s.Camera.Magnification != before {
		s.changes |= ChangeCamera
	}
}

// Resize handles a new framebuffer size; a zero size (a minimized window)
// is ignored.
func (s *State) Resize(w, h int) {
	if w <= 0 || h <= 0 || (w == s.Width && h == s.Height) {
		return
	}
	s.Width, s.Height = w, h
	s.changes |= ChangeSize
}

// Expose handles a window that must be drawn again (uncovered, or moved
// between screens): the last frame is shown again, not re-rendered.
func (s *State) Expose() { s.changes |= ChangePresent }

// Dragging reports whether a drag is under way.
func (s *State) Dragging() bool { return s.dragging }
