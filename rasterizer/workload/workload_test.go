package workload

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// pixelSpace maps world x, y in pixels straight to window coordinates.
func pixelSpace(w, h int) [16]float32 {
	return [16]float32(mgl32.Ortho(0, float32(w), 0, float32(h), -1, 1))
}

// oracle counts, per row, the pixel centres inside the closed triangle, by
// testing every pixel; rows is the number of rows whose centre lies in the
// triangle's y range.
func oracle(t [3][3]float32, w, h int) (rows int, spans []int) {
	ylo := math.Min(float64(t[0][1]), math.Min(float64(t[1][1]), float64(t[2][1])))
	yhi := math.Max(float64(t[0][1]), math.Max(float64(t[1][1]), float64(t[2][1])))
	edge := func(a, b [3]float32, x, y float64) float64 {
		return (float64(b[0])-float64(a[0]))*(y-float64(a[1])) - (float64(b[1])-float64(a[1]))*(x-float64(a[0]))
	}
	area := edge(t[0], t[1], float64(t[2][0]), float64(t[2][1]))
	// A triangle wholly beyond one side of the image is clipped away.
	for a, size := range []float32{float32(w), float32(h)} {
		if t[0][a] < 0 && t[1][a] < 0 && t[2][a] < 0 || t[0][a] > size && t[1][a] > size && t[2][a] > size {
			return 0, nil
		}
	}
	for y := 0; y < h; y++ {
		yc := float64(y) + 0.5
		if yc < ylo || yc > yhi || area == 0 {
			continue
		}
		rows++
		n := 0
		for x := 0; x < w; x++ {
			xc := float64(x) + 0.5
			e0, e1, e2 := edge(t[0], t[1], xc, yc), edge(t[1], t[2], xc, yc), edge(t[2], t[0], xc, yc)
			if area < 0 {
				e0, e1, e2 = -e0, -e1, -e2
			}
			if e0 >= 0 && e1 >= 0 && e2 >= 0 {
				n++
			}
		}
		spans = append(spans, n)
	}
	return rows, spans
}

func TestAgainstPixelOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	const w, h = 61, 47
	mvp := pixelSpace(w, h)
	for trial := 0; trial < 2000; trial++ {
		var tri [3][3]float32
		scale := []float32{3, 20, 90}[trial%3] // tiny, typical, and crossing the image's edges
		for k := range tri {
			tri[k] = [3]float32{rng.Float32()*scale - scale/4 + float32(w)/3, rng.Float32()*scale - scale/4 + float32(h)/3, 0}
			// On the 1/16-pixel grid already, so that snapping keeps them.
			for a := 0; a < 2; a++ {
				tri[k][a] = float32(math.Round(float64(tri[k][a])*16) / 16)
			}
		}
		pos := [][3]float32{tri[0], tri[1], tri[2]}
		rows, spans := oracle(tri, w, h)
		sc, px := Workloads(pos, mvp, w, h)
		if int(sc[0]) != rows || len(px) != len(spans) {
			t.Fatalf("trial %d %v: %d scanlines %d spans, oracle %d rows", trial, tri, sc[0], len(px), rows)
		}
		for k := range spans {
			if int(px[k]) != spans[k] {
				t.Fatalf("trial %d %v: span %d has %d pixels, oracle %d", trial, tri, k, px[k], spans[k])
			}
		}
	}
}

func TestKnownTriangles(t *testing.T) {
	const w, h = 32, 16
	mvp := pixelSpace(w, h)
	pos := [][3]float32{
		{0.2, 0.2, 0}, {10.7, 0.2, 0}, {0.2, 5.3, 0}, // 5 rows; the bottom one 10 pixels
		{40, 2, 0}, {50, 2, 0}, {45, 9, 0}, // right of the image: outside, workload 0
		{1, 1, 0}, {5, 5, 0}, {9, 9, 0}, // zero area
		{2, -10, 0}, {4, 30, 0}, {3.2, 30, 0}, // taller than the image: clamped to 16 rows
	}
	sc, px := Workloads(pos, mvp, w, h)
	if sc[0] != 5 || sc[1] != 0 || sc[2] != 0 || sc[3] != h {
		t.Fatalf("scanlines %v, want [5 0 0 16]", sc)
	}
	if px[0] != 10 {
		t.Fatalf("bottom span of triangle 0 has %d pixels, want 10", px[0])
	}
	s := Measure(pos, mvp, w, h)
	if s.Triangles != 4 || s.Visible != 2 || s.Scanlines != 5+16 || s.ScanMax != 16 || s.ScanAvg != 21.0/4 {
		t.Fatalf("stats %+v", s)
	}
	var pixels int64
	for _, p := range px {
		pixels += int64(p)
	}
	if s.Pixels != pixels || s.SpanMax != 10 || s.SpanAvg != float64(pixels)/21 {
		t.Fatalf("stats %+v, pixels %d", s, pixels)
	}
	if r := s.ScanRatio(); math.Abs(r-16/5.25) > 1e-12 {
		t.Fatalf("ScanRatio %v", r)
	}
}

func TestDepthClipping(t *testing.T) {
	const w, h = 64, 64
	proj := mgl32.Perspective(mgl32.DegToRad(60), 1, 1, 10)
	look := mgl32.LookAtV(mgl32.Vec3{0, 0, 0}, mgl32.Vec3{0, 0, -1}, mgl32.Vec3{0, 1, 0})
	mvp := [16]float32(proj.Mul4(look))
	pos := [][3]float32{
		{-1, -1, 5}, {1, -1, 5}, {0, 1, 5}, // behind the eye
		{-1, -1, -20}, {1, -1, -20}, {0, 1, -20}, // beyond the far plane
		{-1, -1, -3}, {1, -1, -3}, {0, 3, 3}, // through the near plane, to behind the eye
		{-1, -1, -3}, {1, -1, -3}, {0, 1, -3}, // in view
	}
	sc, px := Workloads(pos, mvp, w, h)
	if sc[0] != 0 || sc[1] != 0 || sc[2] == 0 || sc[3] == 0 {
		t.Fatalf("scanlines %v: want none behind the eye or beyond the far plane, some for the others", sc)
	}
	for i, p := range px {
		if p > w {
			t.Fatalf("span %d has %d pixels in a %d-wide image", i, p, w)
		}
	}
}
