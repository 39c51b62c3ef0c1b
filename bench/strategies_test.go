package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
)

// At tiny sizes: one row per workload and way of balancing, Never's
// speedup 1, the search perfectly balanced, every strategy's frames equal
// to Never's and distances to Dijkstra's (the command checks both).
func TestStrategiesTable(t *testing.T) {
	gputest.Context(t)
	dir := t.TempDir()
	gr := filepath.Join(dir, "g.gr")
	if err := os.WriteFile(gr, []byte("p sp 4 4\na 1 2 3\na 1 3 0\na 3 4 5\na 2 4 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	args := []string{"strategies", "-size", "24", "-res", "14", "-views", "(0,0);M(45,45)", "-graphs", "rmat:6:4,grid:5x4," + gr,
		"-reps", "1", "-warmup", "0", "-calibration", filepath.Join(dir, "none.json"), "-v"}
	if err := run(args, &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	row := regexp.MustCompile(`(?m)^(\S.{26}| {27}) (Never|Always|CostEffective|Bounded|RoundRobin|Random|WorkPool|LeftRightHandoff|Search)\s+([\d.]+ [mu]?s)\s+(\d+)\s+([\d.]+)\s+([\d.]+x|-)`)
	rows := row.FindAllStringSubmatch(s, -1)
	if len(rows) != 9*7 {
		t.Fatalf("want 63 rows (9 ways of balancing, 7 workloads), found %d:\n%s", len(rows), s)
	}
	for i, r := range rows {
		if want := []string{"Never", "Always", "CostEffective", "Bounded", "RoundRobin", "Random", "WorkPool", "LeftRightHandoff", "Search"}[i%9]; r[2] != want {
			t.Fatalf("row %d is %s, want %s:\n%s", i, r[2], want, s)
		}
		imb, _ := strconv.ParseFloat(r[5], 64)
		if r[2] == "Never" && r[6] != "1.00x" || imb < 0.99 || r[2] == "Search" && r[5] != "1.00" {
			t.Fatalf("implausible row %q:\n%s", r[0], s)
		}
	}
	for _, want := range []string{"scan conversion, balanced", "z-buffer, unbalanced", "sssp rmat:6:4", "sssp grid:5x4", "sssp g.gr", "sssp " + gr + ": 4 vertices", "(0,0) M(45,45)", "DefaultCostIterations"} {
		if !strings.Contains(s, want) {
			t.Fatalf("output lacks %q:\n%s", want, s)
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
		{[]string{"strategies", "-views", "(1,1)"}, `no view "(1,1)"`},
	} {
		if err := run(c.args, &out); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%v: %v, want an error containing %q", c.args, err, c.want)
		}
	}
	bad := filepath.Join(dir, "bad.gr")
	if err := os.WriteFile(bad, []byte("p sp 2 1\na 1 2 -4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"strategies", "-sets", "none", "-graphs", bad}, &out); err == nil || !strings.Contains(err.Error(), "bad.gr:2: field 4 (weight): negative weight -4") {
		t.Fatalf("a negative weight: %v", err)
	}
}
