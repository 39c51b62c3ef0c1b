package control

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/dpgl/dpgl/rasterizer/view"
)

// TestCameraView: the notation the viewer prints draws again the picture
// it was printed from: the same matrices, to rounding, for the starting
// views and after orbits that keep the frame's up upright (turns about
// the frame's up, then tilts about the eye's x), in either frame.
func TestCameraView(t *testing.T) {
	lo, hi := [3]float32{-2, 0, 1}, [3]float32{4, 3, 9}
	for _, frame := range []view.Frame{{}, view.RAS} {
		for _, name := range []string{"(0,0)", "M(45,45)", "(-120,30)x2.5", "(90,0)"} {
			base, err := view.Parse(name)
			if err != nil {
				t.Fatal(err)
			}
			for _, turn := range [][2]float32{{0, 0}, {30, 0}, {-75, 20}, {170, -40}} {
				c := NewCamera(lo, hi, base)
				c.Frame = frame
				c.Zoom(1.5)
				// Turn the dataset about the frame's up (world space),
				// then tilt it about the eye's x axis.
				up := frame.Up
				if frame == (view.Frame{}) {
					up = view.YUp.Up
				}
				c.Rotation = mgl32.QuatRotate(mgl32.DegToRad(turn[0]), up)
				c.RotateEye(mgl32.QuatRotate(mgl32.DegToRad(turn[1]), mgl32.Vec3{1, 0, 0}))
				if math.Abs(float64(base.Elevation+turn[1])) >= 89 {
					continue
				}
				v := c.View()
				w, err := view.Parse(v.Name)
				if err != nil {
					t.Fatalf("%s turned %v: printed %q, which does not parse: %v", name, turn, v.Name, err)
				}
				got := NewCamera(lo, hi, w.In(frame))
				a, b := c.Matrices(300, 200), got.Matrices(300, 200)
				for i := range a.View {
					if math.Abs(float64(a.View[i]-b.View[i])) > 1e-3*float32max(1, a.View[i]) || math.Abs(float64(a.Projection[i]-b.Projection[i])) > 1e-3*float32max(1, a.Projection[i]) {
						t.Fatalf("frame %v, %s turned %v: printed %s draws\n%v %v\nwant\n%v %v", frame, name, turn, v.Name, b.View, b.Projection, a.View, a.Projection)
					}
				}
			}
		}
	}
}

func float32max(a, b float32) float64 { return math.Max(float64(a), math.Abs(float64(b))) }
