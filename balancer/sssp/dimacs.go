package sssp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// maxDIMACSVertices bounds the vertices a .gr header may declare (see
// ReadDIMACS).
const maxDIMACSVertices = 1 << 26

// ReadDIMACS reads a graph in the 9th DIMACS Implementation Challenge's
// shortest-path format (.gr):
//
//	c any comment
//	p sp N M       once, before any arc: N vertices, M arcs
//	a U V W        an arc U -> V of weight W; vertices numbered 1..N
//
// and returns it with vertices numbered from 0. The reader is strict: a
// line of another kind, a missing or extra field, a number that does not
// parse, a vertex outside 1..N, a negative weight, or a count of arcs other
// than M is an error naming the file (name), the line and the field. Blank
// lines and CRLF line ends are allowed.
//
// N is at most 2^26 (the challenge's largest graph, the USA road network,
// has 23,947,347 vertices): vertices cost memory but no bytes of the file,
// so without a bound a 16-byte header could make the reader allocate
// gigabytes. Graphs beyond it can be built with NewGraph.
func ReadDIMACS(r io.Reader, name string) (*Graph, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	fail := func(format string, args ...any) error {
		return fmt.Errorf("sssp: %s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	n, m := -1, 0
	var edges []Edge
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "c":
		case "p":
			if n >= 0 {
				return nil, fail("a second problem line (the first declared %d vertices and %d arcs)", n, m)
			}
			if len(f) != 4 {
				return nil, fail("problem line has %d fields, want 4: p sp VERTICES ARCS", len(f))
			}
			if f[1] != "sp" {
				return nil, fail("field 2 (problem type): %q, want sp", f[1])
			}
			nv, err := parseDIMACSInt(f[2], 0, maxDIMACSVertices)
			if err != nil {
				return nil, fail("field 3 (vertices): %v (the reader's limit)", err)
			}
			na, err := parseDIMACSInt(f[3], 0, maxEdges)
			if err != nil {
				return nil, fail("field 4 (arcs): %v", err)
			}
			n, m = int(nv), int(na)
			edges = make([]Edge, 0, min(m, 1<<20)) // the header alone must not allocate gigabytes
		case "a":
			if n < 0 {
				return nil, fail("an arc before the problem line")
			}
			if len(f) != 4 {
				return nil, fail("arc line has %d fields, want 4: a FROM TO WEIGHT", len(f))
			}
			var e Edge
			for i, to := range []*int{&e.From, &e.To} {
				v, err := parseDIMACSInt(f[i+1], 1, int64(n))
				if err != nil {
					return nil, fail("field %d (%s): %v (the vertices)", i+2, [...]string{"from", "to"}[i], err)
				}
				*to = int(v - 1)
			}
			if w, err := strconv.ParseInt(f[3], 10, 64); err == nil && w < 0 {
				return nil, fail("field 4 (weight): negative weight %d: Moore's and Dijkstra's algorithms need weights >= 0", w)
			}
			w, err := parseDIMACSInt(f[3], 0, MaxWeight)
			if err != nil {
				return nil, fail("field 4 (weight): %v (the weights)", err)
			}
			e.Weight = w
			if len(edges) == m {
				return nil, fail("more arcs than the %d the problem line declares", m)
			}
			edges = append(edges, e)
		default:
			return nil, fail("field 1: line kind %q, want c, p or a", f[0])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("sssp: %s:%d: %w", name, line+1, err)
	}
	if n < 0 {
		return nil, fmt.Errorf("sssp: %s: no problem line (p sp VERTICES ARCS)", name)
	}
	if len(edges) != m {
		return nil, fmt.Errorf("sssp: %s:%d: the problem line declares %d arcs, the file has %d", name, line, m, len(edges))
	}
	return NewGraph(n, edges)
}

// parseDIMACSInt reads a decimal integer in lo..hi. Its error tells a field
// that is not an integer ("5.5", "x") from one that is, but outside the range
// (a 30-digit vertex number): saying "not an integer" of the latter would
// send the user looking for a typo that is not there.
func parseDIMACSInt(s string, lo, hi int64) (int64, error) {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%q is out of range %d..%d", s, lo, hi)
		}
		return 0, fmt.Errorf("%q is not an integer in %d..%d", s, lo, hi)
	}
	if v < lo || v > hi {
		return 0, fmt.Errorf("%s is out of range %d..%d", s, lo, hi)
	}
	return v, nil
}

// WriteDIMACS writes g in the format ReadDIMACS reads, vertices numbered
// from 1.
func (g *Graph) WriteDIMACS(w io.Writer) error {
	g.check("Graph.WriteDIMACS")
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "c written by github.com/dpgl/dpgl/balancer/sssp\np sp %d %d\n", g.N, g.M())
	for v := 0; v < g.N; v++ {
		for e := g.Offsets[v]; e < g.Offsets[v+1]; e++ {
			fmt.Fprintf(bw, "a %d %d %d\n", v+1, g.Targets[e]+1, g.Weights[e])
		}
	}
	return bw.Flush()
}
