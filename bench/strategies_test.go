package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu/gputest"
)

// At tiny sizes: one row per workload and way of balancing, Never's
// speedup 1, the search perfectly balanced, every strategy's frames equal
// to Never's and distances to Dijkstra's (measureStrategies checks both).
func TestStrategiesTable(t *testing.T) {
	c := gputest.Context(t)
	dir := t.TempDir()
	gr := filepath.Join(dir, "g.gr")
	if err := os.WriteFile(gr, []byte("p sp 4 4\na 1 2 3\na 1 3 0\na 3 4 5\na 2 4 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o, err := parseStrategies([]string{"-size", "24", "-res", "14", "-views", "(0,0);M(45,45)", "-graphs", "rmat:6:4,grid:5x4," + gr,
		"-reps", "1", "-warmup", "0", "-calibration", filepath.Join(dir, "none.json"), "-v"})
	if err != nil {
		t.Fatal(err)
	}
	if len(o.views) != 2 || o.views[1].Name != "M(45,45)" {
		t.Fatalf("views %v", o.views)
	}
	if sc, zc, source := stratCosts(c, o); sc != balancer.DefaultCostIterations || zc != sc || !strings.Contains(source, "DefaultCostIterations") {
		t.Fatalf("costs without a calibration: %v, %v (%s)", sc, zc, source)
	}
	rows, err := measureStrategies(o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	workloads := []string{"scan conversion, balanced", "z-buffer, balanced", "scan conversion, unbalanced", "z-buffer, unbalanced",
		"sssp rmat:6:4", "sssp grid:5x4", "sssp " + filepath.Base(gr)}
	names := []string{"Never", "Always", "CostEffective", "Bounded", "RoundRobin", "Random", "WorkPool", "LeftRightHandoff", "Search", "LeftRightHandoffRace", "RandomAssignment"}
	if len(rows) != len(workloads) {
		t.Fatalf("%d rows, want %d", len(rows), len(workloads))
	}
	for i, r := range rows {
		if r.workload != workloads[i] || len(r.cells) != len(names) {
			t.Fatalf("row %d: %q with %d cells, want %q with %d", i, r.workload, len(r.cells), workloads[i], len(names))
		}
		for k, cell := range r.cells {
			if o.configs[k].name != names[k] || cell.iterations < 1 || cell.time.Reps != 1 || cell.imbalance() < 0.99 {
				t.Fatalf("%s, %s: %+v, imbalance %v", r.workload, o.configs[k].name, cell, cell.imbalance())
			}
		}
		if r.cells[0].speedup != 1 {
			t.Fatalf("%s: Never's speedup %v", r.workload, r.cells[0].speedup)
		}
		// The search gives each lane the same number of tasks, to one.
		if imb := r.cells[8].imbalance(); imb >= 1.005 {
			t.Fatalf("%s: the search's imbalance %v", r.workload, imb)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"strategies", "-strategies", "Never,Greedy"}, `"Greedy" is neither a policy`},
		{[]string{"strategies", "-strategies", "Paper"}, `"Paper" is neither a policy`},
		{[]string{"strategies", "-sets", "none", "-graphs", "rmat:x:4"}, `invalid value "rmat:x:4" for flag -graphs`},
		{[]string{"strategies", "-sets", "lumpy"}, `unknown polygon set "lumpy"`},
		{[]string{"strategies", "-views", "(1,91)"}, `invalid value "(1,91)" for flag -views: view: no view "(1,91)": elevation 91`},
	} {
		if err := run(c.args, io.Discard); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%v: %v, want an error containing %q", c.args, err, c.want)
		}
	}
	bad := filepath.Join(dir, "bad.gr")
	if err := os.WriteFile(bad, []byte("p sp 2 1\na 1 2 -4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"strategies", "-sets", "none", "-graphs", bad}, io.Discard); err == nil || !strings.Contains(err.Error(), "bad.gr:2: field 4 (weight): negative weight -4") {
		t.Fatalf("a negative weight: %v", err)
	}
}
