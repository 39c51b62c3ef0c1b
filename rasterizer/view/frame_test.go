package view

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// TestFrames: the zero frame is the paper's, bit for bit; the RAS frame
// shows a head upright, facing the viewer at (0,0) and from its left side
// at (90,0); any frame keeps (az,el)'s meaning about its own axes.
func TestFrames(t *testing.T) {
	lo, hi := [3]float32{-1.5, 2, -7}, [3]float32{3.25, 9, 1}
	for _, v := range append(Paper(), Named(30, 15, 2.5), Named(-120, -60, 1)) {
		if a, b := v.Fit(lo, hi, 640, 480), v.In(YUp).Fit(lo, hi, 640, 480); a != b {
			t.Fatalf("%s: the YUp frame differs from the zero frame", v.Name)
		}
		if v.In(RAS).In(YUp).Frame != RAS {
			t.Fatal("In replaced a view's own frame")
		}
	}
	center := mgl32.Vec3{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2}
	for _, c := range []struct {
		name              string
		eye, right, upScr mgl32.Vec3 // eye direction; world directions to the image's right and top
	}{
		{"(0,0)", mgl32.Vec3{0, 1, 0}, mgl32.Vec3{-1, 0, 0}, mgl32.Vec3{0, 0, 1}},                // facing: the patient's right on the image's left
		{"(90,0)", mgl32.Vec3{-1, 0, 0}, mgl32.Vec3{0, -1, 0}, mgl32.Vec3{0, 0, 1}},              // from the left: the face (anterior) on the image's left
		{"(180,0)", mgl32.Vec3{0, -1, 0}, mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 0, 1}},              // the back of the head
		{"(0,89)", mgl32.Vec3{0, 0.017452, 0.99985}, mgl32.Vec3{-1, 0, 0}, mgl32.Vec3{0, -1, 0}}, // from above: the face at the bottom
	} {
		v, err := Parse(c.name)
		if err != nil {
			t.Fatal(err)
		}
		v = v.In(RAS)
		if d := v.Direction(); d.Sub(c.eye).Len() > 1e-4 {
			t.Fatalf("RAS %s: eye direction %v, want %v", c.name, d, c.eye)
		}
		cam := v.Fit(lo, hi, 512, 512)
		o := ndc(cam, center)
		if r := ndc(cam, center.Add(c.right)).Sub(o); !(r[0] > 0) || math.Abs(float64(r[1])) > 1e-4 {
			t.Fatalf("RAS %s: world %v goes %v on the image, want right", c.name, c.right, r)
		}
		if u := ndc(cam, center.Add(c.upScr)).Sub(o); !(u[1] > 0) || math.Abs(float64(u[0])) > 1e-4 {
			t.Fatalf("RAS %s: world %v goes %v on the image, want up", c.name, c.upScr, u)
		}
	}
	// A skewed frame: front loses its part along up.
	v := Named(0, 0, 1)
	v.Frame = Frame{Up: mgl32.Vec3{0, 0, 2}, Front: mgl32.Vec3{1, 0, 5}}
	if d := v.Direction(); d.Sub(mgl32.Vec3{1, 0, 0}).Len() > 1e-6 {
		t.Fatalf("skewed frame: direction %v", d)
	}
	for _, f := range []Frame{{Up: mgl32.Vec3{0, 1, 0}}, {Up: mgl32.Vec3{0, 1, 0}, Front: mgl32.Vec3{0, -3, 0}}, {Up: mgl32.Vec3{float32(math.NaN()), 1, 0}, Front: mgl32.Vec3{0, 0, 1}}} {
		func() {
			defer func() {
				if p := recover(); p == nil || !strings.Contains(p.(string), "view: View.Camera: (0,0): frame") {
					t.Fatalf("frame %v: panic %v", f, p)
				}
			}()
			v := Named(0, 0, 1)
			v.Frame = f
			v.Fit(lo, hi, 8, 8)
		}()
	}
}

// TestLookingAt: an aimed view centres its target, and at magnification 1
// still holds every corner of the box.
func TestLookingAt(t *testing.T) {
	lo, hi := [3]float32{0, 0, 0}, [3]float32{4, 2, 2}
	p := mgl32.Vec3{3.5, 0.5, 1}
	for _, v := range []View{Named(0, 0, 1), Named(45, 45, 1), Named(-100, 30, 1).In(RAS)} {
		a := v.LookingAt(p)
		if got, ok := a.Target(); !ok || got != p {
			t.Fatalf("Target() = %v, %v", got, ok)
		}
		cam := a.Fit(lo, hi, 300, 200)
		if o := ndc(cam, p); math.Abs(float64(o[0])) > 1e-5 || math.Abs(float64(o[1])) > 1e-5 {
			t.Fatalf("%s at %v: target at %v, want the centre", v.Name, p, o)
		}
		for i := 0; i < 8; i++ {
			q := mgl32.Vec3{lo[0], lo[1], lo[2]}
			for a := 0; a < 3; a++ {
				if i>>a&1 == 1 {
					q[a] = hi[a]
				}
			}
			if n := ndc(cam, q); math.Abs(float64(n[0])) > 1 || math.Abs(float64(n[1])) > 1 || math.Abs(float64(n[2])) > 1 {
				t.Fatalf("%s at %v: corner %v at %v, outside the image", v.Name, p, q, n)
			}
		}
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "view: View.LookingAt") {
			t.Fatalf("panic %v", r)
		}
	}()
	Named(0, 0, 1).LookingAt(mgl32.Vec3{float32(math.Inf(1)), 0, 0})
}
