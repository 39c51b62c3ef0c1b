package control

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/rasterizer/view"
)

// A box that is not a cube and not at the origin, so that centre and radius
// matter.
var lo, hi = [3]float32{-1, 0.5, 2}, [3]float32{3, 2.5, 3}

const W, H = 320, 200

func newTestState() *State {
	return NewState(lo, hi, view.Paper()[0], Settings{Policy: balancer.CostEffective, Overlay: true, Iso: 0.5}, W, H, 0, 1, 0.125)
}

// eye transforms a world point to eye space.
func eye(cam view.Camera, p mgl32.Vec3) mgl32.Vec3 { return cam.View.Mul4x1(p.Vec4(1)).Vec3() }

// pixel projects a world point to window pixels (x right, y down).
func pixel(cam view.Camera, p mgl32.Vec3, w, h int) (float64, float64) {
	mvp := mgl32.Mat4(cam.MVP())
	c := mvp.Mul4x1(p.Vec4(1))
	x, y := c[0]/c[3], c[1]/c[3]
	return float64((x + 1) / 2 * float32(w)), float64((1 - y) / 2 * float32(h))
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func matNear(a, b mgl32.Mat4, tol float64) bool {
	for i := range a {
		if !near(float64(a[i]), float64(b[i]), tol) {
			return false
		}
	}
	return true
}

func center() mgl32.Vec3 {
	return mgl32.Vec3{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2}
}

func radius() float32 { return mgl32.Vec3{hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]}.Len() / 2 }

// TestViewKeysGivePaperCameras: after any orbit, pan and zoom, keys 1–4
// give exactly (bit for bit) the matrices of view.View.Fit, which the
// headless renderer and the dataset use.
func TestViewKeysGivePaperCameras(t *testing.T) {
	s := newTestState()
	for i, k := range []Key{KeyView1, KeyView2, KeyView3, KeyView4} {
		s.MouseButton(ButtonLeft, true, 100, 100)
		s.CursorMove(160, 70)
		s.MouseButton(ButtonLeft, false, 170, 60)
		s.MouseButton(ButtonRight, true, 10, 10)
		s.CursorMove(30, 25)
		s.MouseButton(ButtonRight, false, 30, 25)
		s.Scroll(2)
		if s.Camera.Oriented() {
			t.Fatal("orbit and pan left the camera at its base view")
		}
		s.Take()
		s.Key(k)
		if c := s.Take(); c != ChangeCamera {
			t.Fatalf("key %d: change %b, want ChangeCamera", i+1, c)
		}
		v := view.Paper()[i]
		for _, size := range [][2]int{{W, H}, {H, W}, {1, 1}} {
			got := s.Camera.Matrices(size[0], size[1])
			want := v.Fit(lo, hi, size[0], size[1])
			if got != want {
				t.Fatalf("key %d, %dx%d: camera %v, want view %s's %v", i+1, size[0], size[1], got, v.Name, want)
			}
		}
		if s.Camera.Magnification != v.Magnification {
			t.Fatalf("key %d: magnification %v, want %v", i+1, s.Camera.Magnification, v.Magnification)
		}
	}
}

// TestOrbit drags from the window's centre: a quarter of the shorter side to
// the right turns the arcball by 30° about the eye's y axis, so the point
// of the bounding sphere nearest the eye moves right by r·sin 30°; the same
// upward moves it up. It holds from every base view, which checks the move
// of the eye-space rotation into world space.
func TestOrbit(t *testing.T) {
	r := float64(radius())
	for _, v := range view.Paper() {
		for _, dir := range []struct {
			name   string
			dx, dy float64
			axis   int // the eye axis the front point moves along
			sign   float64
		}{{"right", H / 4, 0, 0, 1}, {"left", -H / 4, 0, 0, -1}, {"up", 0, -H / 4, 1, 1}, {"down", 0, H / 4, 1, -1}} {
			s := newTestState()
			s.Camera.SetView(v)
			front := center().Add(v.Direction().Mul(radius()))
			before := eye(s.Camera.Matrices(W, H), front)
			s.MouseButton(ButtonLeft, true, W/2, H/2)
			s.CursorMove(W/2+dir.dx/2, H/2+dir.dy/2) // two steps: increments compose
			s.CursorMove(W/2+dir.dx, H/2+dir.dy)
			s.MouseButton(ButtonLeft, false, W/2+dir.dx, H/2+dir.dy)
			if c := s.Take(); c != ChangeCamera {
				t.Fatalf("%s %s: change %b", v.Name, dir.name, c)
			}
			after := eye(s.Camera.Matrices(W, H), front)
			want := before
			want[dir.axis] += float32(dir.sign * r * 0.5)
			want[2] = before[2] - float32(r) + float32(r*math.Cos(math.Pi/6))
			for a := 0; a < 3; a++ {
				if !near(float64(after[a]), float64(want[a]), 1e-4*r) {
					t.Fatalf("%s drag %s: front point in eye space %v, want %v (before %v)", v.Name, dir.name, after, want, before)
				}
			}
			// The centre stays put.
			if c0, c1 := eye(v.Fit(lo, hi, W, H), center()), eye(s.Camera.Matrices(W, H), center()); c0.Sub(c1).Len() > 1e-5*float32(r) {
				t.Fatalf("%s drag %s: centre moved from %v to %v", v.Name, dir.name, c0, c1)
			}
		}
	}
}

// TestOrbitBackAndForth: a drag and its reverse give the start back.
func TestOrbitBackAndForth(t *testing.T) {
	s := newTestState()
	s.Camera.SetView(view.Paper()[1])
	start := s.Camera.Matrices(W, H)
	path := [][2]float64{{150, 90}, {180, 95}, {210, 120}, {200, 140}}
	s.MouseButton(ButtonLeft, true, path[0][0], path[0][1])
	for _, p := range path[1:] {
		s.CursorMove(p[0], p[1])
	}
	for i := len(path) - 2; i >= 0; i-- {
		s.CursorMove(path[i][0], path[i][1])
	}
	s.MouseButton(ButtonLeft, false, path[0][0], path[0][1])
	got := s.Camera.Matrices(W, H)
	if !matNear(got.View, start.View, 1e-5) {
		t.Fatalf("after a drag and its reverse: view %v, want %v", got.View, start.View)
	}
	if q := s.Camera.Rotation; !near(math.Abs(float64(q.W)), 1, 1e-5) || q.V.Len() > 1e-5 {
		t.Fatalf("rotation %v, want identity", q)
	}
}

func TestArcballPoint(t *testing.T) {
	if p := ArcballPoint(W/2, H/2, W, H); p != (mgl32.Vec3{0, 0, 1}) {
		t.Fatalf("centre: %v", p)
	}
	// The top of the inscribed circle (y down in the window, up on the
	// ball) and points far outside it land on the rim.
	if p := ArcballPoint(W/2, 0, W, H); !p.ApproxEqual(mgl32.Vec3{0, 1, 0}) {
		t.Fatalf("top: %v", p)
	}
	for _, xy := range [][2]float64{{0, 0}, {W, H}, {-500, 40}, {W / 2, 3 * H}} {
		p := ArcballPoint(xy[0], xy[1], W, H)
		if p[2] != 0 || !near(float64(p.Len()), 1, 1e-6) {
			t.Fatalf("(%v, %v) outside the circle: %v, want a rim point", xy[0], xy[1], p)
		}
	}
	if q := Arcball(5, 5, 5, 5, W, H); q != mgl32.QuatIdent() {
		t.Fatalf("no motion: %v", q)
	}
}

// TestPan: a right-drag moves the picture by the pixels the cursor moved,
// at any magnification and window shape.
func TestPan(t *testing.T) {
	for _, size := range [][2]int{{W, H}, {H, W}} {
		w, h := size[0], size[1]
		for _, v := range view.Paper() {
			s := newTestState()
			s.Resize(w, h)
			s.Camera.SetView(v)
			s.Scroll(1)
			x0, y0 := pixel(s.Camera.Matrices(w, h), center(), w, h)
			s.MouseButton(ButtonRight, true, 50, 60)
			s.CursorMove(70, 65)
			s.CursorMove(87, 49)
			s.MouseButton(ButtonRight, false, 87, 49)
			x1, y1 := pixel(s.Camera.Matrices(w, h), center(), w, h)
			if !near(x1-x0, 37, 1e-3) || !near(y1-y0, -11, 1e-3) {
				t.Fatalf("%dx%d %s: the centre moved by (%.4f, %.4f) pixels, want (37, -11)", w, h, v.Name, x1-x0, y1-y0)
			}
			if s.Camera.Rotation != mgl32.QuatIdent() {
				t.Fatalf("pan rotated: %v", s.Camera.Rotation)
			}
		}
	}
}

// TestZoom: a notch up magnifies by ZoomStep about the window's centre; the
// magnification stays within its limits.
func TestZoom(t *testing.T) {
	s := newTestState()
	p := center().Add(mgl32.Vec3{0.3, 0.2, 0})
	x0, y0 := pixel(s.Camera.Matrices(W, H), p, W, H)
	s.Take()
	s.Scroll(1)
	if c := s.Take(); c != ChangeCamera {
		t.Fatalf("scroll: change %b", c)
	}
	if s.Camera.Magnification != ZoomStep {
		t.Fatalf("magnification %v after one notch", s.Camera.Magnification)
	}
	x1, y1 := pixel(s.Camera.Matrices(W, H), p, W, H)
	if !near(x1-W/2, ZoomStep*(x0-W/2), 1e-3) || !near(y1-H/2, ZoomStep*(y0-H/2), 1e-3) {
		t.Fatalf("point at (%.3f, %.3f) went to (%.3f, %.3f): not a zoom about the centre", x0, y0, x1, y1)
	}
	s.Scroll(-1)
	if !near(float64(s.Camera.Magnification), 1, 1e-6) {
		t.Fatalf("magnification %v after up and down", s.Camera.Magnification)
	}
	s.Scroll(1000)
	if s.Camera.Magnification != MaxMagnification {
		t.Fatalf("magnification %v after 1000 notches, want the limit %v", s.Camera.Magnification, float32(MaxMagnification))
	}
	s.Take()
	s.Scroll(1)
	if c := s.Take(); c != 0 {
		t.Fatalf("scroll at the limit: change %b, want none", c)
	}
	s.Scroll(-1e6)
	if s.Camera.Magnification != MinMagnification {
		t.Fatalf("magnification %v, want the lower limit", s.Camera.Magnification)
	}
	s.Scroll(0)
	s.Scroll(math.NaN())
	if s.Camera.Magnification != MinMagnification {
		t.Fatalf("scroll 0 / NaN changed the magnification to %v", s.Camera.Magnification)
	}
}

func TestPolicyAndLanesCycling(t *testing.T) {
	s := newTestState()
	s.Settings.Mode, s.Settings.Policy = PaperLoops, balancer.Never
	for i := 1; i <= 2*len(balancer.Policies); i++ {
		s.Key(KeyPolicy)
		if want := balancer.Policies[i%len(balancer.Policies)]; s.Settings.Policy != want {
			t.Fatalf("after %d presses of B: %v, want %v", i, s.Settings.Policy, want)
		}
		if c := s.Take(); c != ChangeLoops || !c.Render() {
			t.Fatalf("B: change %b", c)
		}
	}
	for i := 1; i <= 2*len(LaneChoices); i++ {
		s.Key(KeyLanes)
		if want := LaneChoices[i%len(LaneChoices)]; s.Settings.Lanes != want {
			t.Fatalf("after %d presses of L: lanes %d, want %d", i, s.Settings.Lanes, want)
		}
		if c := s.Take(); c != ChangeLoops {
			t.Fatalf("L: change %b", c)
		}
	}
	s.Settings.Lanes = 48 // from the command line: not a choice
	s.Key(KeyLanes)
	if s.Settings.Lanes != LaneChoices[0] {
		t.Fatalf("L from 48: %d", s.Settings.Lanes)
	}
	if s.Camera.Oriented() != true || s.Settings.Set != Balanced {
		t.Fatal("B and L changed the camera or the set")
	}
}

func TestSetToggleAndIsovalue(t *testing.T) {
	s := newTestState()
	s.Key(KeySet)
	if s.Settings.Set != Unbalanced || s.Take() != ChangeSet {
		t.Fatalf("U: set %v", s.Settings.Set)
	}
	s.Key(KeySet)
	if s.Settings.Set != Balanced || s.Take() != ChangeSet {
		t.Fatalf("U twice: set %v", s.Settings.Set)
	}
	if Unbalanced.String() != "unbalanced" || Balanced.String() != "balanced" {
		t.Fatal("set names")
	}
	// Iso 0.5 in [0, 1] by 0.125.
	s.Key(KeyIsoUp)
	if s.Settings.Iso != 0.625 || s.Take() != ChangeIso {
		t.Fatalf("+: iso %v", s.Settings.Iso)
	}
	for i := 0; i < 10; i++ {
		s.Key(KeyIsoUp)
	}
	if s.Settings.Iso != 1 {
		t.Fatalf("iso %v, want the maximum 1", s.Settings.Iso)
	}
	s.Take()
	s.Key(KeyIsoUp)
	if c := s.Take(); c != 0 {
		t.Fatalf("+ at the maximum: change %b", c)
	}
	for i := 0; i < 20; i++ {
		s.Key(KeyIsoDown)
	}
	if s.Settings.Iso != 0 || s.Take() != ChangeIso {
		t.Fatalf("iso %v, want the minimum 0", s.Settings.Iso)
	}
}

func TestTogglesAndRequests(t *testing.T) {
	s := newTestState()
	for _, c := range []struct {
		k      Key
		change Change
		render bool
		check  func() bool
	}{
		{KeyHardware, ChangeHardware, true, func() bool { return s.Settings.Hardware }},
		{KeyHardware, ChangeHardware, true, func() bool { return !s.Settings.Hardware }},
		{KeyHelp, ChangePresent, false, func() bool { return s.Settings.Help }},
		{KeyOverlay, ChangePresent, false, func() bool { return !s.Settings.Overlay }},
		{KeyScreenshot, WantScreenshot, false, func() bool { return true }},
		{KeyQuit, WantQuit, false, func() bool { return true }},
		{KeyNone, 0, false, func() bool { return true }},
	} {
		s.Key(c.k)
		got := s.Take()
		if got != c.change || got.Render() != c.render || !c.check() {
			t.Fatalf("key %d: change %b (render %v), want %b (render %v); settings %+v", c.k, got, got.Render(), c.change, c.render, s.Settings)
		}
	}
}

func TestMouseAndResize(t *testing.T) {
	s := newTestState()
	s.CursorMove(10, 10)
	s.MouseButton(ButtonOther, true, 10, 10)
	s.CursorMove(40, 40)
	if c := s.Take(); c != 0 || s.Dragging() {
		t.Fatalf("moves without a drag: change %b", c)
	}
	s.MouseButton(ButtonLeft, true, 10, 10)
	s.MouseButton(ButtonRight, false, 10, 10) // another button's release
	if !s.Dragging() {
		t.Fatal("the right button's release ended a left drag")
	}
	s.MouseButton(ButtonLeft, false, 30, 12) // the release moves too
	if s.Dragging() || s.Take() != ChangeCamera {
		t.Fatal("left release")
	}
	s.Resize(0, 100)
	s.Resize(W, H)
	if c := s.Take(); c != 0 {
		t.Fatalf("zero and equal sizes: change %b", c)
	}
	s.Expose()
	if c := s.Take(); c != ChangePresent || c.Render() {
		t.Fatalf("expose: change %b, want a present without a render", c)
	}
	s.Resize(640, 480)
	if c := s.Take(); c != ChangeSize || !c.Render() || s.Width != 640 || s.Height != 480 {
		t.Fatalf("resize: change %b, size %dx%d", c, s.Width, s.Height)
	}
}

func TestMisuse(t *testing.T) {
	for name, f := range map[string]func(){
		"NewState 0 wide":    func() { NewState(lo, hi, view.Paper()[0], Settings{}, 0, 10, 0, 1, 1) },
		"NewState step 0":    func() { NewState(lo, hi, view.Paper()[0], Settings{}, 10, 10, 0, 1, 0) },
		"NewState iso range": func() { NewState(lo, hi, view.Paper()[0], Settings{}, 10, 10, 2, 1, 1) },
		"SetView mag 0":      func() { c := NewCamera(lo, hi, view.Paper()[0]); c.SetView(view.View{}) },
		"Matrices 0x0":       func() { c := NewCamera(lo, hi, view.Paper()[0]); c.Matrices(0, 0) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// TestModeKeys: the tiled renderer is the zero Mode; B leaves it for the
// paper's loops at the policy shown, then cycles the policies; G leaves
// for the loops by strategy, then cycles every strategy but the paper's;
// T comes back. Each press that changes the renderer asks for a frame.
func TestModeKeys(t *testing.T) {
	s := newTestState()
	if s.Settings.Mode != Tiled {
		t.Fatalf("the default mode is %v, want tiled", s.Settings.Mode)
	}
	s.Key(KeyTiled)
	if c := s.Take(); c != 0 {
		t.Fatalf("T in the tiled mode: change %b", c)
	}
	s.Key(KeyPolicy)
	if s.Settings.Mode != PaperLoops || s.Settings.Policy != balancer.CostEffective || s.Take() != ChangeLoops {
		t.Fatalf("B from tiled: %+v", s.Settings)
	}
	seen := map[balancer.Policy]bool{}
	for range balancer.Policies {
		s.Key(KeyPolicy)
		seen[s.Settings.Policy] = true
	}
	if len(seen) != len(balancer.Policies) {
		t.Fatalf("B reached %v, want every policy", seen)
	}
	var got []balancer.Strategy
	for i := 0; i < len(LoopStrategies)+1; i++ {
		s.Key(KeyStrategy)
		if s.Settings.Mode != StrategyLoops || s.Take() != ChangeLoops {
			t.Fatalf("G: %+v", s.Settings)
		}
		got = append(got, s.Settings.Strategy)
	}
	for i, st := range LoopStrategies {
		if got[i] != st {
			t.Fatalf("G went through %v, want %v", got, LoopStrategies)
		}
	}
	if got[len(LoopStrategies)] != LoopStrategies[0] {
		t.Fatalf("G did not cycle: %v", got)
	}
	policy := s.Settings.Policy
	s.Key(KeyPolicy) // back to the loops at the policy they had
	if s.Settings.Mode != PaperLoops || s.Settings.Policy != policy {
		t.Fatalf("B from the strategies: %+v, want policy %v", s.Settings, policy)
	}
	s.Key(KeyStrategy) // back to the strategy it had
	if s.Settings.Mode != StrategyLoops || s.Settings.Strategy != LoopStrategies[0] {
		t.Fatalf("G from the policies: %+v", s.Settings)
	}
	s.Key(KeyTiled)
	if s.Settings.Mode != Tiled || s.Take() != ChangeLoops {
		t.Fatalf("T: %+v", s.Settings)
	}
}
