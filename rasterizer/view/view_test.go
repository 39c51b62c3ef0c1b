package view

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

func ndc(c Camera, p mgl32.Vec3) mgl32.Vec3 {
	q := mgl32.Mat4(c.MVP()).Mul4x1(p.Vec4(1))
	return q.Vec3().Mul(1 / q[3])
}

func near(a, b mgl32.Vec3) bool { return a.Sub(b).Len() < 1e-5 }

func TestPaperViews(t *testing.T) {
	vs := Paper()
	if len(vs) != 4 || vs[0].Name != "(0,0)" || vs[3].Name != "M(45,45)" || vs[3].Magnification != Magnified {
		t.Fatalf("Paper() = %+v", vs)
	}
	center, r := mgl32.Vec3{1, 2, 3}, float32(2)
	// (0,0) looks down -z with y up: +x is right, +y is up, +z is nearer.
	c := vs[0].Camera(center, r, 1)
	if got := ndc(c, center); !near(got, mgl32.Vec3{0, 0, got[2]}) {
		t.Fatalf("(0,0): centre at %v", got)
	}
	if got := ndc(c, center.Add(mgl32.Vec3{r, 0, 0})); math.Abs(float64(got[0]-1)) > 1e-5 || math.Abs(float64(got[1])) > 1e-5 {
		t.Fatalf("(0,0): centre+r·x at %v, want the right edge", got)
	}
	if got := ndc(c, center.Add(mgl32.Vec3{0, r, 0})); math.Abs(float64(got[1]-1)) > 1e-5 {
		t.Fatalf("(0,0): centre+r·y at %v, want the top edge", got)
	}
	if a, b := ndc(c, center.Add(mgl32.Vec3{0, 0, r})), ndc(c, center.Sub(mgl32.Vec3{0, 0, r})); !(a[2] < b[2]) || a[2] < -1 || b[2] > 1 {
		t.Fatalf("(0,0): depth of front %v and back %v of the sphere", a[2], b[2])
	}
	// (45,45) sees the sphere's point toward (1, √2, 1)/2 in the middle, nearest.
	c = vs[1].Camera(center, r, 1)
	d := mgl32.Vec3{0.5, float32(math.Sqrt2) / 2, 0.5}
	if !near(vs[1].Direction(), d) {
		t.Fatalf("(45,45) direction %v, want %v", vs[1].Direction(), d)
	}
	if got := ndc(c, center.Add(d.Mul(r))); math.Abs(float64(got[0])) > 1e-5 || math.Abs(float64(got[1])) > 1e-5 || math.Abs(float64(got[2]+1)) > 1e-4 {
		t.Fatalf("(45,45): nearest point at %v, want (0, 0, -1)", got)
	}
	// Magnified: a third of the radius reaches the image's edge.
	c = vs[2].Camera(center, r, 1)
	if got := ndc(c, center.Add(mgl32.Vec3{0, r / 3, 0})); math.Abs(float64(got[1]-1)) > 1e-5 {
		t.Fatalf("M(0,0): centre+r/3·y at %v, want the top edge", got)
	}
	// Wide images keep the height; tall ones keep the width.
	if got := ndc(vs[0].Camera(center, r, 2), center.Add(mgl32.Vec3{r, r, 0})); math.Abs(float64(got[0]-0.5)) > 1e-5 || math.Abs(float64(got[1]-1)) > 1e-5 {
		t.Fatalf("aspect 2: %v", got)
	}
	if got := ndc(vs[0].Camera(center, r, 0.5), center.Add(mgl32.Vec3{r, r, 0})); math.Abs(float64(got[0]-1)) > 1e-5 || math.Abs(float64(got[1]-0.5)) > 1e-5 {
		t.Fatalf("aspect 0.5: %v", got)
	}
}

// TestSphereFits checks that at magnification 1 every point of the bounding
// sphere is inside the view volume, for both projections, and that the
// magnified views clip part of it.
func TestSphereFits(t *testing.T) {
	center, r := mgl32.Vec3{-1, 0.5, 2}, float32(1.5)
	for _, fov := range []float32{0, 40} {
		for _, v := range Paper() {
			v.FOV = fov
			c := v.Camera(center, r, 1.25)
			clipped := 0
			for i := 0; i < 2000; i++ {
				// Points spread over the sphere (a spiral).
				z := 1 - 2*(float64(i)+0.5)/2000
				phi := float64(i) * math.Pi * (3 - math.Sqrt(5))
				s := math.Sqrt(1 - z*z)
				p := center.Add(mgl32.Vec3{float32(s * math.Cos(phi)), float32(z), float32(s * math.Sin(phi))}.Mul(r * 0.999))
				q := ndc(c, p)
				in := math.Abs(float64(q[0])) <= 1 && math.Abs(float64(q[1])) <= 1 && math.Abs(float64(q[2])) <= 1
				if !in {
					clipped++
				}
			}
			if v.Magnification == 1 && clipped > 0 {
				t.Errorf("%s fov %v: %d sphere points outside the view volume", v.Name, fov, clipped)
			}
			if v.Magnification > 1 && clipped < 1000 {
				t.Errorf("%s fov %v: only %d of 2000 sphere points clipped", v.Name, fov, clipped)
			}
		}
	}
}

func TestFitAndMisuse(t *testing.T) {
	c := Paper()[0].Fit([3]float32{-1, -2, -2}, [3]float32{1, 2, 2}, 512, 512)
	if got := ndc(c, mgl32.Vec3{0, 3, 0}); math.Abs(float64(got[1]-1)) > 1e-5 {
		t.Fatalf("Fit: half-diagonal 3 at %v, want the top edge", got)
	}
	if _, err := ByName("M(45,45)"); err != nil {
		t.Fatal(err)
	}
	if _, err := ByName("(90,90)"); err == nil || !strings.Contains(err.Error(), "elevation 90") {
		t.Fatalf("ByName: %v", err)
	}
	defer func() {
		if p := recover(); p == nil || !strings.Contains(p.(string), "view: View.Camera") {
			t.Fatalf("panic %v", p)
		}
	}()
	View{Name: "bad", Magnification: 1, Elevation: 90}.Camera(mgl32.Vec3{}, 1, 1)
}
