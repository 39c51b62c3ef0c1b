package isosurface

import (
	"fmt"
	"math"

	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// DecimateOptions say when Decimate stops. At least one must be set.
type DecimateOptions struct {
	// TargetFaces stops decimation when this few faces remain (0: no
	// target).
	TargetFaces int
	// MaxError stops it before the first collapse whose error exceeds
	// this distance (0: no limit). The error of a vertex is the
	// area-weighted RMS distance from it to the planes of the original
	// faces merged into it.
	MaxError float64
	// MinCos rejects a collapse that turns a remaining face's normal by
	// more than acos(MinCos) (default 0.2, about 78°), which would fold the
	// surface.
	MinCos float64
}

// Decimate simplifies m by quadric-error edge collapses (Garland and
// Heckbert, "Surface simplification using quadric error metrics", 1997):
// every vertex carries the sum of the squared-distance quadrics of the
// planes of its original faces (weighted by area); the edge whose merged
// vertex, placed where the merged quadric is least, moves the surface
// least is collapsed first, until opts says stop.
//
// Flat and gently curved regions collapse into few long triangles while
// curved detail keeps small ones: the result's triangles vary in size by
// orders of magnitude, as the output of a real simplification pipeline
// does. Collapses that would make the surface non-manifold (the link
// condition), duplicate a face or fold a face are skipped; the vertices on
// the border of an open surface stay where they are. Orientation is kept,
// and the result is the same on every run. Output normals are those of the input
// vertex nearer to each merged vertex (use SetFieldNormals to take them
// from the field instead). m is not changed.
func Decimate(m *mesh.Mesh, opts DecimateOptions) *mesh.Mesh {
	if opts.TargetFaces <= 0 && opts.MaxError <= 0 {
		panic("isosurface: Decimate: opts sets neither TargetFaces nor MaxError")
	}
	if err := m.Validate(); err != nil {
		panic("isosurface: Decimate: " + err.Error())
	}
	if opts.MinCos == 0 {
		opts.MinCos = 0.2
	}
	d := newDecimator(m)
	maxCost := math.Inf(1)
	if opts.MaxError > 0 {
		maxCost = opts.MaxError * opts.MaxError
	}
	for d.faces > opts.TargetFaces && len(d.queue) > 0 {
		c := d.queue.pop()
		if !d.alive[c.a] || !d.alive[c.b] || d.version[c.a] != c.va || d.version[c.b] != c.vb {
			continue // stale: an endpoint moved or died since this was queued
		}
		if c.cost > maxCost {
			break
		}
		pos, _ := d.place(c.a, c.b)
		if !d.collapsible(c.a, c.b, pos, opts.MinCos) {
			continue
		}
		d.collapse(c.a, c.b, pos)
	}
	return d.result(m)
}

// quadric is the symmetric 4x4 matrix Σ w·p·pᵀ of planes p = (a, b, c, d)
// (upper triangle, row by row) and the total weight w.
type quadric struct {
	m      [10]float64
	weight float64
}

func planeQuadric(n [3]float64, d, w float64) quadric {
	p := [4]float64{n[0], n[1], n[2], d}
	var q quadric
	k := 0
	for i := 0; i < 4; i++ {
		for j := i; j < 4; j++ {
			q.m[k] = w * p[i] * p[j]
			k++
		}
	}
	q.weight = w
	return q
}

func (q *quadric) add(r quadric) {
	for i := range q.m {
		q.m[i] += r.m[i]
	}
	q.weight += r.weight
}

// eval is vᵀQv for v = (p, 1), divided by the weight: the mean squared
// distance.
func (q *quadric) eval(p [3]float64) float64 {
	m := &q.m
	x, y, z := p[0], p[1], p[2]
	e := m[0]*x*x + 2*m[1]*x*y + 2*m[2]*x*z + 2*m[3]*x +
		m[4]*y*y + 2*m[5]*y*z + 2*m[6]*y +
		m[7]*z*z + 2*m[8]*z +
		m[9]
	// Clamped as math.Max(e, 0) would, without its ±0 and NaN cases (a
	// −0 cost orders as +0 does).
	if e < 0 {
		e = 0
	}
	if q.weight <= 0 {
		return e
	}
	return e / q.weight
}

// minimize returns the point where q is least, if the 3x3 system is well
// conditioned.
func (q *quadric) minimize() ([3]float64, bool) {
	m := &q.m
	a := [3][3]float64{{m[0], m[1], m[2]}, {m[1], m[4], m[5]}, {m[2], m[5], m[7]}}
	b := [3]float64{-m[3], -m[6], -m[8]}
	det := a[0][0]*(a[1][1]*a[2][2]-a[1][2]*a[2][1]) - a[0][1]*(a[1][0]*a[2][2]-a[1][2]*a[2][0]) + a[0][2]*(a[1][0]*a[2][1]-a[1][1]*a[2][0])
	scale := math.Abs(a[0][0]) + math.Abs(a[1][1]) + math.Abs(a[2][2])
	if scale == 0 || math.Abs(det) < 1e-9*scale*scale*scale {
		return [3]float64{}, false
	}
	var x [3]float64
	for i := 0; i < 3; i++ { // Cramer's rule
		c := a
		for r := 0; r < 3; r++ {
			c[r][i] = b[r]
		}
		x[i] = (c[0][0]*(c[1][1]*c[2][2]-c[1][2]*c[2][1]) - c[0][1]*(c[1][0]*c[2][2]-c[1][2]*c[2][0]) + c[0][2]*(c[1][0]*c[2][1]-c[1][1]*c[2][0])) / det
	}
	return x, true
}

// candidate is a queued collapse of edge (a, b), b into a, with the
// versions of its ends when queued. Its position is not kept: while both
// versions hold, neither end's quadric, position or border has changed, so
// place computes the same position again when it leaves the queue, and the
// queue's entries stay small (most are never popped).
type candidate struct {
	cost   float64
	a, b   int32
	va, vb uint32
}

// candidates is a binary min-heap on cost, typed to avoid container/heap's
// boxing of every push. The sifts move a hole rather than swap entries,
// which ends with every entry where the swaps put it: ties in cost break
// as they always have, so the unbalanced sets, and the images made from
// them, stay the same.
type candidates []candidate

func (h *candidates) push(c candidate) {
	*h = append(*h, c)
	q := *h
	i := len(q) - 1
	for i > 0 {
		p := (i - 1) / 2
		if q[p].cost <= c.cost {
			break
		}
		q[i] = q[p]
		i = p
	}
	q[i] = c
}

func (h *candidates) pop() candidate {
	q := *h
	top := q[0]
	n := len(q) - 1
	last := q[n]
	q = q[:n]
	if n > 0 {
		i := 0
		for {
			l := 2*i + 1
			if l >= n {
				break
			}
			if r := l + 1; r < n && q[r].cost < q[l].cost {
				l = r
			}
			if last.cost <= q[l].cost {
				break
			}
			q[i] = q[l]
			i = l
		}
		q[i] = last
	}
	*h = q
	return top
}

type decimator struct {
	pos       [][3]float64
	q         []quadric
	origin    []int32 // the input vertex whose normal each vertex keeps
	faces     int     // alive
	face      [][3]int32
	faceAlive []bool
	vfaces    [][]int32 // faces around each vertex; may hold dead ones
	alive     []bool
	border    []bool
	version   []uint32
	queue     candidates
	mark      []uint32
	stamp     uint32
}

func newDecimator(m *mesh.Mesh) *decimator {
	nv := len(m.Positions)
	d := &decimator{
		pos: make([][3]float64, nv), q: make([]quadric, nv), origin: make([]int32, nv),
		face: make([][3]int32, 0, len(m.Faces)), vfaces: make([][]int32, nv),
		alive: make([]bool, nv), border: make([]bool, nv), version: make([]uint32, nv), mark: make([]uint32, nv),
	}
	for i, p := range m.Positions {
		d.pos[i] = [3]float64{float64(p[0]), float64(p[1]), float64(p[2])}
		d.origin[i] = int32(i)
	}
	d.addFaces(m.Faces)
	d.addQuadrics()
	d.queueEdges(d.markBorders())
	return d
}

// addFaces adds the faces that have a surface, each listed in its
// vertices' vfaces, and marks those vertices alive.
func (d *decimator) addFaces(faces [][3]uint32) {
	nv := len(d.vfaces)
	// Faces repeating a vertex have no surface to keep.
	keep := func(f [3]uint32) bool { return f[0] != f[1] && f[1] != f[2] && f[0] != f[2] }
	// Each vertex's faces are one run of a shared array, counted first,
	// with the capacity cut at the run's end: collapse's appends then copy
	// a list rather than run into the next vertex's.
	start := make([]int32, nv+1)
	for _, f := range faces {
		if keep(f) {
			for _, v := range f {
				start[v+1]++
			}
		}
	}
	for v := 0; v < nv; v++ {
		start[v+1] += start[v]
	}
	all := make([]int32, start[nv])
	for v := range d.vfaces {
		d.vfaces[v] = all[start[v]:start[v]:start[v+1]]
	}
	for _, f := range faces {
		if !keep(f) {
			continue
		}
		fi := int32(len(d.face))
		d.face = append(d.face, [3]int32{int32(f[0]), int32(f[1]), int32(f[2])})
		for _, v := range f {
			d.vfaces[v] = append(d.vfaces[v], fi)
			d.alive[v] = true
		}
	}
	d.faces = len(d.face)
	d.faceAlive = make([]bool, d.faces)
	for i := range d.faceAlive {
		d.faceAlive[i] = true
	}
}

// addQuadrics adds each face's plane, weighted by its area, to its
// vertices' quadrics.
func (d *decimator) addQuadrics() {
	for _, f := range d.face {
		n, area := d.normal(f, -1, [3]float64{})
		if area > 0 {
			pq := planeQuadric(n, -dot(n, d.pos[f[0]]), area)
			for _, v := range f {
				d.q[v].add(pq)
			}
		}
	}
}

// markBorders marks the vertices on a border (of an open surface), which
// stay where they are, and returns which face edges lie on one: face edge
// 3·fi+k runs from face fi's f[k] to f[k+1].
func (d *decimator) markBorders() []bool {
	onBorder := make([]bool, 3*len(d.face))
	for fi, f := range d.face {
		for k := 0; k < 3; k++ {
			if a, b := f[k], f[(k+1)%3]; d.facesOnEdge(a, b) == 1 {
				onBorder[3*fi+k] = true
				d.border[a], d.border[b] = true, true
			}
		}
	}
	return onBorder
}

// facesOnEdge is the number of faces on edge (a, b).
func (d *decimator) facesOnEdge(a, b int32) int {
	n := 0
	for _, fi := range d.vfaces[a] {
		if f := d.face[fi]; f[0] == b || f[1] == b || f[2] == b {
			n++
		}
	}
	return n
}

// queueEdges queues every edge once as a collapse candidate; onBorder is
// markBorders'.
func (d *decimator) queueEdges(onBorder []bool) {
	// Room for the edges and the requeues of the collapses (about 6 for
	// each face on marching cubes' meshes), so that the queue rarely grows.
	d.queue = make(candidates, 0, 6*len(d.face))
	// Queue the edges in a fixed order, so that ties in cost (common on
	// flat regions) break the same way every run.
	for fi, f := range d.face {
		for k := 0; k < 3; k++ {
			a, b := f[k], f[(k+1)%3]
			// Each edge once: from the face that has it as a→b with a < b,
			// or from its only face when the edge is on a border.
			if a < b || onBorder[3*fi+k] {
				d.push(min(a, b), max(a, b))
			}
		}
	}
}

// normal is the unit normal and area of face f, with vertex moved (if >= 0)
// at p instead.
func (d *decimator) normal(f [3]int32, moved int32, p [3]float64) ([3]float64, float64) {
	var v [3][3]float64
	for k, i := range f {
		v[k] = d.pos[i]
		if i == moved {
			v[k] = p
		}
	}
	n := cross(sub(v[1], v[0]), sub(v[2], v[0]))
	l := math.Sqrt(dot(n, n))
	if l == 0 {
		return n, 0
	}
	return [3]float64{n[0] / l, n[1] / l, n[2] / l}, l / 2
}

// push queues the collapse of edge (a, b) at the best position. A border
// vertex survives where it is; an edge between two is never collapsed.
func (d *decimator) push(a, b int32) {
	if d.border[b] {
		if d.border[a] {
			return
		}
		a, b = b, a
	}
	_, cost := d.place(a, b)
	d.queue.push(candidate{cost: cost, a: a, b: b, va: d.version[a], vb: d.version[b]})
}

// place is where merging b into a puts the vertex, the point of least
// merged quadric among a, b (unless a is on a border), their midpoint and
// the quadric's own minimum near the edge, and the quadric's cost there.
func (d *decimator) place(a, b int32) ([3]float64, float64) {
	q := d.q[a]
	q.add(d.q[b])
	pa, pb := d.pos[a], d.pos[b]
	best, cost := pa, q.eval(pa)
	if !d.border[a] {
		mid := [3]float64{(pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2, (pa[2] + pb[2]) / 2}
		for _, p := range [][3]float64{pb, mid} {
			if c := q.eval(p); c < cost {
				best, cost = p, c
			}
		}
		if p, ok := q.minimize(); ok {
			// Keep the optimum only near the edge: far away it comes from a
			// nearly singular system and would tear the mesh.
			l2 := dot(sub(pb, pa), sub(pb, pa))
			if dm := sub(p, mid); dot(dm, dm) <= l2 {
				if c := q.eval(p); c <= cost {
					best, cost = p, c
				}
			}
		}
	}
	return best, cost
}

func (d *decimator) nextStamp() uint32 {
	d.stamp++
	if d.stamp == 0 {
		clear(d.mark)
		d.stamp = 1
	}
	return d.stamp
}

// collapsible checks the link condition, duplicate faces, folds and border
// pinches for merging b into a at p.
func (d *decimator) collapsible(a, b int32, p [3]float64, minCos float64) bool {
	// Neighbours of a.
	sa := d.nextStamp()
	for _, fi := range d.vfaces[a] {
		if !d.faceAlive[fi] {
			continue
		}
		for _, v := range d.face[fi] {
			if v != a {
				d.mark[v] = sa
			}
		}
	}
	// Opposite vertices of the faces on edge (a, b), and the common
	// neighbours of a and b: the link condition wants them equal.
	shared, common := 0, 0
	sc := d.nextStamp()
	for _, fi := range d.vfaces[b] {
		if !d.faceAlive[fi] {
			continue
		}
		f := d.face[fi]
		if f[0] == a || f[1] == a || f[2] == a {
			shared++
		}
		for _, v := range f {
			if v != a && v != b && d.mark[v] == sa {
				d.mark[v] = sc
				common++
			}
		}
	}
	if common != shared || shared == 0 {
		return false
	}
	// No face may fold or vanish, and no new face may duplicate one of a's.
	for _, ends := range [2][2]int32{{a, b}, {b, a}} {
		v, other := ends[0], ends[1]
		for _, fi := range d.vfaces[v] {
			if !d.faceAlive[fi] {
				continue
			}
			f := d.face[fi]
			if f[0] == other || f[1] == other || f[2] == other {
				continue // removed by the collapse
			}
			n0, _ := d.normal(f, -1, p)
			n1, area := d.normal(f, v, p)
			if area <= 0 || dot(n0, n1) < minCos {
				return false
			}
			if v == b && d.hasFaceWith(a, f, b) {
				return false
			}
		}
	}
	return true
}

// hasFaceWith reports whether a already has a face with the two vertices of
// f other than b.
func (d *decimator) hasFaceWith(a int32, f [3]int32, b int32) bool {
	var c [2]int32
	k := 0
	for _, v := range f {
		if v != b {
			c[k] = v
			k++
		}
	}
	for _, fi := range d.vfaces[a] {
		if !d.faceAlive[fi] {
			continue
		}
		g := d.face[fi]
		hasC0 := g[0] == c[0] || g[1] == c[0] || g[2] == c[0]
		hasC1 := g[0] == c[1] || g[1] == c[1] || g[2] == c[1]
		if hasC0 && hasC1 {
			return true
		}
	}
	return false
}

// collapse merges b into a at p and requeues a's edges.
func (d *decimator) collapse(a, b int32, p [3]float64) {
	if dist2(d.pos[b], p) < dist2(d.pos[a], p) {
		d.origin[a] = d.origin[b]
	}
	d.pos[a] = p
	d.q[a].add(d.q[b])
	d.alive[b] = false
	d.version[a]++
	d.version[b]++
	live := d.vfaces[a][:0]
	for _, fi := range d.vfaces[a] {
		if d.faceAlive[fi] {
			live = append(live, fi)
		}
	}
	for _, fi := range d.vfaces[b] {
		if !d.faceAlive[fi] {
			continue
		}
		f := &d.face[fi]
		if f[0] == a || f[1] == a || f[2] == a {
			d.faceAlive[fi] = false
			d.faces--
			continue
		}
		for k := range f {
			if f[k] == b {
				f[k] = a
			}
		}
		live = append(live, fi)
	}
	// Faces of a that were shared with b died above but are still listed.
	out := live[:0]
	for _, fi := range live {
		if d.faceAlive[fi] {
			out = append(out, fi)
		}
	}
	d.vfaces[a] = out
	d.vfaces[b] = nil
	s := d.nextStamp()
	for _, fi := range out {
		for _, v := range d.face[fi] {
			if v != a && d.mark[v] != s {
				d.mark[v] = s
				d.push(a, v)
			}
		}
	}
}

func (d *decimator) result(m *mesh.Mesh) *mesh.Mesh {
	out := &mesh.Mesh{Positions: [][3]float32{}, Faces: make([][3]uint32, 0, d.faces)}
	if m.Normals != nil {
		out.Normals = [][3]float32{}
	}
	id := make([]int32, len(d.pos))
	for i := range id {
		id[i] = -1
	}
	for fi, f := range d.face {
		if !d.faceAlive[fi] {
			continue
		}
		var g [3]uint32
		for k, v := range f {
			if id[v] < 0 {
				id[v] = int32(len(out.Positions))
				p := d.pos[v]
				out.Positions = append(out.Positions, [3]float32{float32(p[0]), float32(p[1]), float32(p[2])})
				if m.Normals != nil {
					out.Normals = append(out.Normals, m.Normals[d.origin[v]])
				}
			}
			g[k] = uint32(id[v])
		}
		out.Faces = append(out.Faces, g)
	}
	if len(out.Faces) != d.faces {
		panic(fmt.Sprintf("isosurface: Decimate: %d faces alive, %d counted", len(out.Faces), d.faces))
	}
	return out
}

func dist2(a, b [3]float64) float64 { d := sub(a, b); return dot(d, d) }

// SetFieldNormals sets each vertex normal of m to −∇f at the vertex
// (Volume.GradientAt), normalized: after decimation moves vertices off the
// grid's edges, the field still knows the surface's orientation best.
// Where the gradient vanishes the face-averaged normal is kept.
func SetFieldNormals(m *mesh.Mesh, v *volume.Volume) {
	fallback := &mesh.Mesh{Positions: m.Positions, Faces: m.Faces}
	fallback.ComputeNormals()
	m.Normals = make([][3]float32, len(m.Positions))
	for i, p := range m.Positions {
		g := v.GradientAt(p)
		n := mesh.Normalize([3]float32{-g[0], -g[1], -g[2]})
		if n == ([3]float32{}) || !finite(n) {
			n = fallback.Normals[i]
		}
		m.Normals[i] = n
	}
}

func finite(v [3]float32) bool {
	for _, c := range v {
		if math.IsNaN(float64(c)) || math.IsInf(float64(c), 0) {
			return false
		}
	}
	return true
}
