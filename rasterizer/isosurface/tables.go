package isosurface

import "fmt"

// The marching-cubes case table is derived here at start-up from the cube's
// geometry rather than typed in, so that every property it has is a
// consequence of two stated rules:
//
//  1. On each face of a cell the contour is decided by the face's four
//     corners alone; on an ambiguous face (diagonal corners alike, four
//     crossed edges) the inside corners are separated. Neighbouring cells
//     share faces, so they draw the same segments there: no cracks.
//  2. Each face segment is directed so that the inside corners lie to its
//     left seen from outside the cell; the segments then chain into closed
//     loops, and a fan over each loop is wound counter-clockwise seen from
//     outside the surface.
//
// Numbering: corner c has coordinates (c&1, c>>1&1, c>>2&1). Edge
// e = 4·axis + k runs along axis from its lower corner; k enumerates the
// other two coordinates (u + 2v, u the lower axis). The GPU kernels read
// the same tables from a buffer (Tables).

// maxCaseTriangles bounds the triangles of one case.
const maxCaseTriangles = 5

// edgeCorners are the lower and upper corner of each edge.
var edgeCorners [12][2]int

// caseTriangles[c] lists the edges of case c's triangles, three per
// triangle; case c has corner i inside when bit i of c is set.
var caseTriangles [256][]uint8

func init() {
	for e := 0; e < 12; e++ {
		axis, k := e/4, e%4
		u, v := otherAxes(axis)
		lo := (k&1)<<u | (k>>1)<<v
		edgeCorners[e] = [2]int{lo, lo | 1<<axis}
	}
	initCellEdges()
	for c := 0; c < 256; c++ {
		caseTriangles[c] = buildCase(c)
		if n := len(caseTriangles[c]) / 3; n > maxCaseTriangles {
			panic(fmt.Sprintf("isosurface: case %d has %d triangles, more than maxCaseTriangles", c, n))
		}
	}
}

func otherAxes(axis int) (u, v int) {
	switch axis {
	case 0:
		return 1, 2
	case 1:
		return 0, 2
	}
	return 0, 1
}

// edgeBetween is the edge joining corners a and b (which differ in one bit).
func edgeBetween(a, b int) int {
	d := a ^ b
	axis := 0
	for d>>axis != 1 {
		axis++
	}
	lo := a &^ d
	u, v := otherAxes(axis)
	return 4*axis + (lo>>u&1 | (lo>>v&1)<<1)
}

// edgeFaces are the two faces an edge lies on, as 2·axis + side.
func edgeFaces(e int) [2]int {
	axis := e / 4
	u, v := otherAxes(axis)
	lo := edgeCorners[e][0]
	return [2]int{2*u + lo>>u&1, 2*v + lo>>v&1}
}

func cornerPos(c int) [3]float64 {
	return [3]float64{float64(c & 1), float64(c >> 1 & 1), float64(c >> 2 & 1)}
}

func edgeMid(e int) [3]float64 {
	a, b := cornerPos(edgeCorners[e][0]), cornerPos(edgeCorners[e][1])
	return [3]float64{(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2}
}

func buildCase(cs int) []uint8 {
	inside := func(c int) bool { return cs>>c&1 == 1 }
	next := map[int]int{}
	incoming := map[int]int{}
	for face := 0; face < 6; face++ {
		axis, side := face/2, face%2
		u, v := otherAxes(axis)
		base := side << axis
		// The face's corners in cyclic order.
		ring := [4]int{base, base | 1<<u, base | 1<<u | 1<<v, base | 1<<v}
		var crossed []int // positions i where edge ring[i]→ring[i+1] is crossed
		for i := 0; i < 4; i++ {
			if inside(ring[i]) != inside(ring[(i+1)%4]) {
				crossed = append(crossed, i)
			}
		}
		type seg struct{ p, q, in int } // edges p, q; an inside corner on the segment's inside
		var segs []seg
		edgeAt := func(i int) int { return edgeBetween(ring[i%4], ring[(i+1)%4]) }
		switch len(crossed) {
		case 0:
		case 2:
			in := ring[0]
			for _, c := range ring {
				if inside(c) {
					in = c
				}
			}
			segs = append(segs, seg{edgeAt(crossed[0]), edgeAt(crossed[1]), in})
		case 4:
			// Separate the inside corners: each is cut off by the segment
			// joining its two edges.
			for i := 0; i < 4; i++ {
				if inside(ring[i]) {
					segs = append(segs, seg{edgeAt(i + 3), edgeAt(i), ring[i]})
				}
			}
		}
		normal := [3]float64{}
		normal[axis] = float64(2*side - 1) // the face's outward normal
		for _, s := range segs {
			p, q, c := edgeMid(s.p), edgeMid(s.q), cornerPos(s.in)
			d := sub(q, p)
			if dot(cross(d, normal), sub(c, p)) < 0 {
				s.p, s.q = s.q, s.p
			}
			if _, dup := next[s.p]; dup {
				panic(fmt.Sprintf("isosurface: case %d: edge %d leaves on two faces", cs, s.p))
			}
			next[s.p] = s.q
			incoming[s.q]++
		}
	}
	for e := range next {
		if incoming[e] != 1 {
			panic(fmt.Sprintf("isosurface: case %d: edge %d is entered %d times", cs, e, incoming[e]))
		}
	}
	var tris []uint8
	done := map[int]bool{}
	for e := 0; e < 12; e++ {
		if _, ok := next[e]; !ok || done[e] {
			continue
		}
		var loop []int
		for f := e; !done[f]; f = next[f] {
			done[f] = true
			loop = append(loop, f)
		}
		loop = rotateApex(loop)
		for i := 1; i+1 < len(loop); i++ {
			tris = append(tris, uint8(loop[0]), uint8(loop[i]), uint8(loop[i+1]))
		}
	}
	return tris
}

// rotateApex picks the fan's apex so that no diagonal joins two edges of
// one face: such a diagonal would lie in the face, where the neighbouring
// cell might draw the same one, giving an edge of four triangles.
func rotateApex(loop []int) []int {
	n := len(loop)
	for r := 0; r < n; r++ {
		ok := true
		for i := 2; i < n-1 && ok; i++ {
			a, b := edgeFaces(loop[r]), edgeFaces(loop[(r+i)%n])
			ok = a[0] != b[0] && a[0] != b[1] && a[1] != b[0] && a[1] != b[1]
		}
		if ok {
			return append(loop[r:], loop[:r]...)
		}
	}
	panic(fmt.Sprintf("isosurface: no fan apex for loop %v keeps diagonals off the faces", loop))
}

func sub(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func dot(a, b [3]float64) float64    { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}
