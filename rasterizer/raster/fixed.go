package raster

import (
	"math"
	"math/bits"
)

const (
	// SubpixelBits is the fixed-point precision of snapped positions: 1/256
	// pixel.
	SubpixelBits = 8
	// One is one pixel in fixed-point units.
	One = 1 << SubpixelBits
	// DepthBits is the precision of window depth.
	DepthBits = 24
	// DepthMax is the quantized depth of the far plane; it also marks a
	// pixel no triangle covers.
	DepthMax = 1<<DepthBits - 1
	// GuardPixels bounds snapped coordinates: every vertex lies in
	// (-GuardPixels, GuardPixels) pixels. Clipping keeps triangles inside,
	// and images may be at most MaxImageSize on a side.
	GuardPixels = 1 << 13
	// MaxImageSize is the largest image width or height.
	MaxImageSize = 4096
)

// Vertex is a snapped window-space vertex.
type Vertex struct {
	X, Y int32  // 1/256 pixel
	Z    uint32 // quantized depth, 0..DepthMax
}

// Snap converts a window coordinate in pixels to fixed point, rounding half
// up. Callers keep |v| < GuardPixels.
func Snap(v float32) int32 {
	return int32(roundHalfUp(v * One))
}

// QuantizeDepth converts window depth in [0, 1] (clamped) to DepthBits.
func QuantizeDepth(z float32) uint32 {
	if !(z > 0) { // also NaN
		return 0
	}
	if z >= 1 {
		return DepthMax
	}
	return uint32(roundHalfUp(z * DepthMax))
}

// roundHalfUp is floor(f + 0.5) computed without the addition, which float32
// would round for |f| >= 2^23: floor and the fraction of a float32 are
// exact, so this gives the same integer on every IEEE machine.
func roundHalfUp(f float32) float32 {
	fl := float32(math.Floor(float64(f)))
	if f-fl >= 0.5 {
		return fl + 1
	}
	return fl
}

// Triangle is a set-up triangle: snapped vertices wound counter-clockwise,
// twice its signed area (positive), and the rows its workload covers.
type Triangle struct {
	V        [3]Vertex
	Area2    int64
	YLo, YHi int32  // rows whose centres lie within the vertices' y range, clamped to the image
	Flipped  bool   // the input was clockwise (its back face is towards the viewer)
	Prim     uint32 // the primitive id of the input triangle
}

// Rows is the scan-conversion workload: the number of rows the triangle
// covers (0 for one outside the image or of zero area).
func (t *Triangle) Rows() int {
	if t.YHi < t.YLo {
		return 0
	}
	return int(t.YHi - t.YLo + 1)
}

// Setup orders the vertices counter-clockwise and computes the row range for
// an image of the given height. ok is false for a zero-area triangle, which
// covers no pixel.
func Setup(v [3]Vertex, prim uint32, height int) (t Triangle, ok bool) {
	t.Prim = prim
	a := area2(v[0], v[1], v[2])
	if a == 0 {
		t.YLo, t.YHi = 0, -1
		return t, false
	}
	if a < 0 {
		v[1], v[2] = v[2], v[1]
		a = -a
		t.Flipped = true
	}
	t.V, t.Area2 = v, a
	ymin := min(v[0].Y, v[1].Y, v[2].Y)
	ymax := max(v[0].Y, v[1].Y, v[2].Y)
	// Rows y whose centre 16y+8 lies in [ymin, ymax].
	lo := ceilDiv(int64(ymin)-One/2, One)
	hi := floorDiv(int64(ymax)-One/2, One)
	lo = max(lo, 0)
	hi = min(hi, int64(height)-1)
	t.YLo, t.YHi = int32(lo), int32(hi)
	return t, true
}

func area2(a, b, c Vertex) int64 {
	return int64(b.X-a.X)*int64(c.Y-a.Y) - int64(c.X-a.X)*int64(b.Y-a.Y)
}

// edge is the edge function of the directed edge a->b, E(P) = A*Px + B*Py +
// C, positive to its left (inside a counter-clockwise triangle), with Bias
// -1 on edges that are neither left nor bottom, so that E+Bias >= 0 is the
// fill rule's test.
type edge struct{ A, B, C, Bias int64 }

func makeEdge(a, b Vertex) edge {
	dx, dy := int64(b.X-a.X), int64(b.Y-a.Y)
	e := edge{A: -dy, B: dx, C: dy*int64(a.X) - dx*int64(a.Y)}
	if !(dy < 0 || dy == 0 && dx > 0) {
		e.Bias = -1
	}
	return e
}

// Edges returns the edge functions opposite vertices 0, 1 and 2: edge i
// weighs vertex i (it is zero on the opposite side and Area2 at vertex i).
func (t *Triangle) edges() [3]edge {
	return [3]edge{makeEdge(t.V[1], t.V[2]), makeEdge(t.V[2], t.V[0]), makeEdge(t.V[0], t.V[1])}
}

// Span returns the first and last pixel of row y that the triangle covers,
// clamped to [0, width). ok is false when the row holds none.
func (t *Triangle) Span(y int32, width int) (x0, x1 int32, ok bool) {
	yc := int64(y)*One + One/2
	lo, hi := int64(0), int64(width)-1
	for _, e := range t.edges() {
		// Pixel x is inside when A*(16x+8) + K >= 0.
		k := e.B*yc + e.C + e.Bias
		switch {
		case e.A > 0: // 16x+8 >= ceil(-K/A)
			lo = max(lo, ceilDiv(ceilDiv(-k, e.A)-One/2, One))
		case e.A < 0: // 16x+8 <= floor(K/-A)
			hi = min(hi, floorDiv(floorDiv(k, -e.A)-One/2, One))
		default:
			if k < 0 {
				return 0, -1, false
			}
		}
	}
	if lo > hi {
		return 0, -1, false
	}
	return int32(lo), int32(hi), true
}

// Depth returns the quantized depth at the centre of pixel (x, y), which the
// triangle covers.
func (t *Triangle) Depth(x, y int32) uint32 {
	px, py := int64(x)*One+One/2, int64(y)*One+One/2
	e := t.edges()
	w1 := e[1].A*px + e[1].B*py + e[1].C
	w2 := e[2].A*px + e[2].B*py + e[2].C
	a := t.Area2
	if s := bits.Len64(uint64(a)) - depthAreaBits; s > 0 {
		w1, w2, a = w1>>s, w2>>s, a>>s
	}
	z0 := int64(t.V[0].Z)
	d := z0 + floorDiv(w1*(int64(t.V[1].Z)-z0)+w2*(int64(t.V[2].Z)-z0), a)
	// Pixels taken by the fill rule on an edge can sit a hair outside the
	// vertices' depth range after rounding; keep depth in range.
	return uint32(min(max(d, 0), DepthMax))
}

// depthAreaBits bounds the area (and the edge functions) used for depth
// interpolation, so that 2 * 2^36 * 2^24 < 2^63.
const depthAreaBits = 36

// floorDiv is floor(a/b) for b > 0, with every division on non-negative
// operands (GLSL leaves integer division of negatives undefined).
func floorDiv(a, b int64) int64 {
	if a >= 0 {
		return a / b
	}
	return -((-a + b - 1) / b)
}

// ceilDiv is ceil(a/b) for b > 0.
func ceilDiv(a, b int64) int64 {
	if a >= 0 {
		return (a + b - 1) / b
	}
	return -(-a / b)
}
