package sssp

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func rng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5353)) }

// bellmanFord is the plainest shortest-path loop, the reference for
// Dijkstra on small graphs.
func bellmanFord(g *Graph, source int) []uint64 {
	d := make([]uint64, g.N)
	for i := range d {
		d[i] = Unreachable
	}
	d[source] = 0
	for changed := true; changed; {
		changed = false
		for v := 0; v < g.N; v++ {
			if d[v] == Unreachable {
				continue
			}
			for e := g.Offsets[v]; e < g.Offsets[v+1]; e++ {
				if nd := d[v] + uint64(g.Weights[e]); nd < d[g.Targets[e]] {
					d[g.Targets[e]], changed = nd, true
				}
			}
		}
	}
	return d
}

func TestDijkstraAgainstBellmanFord(t *testing.T) {
	r := rng(1)
	for i := 0; i < 300; i++ {
		n := 1 + r.IntN(40)
		g := Uniform(n, r.IntN(3*n), uint32(r.IntN(20)), r)
		src := r.IntN(n)
		if got, want := Dijkstra(g, src), bellmanFord(g, src); !reflect.DeepEqual(got, want) {
			t.Fatalf("graph %d (%d vertices, %d edges) from %d:\n got %v\nwant %v", i, n, g.M(), src, got, want)
		}
	}
}

func TestNewGraphRejects(t *testing.T) {
	for _, c := range []struct {
		n     int
		edges []Edge
		want  string
	}{
		{3, []Edge{{0, 1, 5}, {1, 2, -3}}, "edge 1 (1 -> 2) has negative weight -3: Moore's and Dijkstra's algorithms need weights >= 0"},
		{3, []Edge{{0, 3, 1}}, "edge 0 (0 -> 3): an endpoint is outside 0..2"},
		{3, []Edge{{-1, 0, 1}}, "outside"},
		{2, []Edge{{0, 1, MaxWeight + 1}}, "above the largest"},
		{-1, nil, "-1 vertices"},
	} {
		if _, err := NewGraph(c.n, c.edges); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("NewGraph(%d, %v): %v, want an error containing %q", c.n, c.edges, err, c.want)
		}
	}
	g, err := NewGraph(4, []Edge{{2, 0, 7}, {0, 1, 0}, {2, 3, MaxWeight}, {0, 0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g.Offsets, []uint32{0, 2, 2, 4, 4}) || g.OutDegree(2) != 2 || g.M() != 4 {
		t.Fatalf("CSR %+v", g)
	}
	if got := g.Edges(); !reflect.DeepEqual(got, []Edge{{0, 1, 0}, {0, 0, 1}, {2, 0, 7}, {2, 3, MaxWeight}}) {
		t.Fatalf("Edges() = %v", got)
	}
}

func TestGenerators(t *testing.T) {
	r := rng(2)
	g := Grid(5, 3, 9, r)
	if g.N != 15 || g.M() != 2*(4*3+5*2) {
		t.Fatalf("5x3 grid: %d vertices, %d edges", g.N, g.M())
	}
	for v := 0; v < g.N; v++ {
		if d := g.OutDegree(v); d < 2 || d > 4 {
			t.Fatalf("grid vertex %d has out-degree %d", v, d)
		}
	}
	g = RMAT(10, 8, 100, r)
	if g.N != 1024 || g.M() != 8192 {
		t.Fatalf("R-MAT: %d vertices, %d edges", g.N, g.M())
	}
	most := 0
	for v := 0; v < g.N; v++ {
		most = max(most, g.OutDegree(v))
	}
	if most < 8*8 { // power law: the busiest vertex far above the average 8
		t.Fatalf("R-MAT's largest out-degree %d is not far above the average", most)
	}
	g.check("test")
	Uniform(1, 0, 0, r).check("test")
}

func TestDIMACSRoundTrip(t *testing.T) {
	r := rng(3)
	for _, g := range []*Graph{RMAT(6, 4, 1000, r), Grid(3, 4, 0, r), Uniform(1, 0, 0, r), Uniform(5, 9, MaxWeight, r)} {
		var b bytes.Buffer
		if err := g.WriteDIMACS(&b); err != nil {
			t.Fatal(err)
		}
		back, err := ReadDIMACS(&b, "rt.gr")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, g) {
			t.Fatalf("round trip changed the graph:\n%+v\n%+v", g, back)
		}
	}
}

func TestReadDIMACS(t *testing.T) {
	src := "c the lecture notes' kind of graph\r\np sp 4 5\n\na 1 2 10\na 1 3 3\nc between arcs\na 3 2 4\na 2 4 0\na\t4 4 2\n"
	g, err := ReadDIMACS(strings.NewReader(src), "ok.gr")
	if err != nil {
		t.Fatal(err)
	}
	if d := Dijkstra(g, 0); !reflect.DeepEqual(d, []uint64{0, 7, 3, 7}) {
		t.Fatalf("distances %v", d)
	}
	for _, c := range []struct{ src, want string }{
		{"p sp 2 1\na 1 2 -5\n", "bad.gr:2: field 4 (weight): negative weight -5: Moore's and Dijkstra's algorithms need weights >= 0"},
		{"p sp 2 1\na 1 3 5\n", "bad.gr:2: field 3 (to): 3 is out of range 1..2 (the vertices)"},
		{"p sp 2 1\na 0 1 5\n", "bad.gr:2: field 2 (from): 0 is out of range 1..2"},
		{"p sp 2 1\na x 1 5\n", "bad.gr:2: field 2 (from): \"x\" is not an integer in 1..2 (the vertices)"},
		{"p sp 2 1\na 1 2 5.5\n", "bad.gr:2: field 4 (weight): \"5.5\" is not an integer in 0..4294967294 (the weights)"},
		{"p sp 2 1\na 1 2 4294967295\n", "bad.gr:2: field 4 (weight): 4294967295 is out of range 0..4294967294"},
		{"p sp 2 1\na 1 2 99999999999999999999\n", "bad.gr:2: field 4 (weight): \"99999999999999999999\" is out of range 0..4294967294"},
		{"p sp 2 1\na 1 2 -99999999999999999999\n", "bad.gr:2: field 4 (weight): \"-99999999999999999999\" is out of range 0..4294967294"},
		{"p sp 2 1\na 99999999999999999999 2 1\n", "bad.gr:2: field 2 (from): \"99999999999999999999\" is out of range 1..2 (the vertices)"},
		{"p sp 99999999999999999999 1\n", "bad.gr:1: field 3 (vertices): \"99999999999999999999\" is out of range 0..67108864"},
		{"p sp 2 99999999999999999999\n", "bad.gr:1: field 4 (arcs): \"99999999999999999999\" is out of range 0..4294967295"},
		{"p sp 2 1\na 1 2\n", "bad.gr:2: arc line has 3 fields, want 4"},
		{"p sp 2 1\na 1 2 3 4\n", "bad.gr:2: arc line has 5 fields, want 4"},
		{"a 1 2 3\n", "bad.gr:1: an arc before the problem line"},
		{"c x\np max 2 1\n", "bad.gr:2: field 2 (problem type): \"max\", want sp"},
		{"p sp two 1\n", "bad.gr:1: field 3 (vertices): \"two\" is not an integer in 0..67108864"},
		{"p sp 2 -1\n", "bad.gr:1: field 4 (arcs): -1 is out of range 0..4294967295"},
		{"p sp 67108865 0\n", "bad.gr:1: field 3 (vertices): 67108865 is out of range 0..67108864 (the reader's limit)"},
		{"p sp 2\n", "bad.gr:1: problem line has 3 fields, want 4"},
		{"p sp 2 1\np sp 2 1\n", "bad.gr:2: a second problem line"},
		{"p sp 2 2\na 1 2 3\n", "bad.gr:2: the problem line declares 2 arcs, the file has 1"},
		{"p sp 2 1\na 1 2 3\na 2 1 3\n", "bad.gr:3: more arcs than the 1 the problem line declares"},
		{"p sp 2 0\nx 1 2\n", "bad.gr:2: field 1: line kind \"x\", want c, p or a"},
		{"c nothing\n", "bad.gr: no problem line"},
		{"", "bad.gr: no problem line"},
	} {
		_, err := ReadDIMACS(strings.NewReader(c.src), "bad.gr")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%q: %v, want an error containing %q", c.src, err, c.want)
		}
	}
}

// FuzzReadDIMACS: any input gives a well-formed graph or an error, never a
// panic, and a graph read writes back to the same graph.
func FuzzReadDIMACS(f *testing.F) {
	f.Add("p sp 3 2\na 1 2 3\na 3 1 0\n")
	f.Add("c\np sp 1 1\na 1 1 4294967294\n")
	f.Add("p sp 0 0\n")
	f.Add("p sp 2 1\na 99999999999999999999 2 1\n")
	f.Add("p sp 2 1\na 1 2 -99999999999999999999\n")
	f.Fuzz(func(t *testing.T, src string) {
		g, err := ReadDIMACS(strings.NewReader(src), "fuzz.gr")
		if err != nil {
			return
		}
		g.check("fuzz")
		var b bytes.Buffer
		if err := g.WriteDIMACS(&b); err != nil {
			t.Fatal(err)
		}
		back, err := ReadDIMACS(&b, "again.gr")
		if err != nil || !reflect.DeepEqual(back, g) {
			t.Fatalf("round trip: %v", err)
		}
	})
}
