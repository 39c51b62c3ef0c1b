package workload

import (
	"fmt"
	"math"

	"github.com/dpgl/dpgl/rasterizer/raster"
)

// Stats are the maximum and average workloads of both loops, as in the
// paper's Table 1.
type Stats struct {
	Triangles int   // in the polygon set
	Visible   int   // with at least one scanline
	Scanlines int64 // scan-conversion tasks (= spans, the z-buffer's problem data)
	Pixels    int64 // z-buffer tasks

	ScanMax int     // most scanlines of one triangle
	ScanAvg float64 // Scanlines / Triangles: every triangle a processor, idle ones too
	SpanMax int     // most pixels of one span
	SpanAvg float64 // Pixels / Scanlines
}

// ScanRatio is ScanMax/ScanAvg, the scan-conversion loop's imbalance.
func (s Stats) ScanRatio() float64 { return ratio(float64(s.ScanMax), s.ScanAvg) }

// SpanRatio is SpanMax/SpanAvg, the z-buffer loop's imbalance.
func (s Stats) SpanRatio() float64 { return ratio(float64(s.SpanMax), s.SpanAvg) }

func ratio(m, a float64) float64 {
	if a == 0 {
		return 0
	}
	return m / a
}

func (s Stats) String() string {
	return fmt.Sprintf("scan max %d avg %.2f (x%.1f), z-buffer max %d avg %.2f (x%.1f), %d of %d triangles visible",
		s.ScanMax, s.ScanAvg, s.ScanRatio(), s.SpanMax, s.SpanAvg, s.SpanRatio(), s.Visible, s.Triangles)
}

// Measure computes the statistics of a triangle soup (vertex k of triangle
// i at pos[3i+k], as mesh.Mesh.Soup returns it) seen through mvp
// (column-major, as view.Camera.MVP returns it) in a w×h image.
func Measure(pos [][3]float32, mvp [16]float32, w, h int) Stats {
	var s Stats
	Each(pos, mvp, w, h, func(tri int, rows int, span func(k int) int) {
		s.Triangles++
		if rows == 0 {
			return
		}
		s.Visible++
		s.Scanlines += int64(rows)
		s.ScanMax = max(s.ScanMax, rows)
		for k := 0; k < rows; k++ {
			p := span(k)
			s.Pixels += int64(p)
			s.SpanMax = max(s.SpanMax, p)
		}
	})
	if s.Triangles > 0 {
		s.ScanAvg = float64(s.Scanlines) / float64(s.Triangles)
	}
	if s.Scanlines > 0 {
		s.SpanAvg = float64(s.Pixels) / float64(s.Scanlines)
	}
	return s
}

// Workloads returns the per-triangle scanline counts and, triangle by
// triangle and bottom row first, the per-span pixel counts: the workload
// arrays of the two loops.
func Workloads(pos [][3]float32, mvp [16]float32, w, h int) (scanlines, pixels []uint32) {
	scanlines = make([]uint32, 0, len(pos)/3)
	Each(pos, mvp, w, h, func(tri int, rows int, span func(k int) int) {
		scanlines = append(scanlines, uint32(rows))
		for k := 0; k < rows; k++ {
			pixels = append(pixels, uint32(span(k)))
		}
	})
	return scanlines, pixels
}

type vec4 [4]float64

// Each calls fn for every triangle in order with its number of scanlines
// and a function giving the pixels of its k-th scanline (k = 0 is the
// lowest row). It panics unless len(pos) is a multiple of 3 and w, h > 0.
func Each(pos [][3]float32, mvp [16]float32, w, h int, fn func(tri int, rows int, span func(k int) int)) {
	if len(pos)%3 != 0 {
		panic(fmt.Sprintf("workload: %d positions is not a multiple of 3", len(pos)))
	}
	if w <= 0 || h <= 0 {
		panic(fmt.Sprintf("workload: image %dx%d", w, h))
	}
	var poly, tmp [8]vec4
	var win [8][2]float64
	for i := 0; i < len(pos)/3; i++ {
		for k := 0; k < 3; k++ {
			poly[k] = transform(&mvp, pos[3*i+k])
		}
		n := clipDepth(&poly, 3, &tmp)
		if n == 0 || outside(poly[:n]) {
			fn(i, 0, nil)
			continue
		}
		ylo, yhi := math.Inf(1), math.Inf(-1)
		area := 0.0
		for k := 0; k < n; k++ {
			x := snap((poly[k][0]/poly[k][3] + 1) / 2 * float64(w))
			y := snap((poly[k][1]/poly[k][3] + 1) / 2 * float64(h))
			win[k] = [2]float64{x, y}
			ylo, yhi = math.Min(ylo, y), math.Max(yhi, y)
		}
		// Twice the area; exact on snapped coordinates, so that edge-on
		// triangles are 0 as the renderer sees them.
		for k := 1; k+1 < n; k++ {
			area += (win[k][0]-win[0][0])*(win[k+1][1]-win[0][1]) - (win[k+1][0]-win[0][0])*(win[k][1]-win[0][1])
		}
		// Rows y with ylo <= y+0.5 <= yhi, within [0, h).
		r0 := max(int(math.Ceil(ylo-0.5)), 0)
		r1 := min(int(math.Floor(yhi-0.5)), h-1)
		if area == 0 || math.IsNaN(area) || r1 < r0 {
			fn(i, 0, nil)
			continue
		}
		pts := win[:n]
		fn(i, r1-r0+1, func(k int) int {
			yc := float64(r0+k) + 0.5
			xl, xr := math.Inf(1), math.Inf(-1)
			for j := range pts {
				a, b := pts[j], pts[(j+1)%len(pts)]
				if (yc < a[1] && yc < b[1]) || (yc > a[1] && yc > b[1]) {
					continue
				}
				if a[1] == b[1] {
					xl, xr = math.Min(xl, math.Min(a[0], b[0])), math.Max(xr, math.Max(a[0], b[0]))
					continue
				}
				x := a[0] + (yc-a[1])*(b[0]-a[0])/(b[1]-a[1])
				xl, xr = math.Min(xl, x), math.Max(xr, x)
			}
			// Pixels x with xl <= x+0.5 <= xr, within [0, w).
			c0 := max(int(math.Ceil(xl-0.5)), 0)
			c1 := min(int(math.Floor(xr-0.5)), w-1)
			return max(c1-c0+1, 0)
		})
	}
}

// snap rounds a window coordinate to 1/raster.One pixel, half up
// (raster.Snap).
func snap(v float64) float64 { return math.Floor(v*raster.One+0.5) / raster.One }

func transform(m *[16]float32, p [3]float32) vec4 {
	var r vec4
	for i := 0; i < 4; i++ {
		r[i] = float64(m[i])*float64(p[0]) + float64(m[4+i])*float64(p[1]) + float64(m[8+i])*float64(p[2]) + float64(m[12+i])
	}
	return r
}

// clipDepth clips the polygon poly[:n] against the near (z >= -w) and far
// (z <= w) planes, in place; it returns the new vertex count.
func clipDepth(poly *[8]vec4, n int, tmp *[8]vec4) int {
	for plane := 0; plane < 2 && n > 0; plane++ {
		dist := func(v vec4) float64 {
			if plane == 0 {
				return v[2] + v[3]
			}
			return v[3] - v[2]
		}
		m := 0
		for k := 0; k < n; k++ {
			a, b := poly[k], poly[(k+1)%n]
			da, db := dist(a), dist(b)
			if da >= 0 {
				tmp[m] = a
				m++
			}
			if (da >= 0) != (db >= 0) {
				t := da / (da - db)
				var v vec4
				for c := range v {
					v[c] = a[c] + t*(b[c]-a[c])
				}
				tmp[m] = v
				m++
			}
		}
		*poly, n = *tmp, m
	}
	return n
}

// outside says whether every vertex lies beyond one side plane of the view
// volume (|x| <= w, |y| <= w): the triangle cannot be seen.
func outside(p []vec4) bool {
	for plane := 0; plane < 4; plane++ {
		all := true
		for _, v := range p {
			var d float64
			switch plane {
			case 0:
				d = v[3] - v[0]
			case 1:
				d = v[3] + v[0]
			case 2:
				d = v[3] - v[1]
			default:
				d = v[3] + v[1]
			}
			if d >= 0 {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}
