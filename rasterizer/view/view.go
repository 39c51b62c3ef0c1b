package view

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/go-gl/mathgl/mgl64"
)

// Magnified is the magnification of the paper's "M" views.
const Magnified = 3

// View is an orbit camera around a dataset.
type View struct {
	Name string
	// Azimuth turns the eye about the y axis, from +z toward +x (degrees);
	// Elevation raises it above the xz plane (degrees, below ±90).
	Azimuth, Elevation float32
	// Magnification 1 fits the bounding sphere in the image; k shows 1/k
	// of it.
	Magnification float32
	// FOV is the vertical field of view of a perspective camera in degrees
	// at magnification 1; 0 means orthographic.
	FOV float32
	// Frame orients the orbit: its zero value is the paper's (YUp).
	Frame Frame
	// target is the look-at point when aimed (LookingAt); otherwise Fit
	// looks at the centre of the box.
	target mgl32.Vec3
	aimed  bool
}

// Paper returns the paper's four views in Table 1's order: (0,0), (45,45),
// M(0,0), M(45,45).
func Paper() []View {
	return []View{
		{Name: "(0,0)", Magnification: 1},
		{Name: "(45,45)", Azimuth: 45, Elevation: 45, Magnification: 1},
		{Name: "M(0,0)", Magnification: Magnified},
		{Name: "M(45,45)", Azimuth: 45, Elevation: 45, Magnification: Magnified},
	}
}

// Names are the names of the paper's views, in Table 1's order.
func Names() []string {
	var out []string
	for _, v := range Paper() {
		out = append(out, v.Name)
	}
	return out
}

// Camera is a model-view and a projection matrix (column-major, as mathgl's
// Mat4); rasterizer.Camera has the same fields and converts from it.
type Camera struct {
	View, Projection mgl32.Mat4
}

// MVP is Projection * View.
func (c Camera) MVP() [16]float32 { return [16]float32(c.Projection.Mul4(c.View)) }

// Direction is the unit vector from the centre toward the eye:
// Front·cos az·cos el + Right·sin az·cos el + Up·sin el of the view's
// frame.
func (v View) Direction() mgl32.Vec3 {
	az := float64(mgl32.DegToRad(v.Azimuth))
	el := float64(mgl32.DegToRad(v.Elevation))
	if v.Frame.paper() {
		// The paper's frame, as it always was computed: its images stay
		// the same bit for bit.
		return mgl32.Vec3{float32(math.Sin(az) * math.Cos(el)), float32(math.Sin(el)), float32(math.Cos(az) * math.Cos(el))}
	}
	up, front, right := v.Frame.axes()
	d := front.Mul(math.Cos(az) * math.Cos(el)).Add(right.Mul(math.Sin(az) * math.Cos(el))).Add(up.Mul(math.Sin(el)))
	return mgl32.Vec3{float32(d[0]), float32(d[1]), float32(d[2])}
}

// Camera looks at centre from the view's direction, with the sphere of the
// given radius around centre filling the image's shorter side at
// magnification 1, for an image of the given width/height aspect. The
// matrices are built in float64 and rounded once: float32 would overflow
// the squares of distances past 1e19 (normalizing the view direction, the
// perspective's near·far), and the scene would vanish.
func (v View) Camera(center mgl32.Vec3, radius, aspect float32) Camera {
	if !(radius > 0) || !(aspect > 0) || !(v.Magnification > 0) || !(math.Abs(float64(v.Elevation)) < 90) {
		panic(fmt.Sprintf("view: View.Camera: %s: radius %v, aspect %v, magnification %v, elevation %v: want positive values and |elevation| < 90",
			v.Name, radius, aspect, v.Magnification, v.Elevation))
	}
	if err := v.Frame.check(); err != nil {
		panic(fmt.Sprintf("view: View.Camera: %s: %v", v.Name, err))
	}
	up64, _, _ := v.Frame.axes()
	c := mgl64.Vec3{float64(center[0]), float64(center[1]), float64(center[2])}
	r, a := float64(radius), float64(aspect)
	d := v.Direction()
	dir := mgl64.Vec3{float64(d[0]), float64(d[1]), float64(d[2])}
	half := r / float64(v.Magnification) // half the visible height (or width, if narrower)
	hh, hw := half, half*a
	if a < 1 {
		hh, hw = half/a, half
	}
	if v.FOV <= 0 {
		eye := c.Add(dir.Mul(2 * r))
		return Camera{
			View:       mat32(mgl64.LookAtV(eye, c, up64)),
			Projection: mat32(mgl64.Ortho(-hw, hw, -hh, hh, r, 3*r)),
		}
	}
	// Perspective: the eye stays where the unmagnified sphere just fits the
	// field of view; magnifying narrows the field of view.
	halfFOV := float64(mgl32.DegToRad(v.FOV)) / 2
	dist := r / math.Sin(halfFOV)
	fovy := 2 * math.Atan(math.Tan(halfFOV)*hh/r)
	eye := c.Add(dir.Mul(dist))
	return Camera{
		View:       mat32(mgl64.LookAtV(eye, c, up64)),
		Projection: mat32(mgl64.Perspective(fovy, a, max(dist-r, r*1e-3), dist+r)),
	}
}

// mat32 rounds a float64 matrix to float32.
func mat32(m mgl64.Mat4) mgl32.Mat4 {
	var o mgl32.Mat4
	for i, x := range m {
		o[i] = float32(x)
	}
	return o
}

// Fit is Camera for the bounding sphere of the box [lo, hi] and a w×h
// image, its centre and radius computed in float64. A view aimed with
// LookingAt is centred on its target instead, with the radius of the
// sphere about the target that holds the whole box.
func (v View) Fit(lo, hi [3]float32, w, h int) Camera {
	var c mgl32.Vec3
	var d2 float64
	for a := 0; a < 3; a++ {
		l, u := float64(lo[a]), float64(hi[a])
		c[a] = float32(l + (u-l)/2)
		d2 += (u - l) * (u - l)
	}
	r := float32(math.Sqrt(d2) / 2)
	if v.aimed {
		c, d2 = v.target, 0
		for a := 0; a < 3; a++ {
			t := float64(v.target[a])
			d := max(math.Abs(float64(lo[a])-t), math.Abs(float64(hi[a])-t))
			d2 += d * d
		}
		r = float32(math.Sqrt(d2))
	}
	if r == 0 {
		r = 1 // a point: any scale shows it
	}
	return v.Camera(c, r, float32(w)/float32(h))
}
