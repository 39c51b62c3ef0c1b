package view

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/go-gl/mathgl/mgl64"
)

// Frame orients a view's orbit in world coordinates: view (0,0) looks from
// Front toward the centre with Up up, azimuth turns the eye about Up toward
// Right = Up × Front, and elevation raises it toward Up. Front need not be
// at right angles to Up (its part along Up is dropped); neither need be of
// unit length.
type Frame struct {
	Up, Front mgl32.Vec3
}

// The frames of the two kinds of data the renderer draws.
var (
	// YUp is the paper's frame and the zero Frame's: y up, (0,0) looking
	// down −z from +z, so that +x is to the right.
	YUp = Frame{Up: mgl32.Vec3{0, 1, 0}, Front: mgl32.Vec3{0, 0, 1}}
	// RAS is the frame of anatomy in RAS+ world coordinates (x toward the
	// patient's right, y anterior, z superior, as volume.ReadNIfTI gives
	// them): superior up and (0,0) facing the face, so the patient's
	// right is on the image's left, as when meeting someone; (90,0) looks
	// at the left side of the head and (-90,0) at the right, the face
	// upright in both.
	RAS = Frame{Up: mgl32.Vec3{0, 0, 1}, Front: mgl32.Vec3{0, 1, 0}}
)

// paper reports whether f is the paper's frame (or the zero Frame).
func (f Frame) paper() bool { return f == Frame{} || f == YUp }

// check says what is wrong with a frame that cannot orient a view.
func (f Frame) check() error {
	if f.paper() {
		return nil
	}
	up, front := vec64(f.Up), vec64(f.Front)
	for _, x := range append(up[:], front[:]...) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("frame up %v, front %v: not finite", f.Up, f.Front)
		}
	}
	if up.Len() == 0 || front.Len() == 0 || up.Normalize().Cross(front.Normalize()).Len() < 1e-6 {
		return fmt.Errorf("frame up %v, front %v: want two non-zero vectors that are not parallel", f.Up, f.Front)
	}
	return nil
}

// axes are the frame's unit up, front and right vectors, at right angles
// (Gram–Schmidt: front loses its part along up).
func (f Frame) axes() (up, front, right mgl64.Vec3) {
	if f.paper() {
		return mgl64.Vec3{0, 1, 0}, mgl64.Vec3{0, 0, 1}, mgl64.Vec3{1, 0, 0}
	}
	up = vec64(f.Up).Normalize()
	front = vec64(f.Front)
	front = front.Sub(up.Mul(front.Dot(up))).Normalize()
	return up, front, up.Cross(front)
}

func vec64(v mgl32.Vec3) mgl64.Vec3 { return mgl64.Vec3{float64(v[0]), float64(v[1]), float64(v[2])} }

// In is v in frame f, unless v has a frame of its own: how a dataset that
// knows its orientation (an RAS volume) gives its frame to the views a user
// names.
func (v View) In(f Frame) View {
	if v.Frame == (Frame{}) {
		v.Frame = f
	}
	return v
}

// LookingAt is v aimed at the world point p: Fit centres the image on p
// (panning, where Fit would centre the box), with the radius of the
// smallest sphere about p that holds the whole box, so magnification 1
// still shows all of it. It panics naming p if p is not finite.
func (v View) LookingAt(p mgl32.Vec3) View {
	for _, x := range p {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			panic(fmt.Sprintf("view: View.LookingAt: %s: point %v is not finite", v.Name, p))
		}
	}
	v.target, v.aimed = p, true
	return v
}

// Target is the point set by LookingAt, and whether there is one.
func (v View) Target() (mgl32.Vec3, bool) { return v.target, v.aimed }
