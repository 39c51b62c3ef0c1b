package control

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/dpgl/dpgl/rasterizer/view"
)

// Magnification limits of the scroll wheel.
const (
	MinMagnification = 0.25
	MaxMagnification = 64
	// ZoomStep is the factor one notch of the scroll wheel magnifies by.
	ZoomStep = 1.1
)

// Camera is an orbit camera around a dataset's bounding box: a base view
// (one of the paper's) turned further by an arcball rotation about the box's
// centre, magnified and panned. With no rotation and no pan its matrices
// are exactly those of view.View.Fit, so the paper's views in the viewer
// are the paper's views of the headless renderer, bit for bit.
type Camera struct {
	// Lo and Hi bound the dataset: the camera fits their bounding sphere
	// as view.View.Fit does.
	Lo, Hi [3]float32
	// Base is the view the orbit starts from; its Magnification is
	// replaced by Magnification.
	Base view.View
	// Rotation turns the dataset about the box's centre, in world axes,
	// before Base looks at it.
	Rotation mgl32.Quat
	// Magnification 1 fits the bounding sphere in the image.
	Magnification float32
	// Pan moves the picture in eye space (x right, y up), in world units.
	Pan mgl32.Vec2
	// Frame orients Base's orbit when Base has no frame of its own (the
	// dataset's: view.RAS for anatomy; zero, the paper's, otherwise).
	Frame view.Frame
}

// NewCamera looks at the box [lo, hi] from v.
func NewCamera(lo, hi [3]float32, v view.View) Camera {
	c := Camera{Lo: lo, Hi: hi}
	c.SetView(v)
	return c
}

// SetView goes to the view v: its direction and magnification, with no
// rotation and no pan.
func (c *Camera) SetView(v view.View) {
	if !(v.Magnification > 0) {
		panic(fmt.Sprintf("control: Camera.SetView: %s has magnification %v", v.Name, v.Magnification))
	}
	c.Base = v
	c.Rotation = mgl32.QuatIdent()
	c.Magnification = v.Magnification
	c.Pan = mgl32.Vec2{}
}

// center and radius are those view.View.Fit computes.
func (c *Camera) center() mgl32.Vec3 {
	return mgl32.Vec3{(c.Lo[0] + c.Hi[0]) / 2, (c.Lo[1] + c.Hi[1]) / 2, (c.Lo[2] + c.Hi[2]) / 2}
}

func (c *Camera) radius() float32 {
	r := mgl32.Vec3{c.Hi[0] - c.Lo[0], c.Hi[1] - c.Lo[1], c.Hi[2] - c.Lo[2]}.Len() / 2
	if r == 0 {
		return 1
	}
	return r
}

// Oriented reports whether the camera is exactly its base view: no
// rotation, no pan.
func (c *Camera) Oriented() bool {
	return c.Rotation == mgl32.QuatIdent() && c.Pan == (mgl32.Vec2{})
}

// Matrices is the camera for a w×h image:
//
//	View = T(Pan) · Base.View · T(centre) · R(Rotation) · T(−centre)
//
// computed as Base.Fit with the camera's magnification, and returned as it
// is when the camera is Oriented.
func (c *Camera) Matrices(w, h int) view.Camera {
	if w <= 0 || h <= 0 {
		panic(fmt.Sprintf("control: Camera.Matrices: image size %dx%d", w, h))
	}
	v := c.Base.In(c.Frame)
	v.Magnification = c.Magnification
	cam := v.Fit(c.Lo, c.Hi, w, h)
	if c.Oriented() {
		return cam
	}
	ctr := c.center()
	model := mgl32.Translate3D(ctr[0], ctr[1], ctr[2]).
		Mul4(c.Rotation.Normalize().Mat4()).
		Mul4(mgl32.Translate3D(-ctr[0], -ctr[1], -ctr[2]))
	cam.View = mgl32.Translate3D(c.Pan[0], c.Pan[1], 0).Mul4(cam.View).Mul4(model)
	return cam
}

// baseRotation is the rotation part of the base view (world to eye).
func (c *Camera) baseRotation() mgl32.Quat {
	v := c.Base.In(c.Frame)
	v.Magnification = 1
	m := v.Fit(c.Lo, c.Hi, 1, 1).View.Mat3().Mat4()
	return mgl32.Mat4ToQuat(m).Normalize()
}

// View is the camera in the notation view.Parse reads, "(az,el)xmag",
// so that a view found by hand can be drawn again headless: the azimuth
// and elevation of the direction the eye now looks from (after every
// rotation), in the camera's frame, rounded to a hundredth of a degree, and
// the magnification. The notation has no roll and no pan: the view drawn
// again looks from the same direction at the same magnification, upright
// in its frame and centred.
func (c *Camera) View() view.View {
	v := c.Base.In(c.Frame)
	// The eye's direction in world space: eye-space +z taken back through
	// the base view's rotation and the orbit's (View's rotation part is
	// Rv·R, so world = (Rv·R)ᵀ·ẑ).
	r := c.baseRotation().Mul(c.Rotation.Normalize())
	d := r.Inverse().Rotate(mgl32.Vec3{0, 0, 1})
	up, front := v.Frame.Up, v.Frame.Front
	if v.Frame == (view.Frame{}) {
		up, front = view.YUp.Up, view.YUp.Front
	}
	up = up.Normalize()
	front = front.Sub(up.Mul(front.Dot(up))).Normalize()
	right := up.Cross(front)
	el := math.Asin(math.Max(-1, math.Min(1, float64(d.Dot(up)))))
	az := math.Atan2(float64(d.Dot(right)), float64(d.Dot(front)))
	round := func(rad float64) float32 {
		deg := math.Round(rad*180/math.Pi*100) / 100
		return float32(deg)
	}
	e := round(el)
	if e >= 90 || e <= -90 { // straight down or up: view.Parse wants |el| < 90
		e = float32(math.Copysign(89.99, float64(e)))
	}
	out := view.Named(round(az), e, c.Magnification)
	if c.Base.Frame != (view.Frame{}) {
		out.Frame = c.Base.Frame
	}
	return out
}

// RotateEye turns the dataset by q, a rotation in eye space (x right, y up,
// z toward the viewer), about its centre. The rotation is moved into world
// space through the base view: R' = Rv⁻¹ · q · Rv · R, since
// View·T(c) = T(View·c)·Rv.
func (c *Camera) RotateEye(q mgl32.Quat) {
	rv := c.baseRotation()
	c.Rotation = rv.Inverse().Mul(q).Mul(rv).Mul(c.Rotation).Normalize()
}

// Zoom multiplies the magnification by f >= 0, within [MinMagnification,
// MaxMagnification] (so f = 0 or +Inf go to the limits).
func (c *Camera) Zoom(f float32) {
	if !(f >= 0) {
		return
	}
	c.Magnification = mgl32.Clamp(c.Magnification*f, MinMagnification, MaxMagnification)
}

// WorldPerPixel is the size of a pixel in world units in a w×h image at
// the current magnification: the orthographic view shows 2·radius/mag
// world units across the image's shorter side.
func (c *Camera) WorldPerPixel(w, h int) float32 {
	return 2 * c.radius() / c.Magnification / float32(min(w, h))
}

// PanPixels moves the picture by (dx, dy) pixels of a w×h image, dy down
// as window coordinates count, so that what was under the cursor stays
// under it.
func (c *Camera) PanPixels(dx, dy float64, w, h int) {
	s := c.WorldPerPixel(w, h)
	c.Pan = c.Pan.Add(mgl32.Vec2{float32(dx) * s, -float32(dy) * s})
}

// ArcballPoint maps a window position (x right, y down, in pixels of a w×h
// window) to Shoemake's arcball: the unit sphere whose silhouette is the
// circle inscribed in the window. Points outside the circle go to its rim.
func ArcballPoint(x, y float64, w, h int) mgl32.Vec3 {
	s := float64(min(w, h))
	px := (2*x - float64(w)) / s
	py := (float64(h) - 2*y) / s
	d := px*px + py*py
	if d > 1 {
		n := math.Sqrt(d)
		return mgl32.Vec3{float32(px / n), float32(py / n), 0}
	}
	return mgl32.Vec3{float32(px), float32(py), float32(math.Sqrt(1 - d))}
}

// Arcball is the eye-space rotation of a drag from (x0, y0) to (x1, y1):
// the rotation that takes one arcball point to the other.
func Arcball(x0, y0, x1, y1 float64, w, h int) mgl32.Quat {
	a, b := ArcballPoint(x0, y0, w, h), ArcballPoint(x1, y1, w, h)
	if a == b {
		return mgl32.QuatIdent()
	}
	return mgl32.QuatBetweenVectors(a, b)
}
