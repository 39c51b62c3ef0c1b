//go:build mpi

package main

import (
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dpgl/dpgl/balancer/sssp"
)

// mpirunPool runs bench pool on np ranks.
func mpirunPool(t *testing.T, np int, limit time.Duration, args ...string) (string, error, time.Duration) {
	t.Helper()
	return mpirunCommand(t, np, limit, "pool", args...)
}

// TestDistributedPool: Moore's algorithm under mpirun on 1, 2 and 4 ranks,
// on a generated graph and a DIMACS file, under every pool and detector,
// equals Dijkstra with a valid shortest-path tree (bench pool checks it),
// and the table has its columns.
func TestDistributedPool(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "uniform.gr")
	writeGraph(t, file, sssp.Uniform(200, 900, 50, rngFor(7)))
	for _, np := range []int{1, 2, 4} {
		out, err, took := mpirunPool(t, np, 2*time.Minute, "-graphs", "grid:12x12,"+file, "-timeout", "30s")
		if err != nil {
			t.Fatalf("%d ranks: %v:\n%s", np, err, out)
		}
		if n := strings.Count(out, "= Dijkstra, valid tree"); n != 2*5*4 {
			t.Fatalf("%d ranks: %d rows checked, want %d:\n%s", np, n, 2*5*4, out)
		}
		for _, w := range []string{"tasks/s", "msgs/task", "last->term", "uniform.gr (200 vertices, 900 edges)"} {
			if !strings.Contains(out, w) {
				t.Fatalf("%d ranks: no %q in:\n%s", np, w, out)
			}
		}
		t.Logf("%d ranks: %v", np, took.Round(time.Millisecond))
	}
}

// TestDistributedPoolForests: the harness's random task forests across
// processes, every pool and detector in turn, on 3 and 8 ranks sharing two
// cores (--oversubscribe): every task runs once and termination is
// declared each time (bench pool -forests checks it).
func TestDistributedPoolForests(t *testing.T) {
	for _, np := range []int{3, 8} {
		out, err, took := mpirunPool(t, np, 2*time.Minute, "-forests", "100", "-timeout", "30s")
		if err != nil || !strings.Contains(out, "every task ran once, termination declared each time") {
			t.Fatalf("%d ranks: %v:\n%s", np, err, out)
		}
		t.Logf("%d ranks: %v", np, took.Round(time.Millisecond))
	}
}

// TestDistributedPoolFaults: a rank killed mid-run ends the job within
// seconds, mpirun naming it and rank 0 saying so; a hung rank ends it at
// -timeout with rank 0's error, and a rank's error ends it naming the rank.
func TestDistributedPoolFaults(t *testing.T) {
	cases := []struct {
		name string
		np   int
		args []string
		want []string
	}{
		{"kill", 4, []string{"-fail", "1:kill"}, []string{"process rank 1", "signal 9", "rank 0: terminated by mpirun"}},
		{"hang", 2, []string{"-fail", "1:hang", "-timeout", "3s"}, []string{"no termination after Config.Timeout 3s", "ending the job"}},
		{"error", 2, []string{"-fail", "1:error"}, []string{"bench pool: rank 1: RandomPolling, Tree:", "sending to rank", "injected failure (-fail)", "ending the job"}},
	}
	for _, tc := range cases {
		args := append([]string{"-graphs", "grid:30x30", "-pools", "RandomPolling", "-detectors", "Tree"}, tc.args...)
		out, err, took := mpirunPool(t, tc.np, time.Minute, args...)
		if err == nil {
			t.Fatalf("%s: the job succeeded:\n%s", tc.name, out)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Fatalf("%s: no %q in the output (%v after %v):\n%s", tc.name, w, err, took, out)
			}
		}
		if took > 20*time.Second {
			t.Fatalf("%s: the job took %v to end", tc.name, took)
		}
		t.Logf("%s: ended in %v", tc.name, took.Round(time.Millisecond))
	}
}

// TestDistributedPoolFlags: bench pool's bad flags are errors naming the
// flag and the value (every rank reads them alike; rank 0 prints it).
func TestDistributedPoolFlags(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-detectors", "SinglePassRing"}, "-detectors: SinglePassRing cannot run Moore's algorithm"},
		{[]string{"-pools", "fair"}, `-pools: pool: no pool "fair"`},
		{[]string{"-graphs", "/nonexistent/x.gr"}, "-graphs: /nonexistent/x.gr"},
		{[]string{"-graphs", "rmat:99:1"}, "-graphs"},
		{[]string{"-fail", "1:melt"}, `-fail "1:melt": want RANK:KIND`},
		{[]string{"-timeout", "0s"}, "-timeout 0s: want > 0"},
		{[]string{"extra"}, `unexpected arguments ["extra"]`},
	}
	for _, c := range cases {
		_, err := parsePoolFlags(c.args, io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an error with %q", c.args, err, c.want)
		}
	}
}

func rngFor(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9001)) }

func writeGraph(t *testing.T, path string, g *sssp.Graph) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.WriteDIMACS(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
