package raster

import "math"

// The transform and clipping run in float32 with every operation written out
// in one order, here and in shaders/rasterizer/raster.glsl (whose float
// expressions are declared precise, so the driver may not fuse or reorder
// them). The one operation GLSL does not promise to round correctly is
// division (x/w, the clip intersection parameter): where a GPU's division
// differs from IEEE, a vertex may snap 1/256 pixel apart from the CPU's, which
// moves coverage only along that triangle's edges. Everything after snapping
// is integer and exact.

// Vec4 is a point in clip space (x, y, z, w).
type Vec4 [4]float32

// Transform returns m*p for a column-major 4x4 matrix m (mathgl's layout)
// and the point (p, 1).
func Transform(m *[16]float32, p [3]float32) Vec4 {
	var r Vec4
	for i := 0; i < 4; i++ {
		r[i] = float32(float32(float32(m[i]*p[0])+float32(m[4+i]*p[1]))+float32(m[8+i]*p[2])) + m[12+i]
	}
	return r
}

// ClipResult says what became of a triangle.
type ClipResult int

const (
	ClipInside    ClipResult = iota // wholly inside the guard band and depth range: drawn as is
	ClipClipped                     // crosses a plane: replaced by a polygon
	ClipOutside                     // wholly outside the view volume: workload 0
	ClipNonFinite                   // a coordinate is NaN or infinite: skipped
)

// MaxClipVertices bounds the polygon left by clipping a triangle against the
// six planes: each plane adds at most one vertex.
const MaxClipVertices = 9

// Guard returns the guard-band half-widths in normalized device coordinates
// for a width x height image: vertices within them snap to within
// GuardPixels of the origin (with a 16-pixel margin for rounding).
func Guard(width, height int) (gx, gy float32) {
	gx = float32(2*(GuardPixels-16))/float32(width) - 1
	gy = float32(2*(GuardPixels-16))/float32(height) - 1
	return gx, gy
}

// planeDist returns the signed distance of v to clip plane i (inside >= 0):
// near z >= -w, far z <= w, then the guard band x <= gx*w, -x <= gx*w,
// y <= gy*w, -y <= gy*w.
func planeDist(v Vec4, i int, gx, gy float32) float32 {
	switch i {
	case 0:
		return v[2] + v[3]
	case 1:
		return v[3] - v[2]
	case 2:
		return float32(gx*v[3]) - v[0]
	case 3:
		return float32(gx*v[3]) + v[0]
	case 4:
		return float32(gy*v[3]) - v[1]
	default:
		return float32(gy*v[3]) + v[1]
	}
}

// viewDist is the distance to the view volume's side planes (|x|, |y| <= w),
// for trivial rejection.
func viewDist(v Vec4, i int) float32 {
	switch i {
	case 0:
		return v[3] - v[0]
	case 1:
		return v[3] + v[0]
	case 2:
		return v[3] - v[1]
	default:
		return v[3] + v[1]
	}
}

func finite(v Vec4) bool {
	for _, c := range v {
		if math.IsNaN(float64(c)) || math.IsInf(float64(c), 0) {
			return false
		}
	}
	return true
}

// Clip classifies triangle t (clip space) and, when it crosses a plane,
// returns the clipped polygon in poly (Sutherland–Hodgman over the six
// planes in order). n is the polygon's vertex count (3 for ClipInside, 0 for
// ClipOutside and ClipNonFinite).
func Clip(t [3]Vec4, gx, gy float32, poly *[MaxClipVertices]Vec4) (ClipResult, int) {
	for _, v := range t {
		if !finite(v) {
			return ClipNonFinite, 0
		}
	}
	// Wholly outside one plane of the view volume (near, far, or a side).
	for i := 0; i < 2; i++ {
		if planeDist(t[0], i, gx, gy) < 0 && planeDist(t[1], i, gx, gy) < 0 && planeDist(t[2], i, gx, gy) < 0 {
			return ClipOutside, 0
		}
	}
	for i := 0; i < 4; i++ {
		if viewDist(t[0], i) < 0 && viewDist(t[1], i) < 0 && viewDist(t[2], i) < 0 {
			return ClipOutside, 0
		}
	}
	inside := true
	for i := 0; i < 6 && inside; i++ {
		for _, v := range t {
			if planeDist(v, i, gx, gy) < 0 {
				inside = false
			}
		}
	}
	poly[0], poly[1], poly[2] = t[0], t[1], t[2]
	if inside {
		return ClipInside, 3
	}
	n := 3
	var tmp [MaxClipVertices]Vec4
	for i := 0; i < 6; i++ {
		m := 0
		for k := 0; k < n; k++ {
			a, b := poly[k], poly[(k+1)%n]
			da, db := planeDist(a, i, gx, gy), planeDist(b, i, gx, gy)
			if da >= 0 {
				tmp[m] = a
				m++
			}
			if (da >= 0) != (db >= 0) {
				// The crossing, computed from the inside vertex so that both
				// triangles sharing this edge get the same point.
				in, out, din, dout := a, b, da, db
				if da < 0 {
					in, out, din, dout = b, a, db, da
				}
				s := din / (din - dout)
				var p Vec4
				for c := 0; c < 4; c++ {
					p[c] = in[c] + float32(s*(out[c]-in[c]))
				}
				tmp[m] = p
				m++
			}
		}
		n = m
		copy(poly[:n], tmp[:n])
		if n < 3 {
			return ClipOutside, 0
		}
	}
	return ClipClipped, n
}

// ToWindow maps a clip-space point to a snapped window-space vertex for a
// width x height image (viewport at the origin, depth range [0, 1]).
func ToWindow(v Vec4, width, height int) Vertex {
	x := float32(v[0]/v[3]) + 1
	y := float32(v[1]/v[3]) + 1
	z := float32(v[2]/v[3]) + 1
	return Vertex{
		X: Snap(float32(x * float32(0.5*float32(width)))),
		Y: Snap(float32(y * float32(0.5*float32(height)))),
		Z: QuantizeDepth(float32(z * 0.5)),
	}
}
