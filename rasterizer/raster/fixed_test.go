package raster

import (
	"math"
	"math/rand/v2"
	"testing"
)

// covers is the oracle: the fill rule evaluated directly at a pixel centre.
func covers(t *Triangle, x, y int32) bool {
	px, py := int64(x)*One+One/2, int64(y)*One+One/2
	for _, e := range t.edges() {
		if e.A*px+e.B*py+e.C+e.Bias < 0 {
			return false
		}
	}
	return true
}

func randVertex(r *rand.Rand, span int32) Vertex {
	return Vertex{X: r.Int32N(2*span) - span/2, Y: r.Int32N(2*span) - span/2, Z: r.Uint32N(DepthMax + 1)}
}

func TestSpanMatchesPointTest(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const w, h = 37, 29
	for n := 0; n < 4000; n++ {
		span := int32(40 * One)
		if n%4 == 0 {
			span = 3 * One // tiny triangles, many sub-pixel
		}
		v := [3]Vertex{randVertex(r, span), randVertex(r, span), randVertex(r, span)}
		if n%7 == 0 { // axis-aligned and on pixel centres: ties everywhere
			for i := range v {
				v[i].X = v[i].X&^(One-1) + One/2
				v[i].Y = v[i].Y&^(One-1) + One/2
			}
			v[1].Y = v[0].Y
		}
		tri, ok := Setup(v, uint32(n), h)
		if !ok {
			if area2(v[0], v[1], v[2]) != 0 {
				t.Fatalf("Setup refused a triangle of area %d", area2(v[0], v[1], v[2]))
			}
			continue
		}
		if tri.Area2 <= 0 || area2(tri.V[0], tri.V[1], tri.V[2]) <= 0 {
			t.Fatalf("setup left a clockwise triangle: %+v", tri)
		}
		for y := int32(-2); y < h+2; y++ {
			x0, x1, ok := tri.Span(y, w)
			for x := int32(0); x < w; x++ {
				want := covers(&tri, x, y)
				got := ok && x >= x0 && x <= x1 && y >= 0 && y < h
				if want && y >= 0 && y < h && (y < tri.YLo || y > tri.YHi) {
					t.Fatalf("row %d covered outside the workload rows [%d,%d]", y, tri.YLo, tri.YHi)
				}
				if y >= 0 && y < h && got != want {
					t.Fatalf("triangle %v row %d pixel %d: span [%d,%d] ok=%v, point test %v", v, y, x, x0, x1, ok, want)
				}
			}
		}
	}
}

// TestNoCracksNoOverlaps fans random convex polygons around an inner point:
// every pixel whose centre is strictly inside the polygon is covered exactly
// once, and none is covered twice.
func TestNoCracksNoOverlaps(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const w, h = 64, 64
	for n := 0; n < 300; n++ {
		k := 3 + r.IntN(9)
		cx, cy := 32+r.Float64()*4, 32+r.Float64()*4
		rad := 5 + r.Float64()*40
		angles := make([]float64, k)
		for i := range angles {
			angles[i] = float64(i)/float64(k)*2*math.Pi + r.Float64()*0.5/float64(k)
		}
		pts := make([]Vertex, k)
		for i, a := range angles {
			pts[i] = Vertex{X: Snap(float32(cx + rad*math.Cos(a))), Y: Snap(float32(cy + rad*math.Sin(a)))}
		}
		center := Vertex{X: Snap(float32(cx)), Y: Snap(float32(cy))}
		count := make([]int, w*h)
		for i := 0; i < k; i++ {
			tri, ok := Setup([3]Vertex{center, pts[i], pts[(i+1)%k]}, 0, h)
			if !ok {
				continue
			}
			for y := tri.YLo; y <= tri.YHi; y++ {
				x0, x1, ok := tri.Span(y, w)
				for x := x0; ok && x <= x1; x++ {
					count[int(y)*w+int(x)]++
				}
			}
		}
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				c := count[y*w+x]
				if c > 1 {
					t.Fatalf("polygon %d: pixel (%d,%d) covered %d times", n, x, y, c)
				}
				px, py := int64(x)*One+One/2, int64(y)*One+One/2
				inside := true
				for i := 0; i < k; i++ {
					a, b := pts[i], pts[(i+1)%k]
					if int64(b.X-a.X)*(py-int64(a.Y))-int64(b.Y-a.Y)*(px-int64(a.X)) <= 0 {
						inside = false
					}
				}
				if inside && c != 1 {
					t.Fatalf("polygon %d: pixel (%d,%d) strictly inside covered %d times", n, x, y, c)
				}
			}
		}
	}
}

func TestDepthInterpolation(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for n := 0; n < 2000; n++ {
		v := [3]Vertex{randVertex(r, 30*One), randVertex(r, 30*One), randVertex(r, 30*One)}
		tri, ok := Setup(v, 0, 40)
		if !ok {
			continue
		}
		zmin := min(v[0].Z, v[1].Z, v[2].Z)
		zmax := max(v[0].Z, v[1].Z, v[2].Z)
		for y := tri.YLo; y <= tri.YHi; y++ {
			x0, x1, ok := tri.Span(y, 40)
			for x := x0; ok && x <= x1; x++ {
				d := tri.Depth(x, y)
				if d < zmin || d > zmax {
					t.Fatalf("depth %d outside the vertices' [%d,%d]", d, zmin, zmax)
				}
				// Against float barycentrics: within one unit of rounding.
				px, py := float64(x)+0.5, float64(y)+0.5
				f := func(a, b Vertex) float64 {
					return (float64(b.X-a.X)/One)*(py-float64(a.Y)/One) - (float64(b.Y-a.Y)/One)*(px-float64(a.X)/One)
				}
				a2 := float64(tri.Area2) / (One * One)
				w1, w2 := f(tri.V[2], tri.V[0])/a2, f(tri.V[0], tri.V[1])/a2
				want := float64(tri.V[0].Z) + w1*(float64(tri.V[1].Z)-float64(tri.V[0].Z)) + w2*(float64(tri.V[2].Z)-float64(tri.V[0].Z))
				if math.Abs(float64(d)-want) > 1.01 {
					t.Fatalf("depth %d, float barycentric %.3f", d, want)
				}
			}
		}
	}
	// The extremes: a triangle spanning the guard band with full depth range.
	g := int32(GuardPixels*One - 1)
	tri, _ := Setup([3]Vertex{{-g, -g, 0}, {g, -g, DepthMax}, {-g, g, DepthMax / 2}}, 0, MaxImageSize)
	for _, p := range [][2]int32{{0, 0}, {MaxImageSize - 1, MaxImageSize - 1}, {100, 4000}} {
		if d := tri.Depth(p[0], p[1]); d > DepthMax {
			t.Fatalf("overflow at the guard band: %d", d)
		}
	}
}

func TestSnapAndQuantize(t *testing.T) {
	for _, c := range []struct {
		v    float32
		want int32
	}{{0, 0}, {1, 256}, {1.0 / 512, 1}, {-1.0 / 512, 0}, {-0.00196, -1}, {511.999, 131072}, {8191.5, 2097024}} {
		if got := Snap(c.v); got != c.want {
			t.Errorf("Snap(%v) = %d want %d", c.v, got, c.want)
		}
	}
	if QuantizeDepth(-1) != 0 || QuantizeDepth(float32(math.NaN())) != 0 || QuantizeDepth(2) != DepthMax || QuantizeDepth(0.5) != 8388608 || QuantizeDepth(1-1e-7) != DepthMax-2 {
		t.Fatal("QuantizeDepth")
	}
}

func TestVisibilityOrderIndependent(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var tris []Triangle
	for n := 0; n < 200; n++ {
		v := [3]Vertex{randVertex(r, 20*One), randVertex(r, 20*One), randVertex(r, 20*One)}
		v[1].Z, v[2].Z = v[0].Z, v[0].Z // equal depths: many ties
		v[0].Z %= 4
		v[1].Z, v[2].Z = v[0].Z, v[0].Z
		if tri, ok := Setup(v, uint32(n), 24); ok {
			tris = append(tris, tri)
		}
	}
	a := Rasterize(tris, 24, 24)
	r.Shuffle(len(tris), func(i, j int) { tris[i], tris[j] = tris[j], tris[i] })
	b := Rasterize(tris, 24, 24)
	for i := range a.Prim {
		if a.Prim[i] != b.Prim[i] || a.Depth[i] != b.Depth[i] {
			t.Fatalf("pixel %d differs with triangle order", i)
		}
	}
}
