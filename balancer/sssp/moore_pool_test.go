package sssp

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dpgl/dpgl/balancer/pool"
)

// moorePool runs MoorePool on ranks goroutines over a Local network with
// faults and returns the merged distances and predecessors.
func moorePool(g *Graph, source, ranks int, cfg pool.Config, f pool.Faults) ([]uint64, []int, error) {
	tr := pool.NewLocal(ranks, f)
	dists := make([][]uint64, ranks)
	preds := make([][]int, ranks)
	errs := make([]error, ranks)
	var wg sync.WaitGroup
	for r := 0; r < ranks; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dists[r], preds[r], _, errs[r] = MoorePool(tr[r], cfg, g, source)
		}()
	}
	wg.Wait()
	for r, err := range errs {
		if err != nil {
			return nil, nil, fmt.Errorf("rank %d: %w", r, err)
		}
	}
	return MergeRanks(dists), MergeRanks(preds), nil
}

// TestMoorePool: Moore's algorithm across 1-4 ranks, under every pool and
// every detector that applies, with messages delayed and reordered, gives
// Dijkstra's distances and a valid shortest-path tree, on random graphs and
// on graphs read back from DIMACS files.
func TestMoorePool(t *testing.T) {
	r := rng(40)
	type named struct {
		name string
		g    *Graph
		src  int
	}
	graphs := []named{
		{"rmat:7:4", RMAT(7, 4, 100, r), 0},
		{"grid:9x7", Grid(9, 7, 100, r), 0},
		{"uniform:150:600", Uniform(150, 600, 100, r), 17},
		{"one vertex", must(NewGraph(1, nil)), 0},
		{"unreachable half", must(NewGraph(6, []Edge{{0, 1, 3}, {1, 2, 0}, {2, 0, 1}, {3, 4, 1}, {4, 5, 1}})), 0},
	}
	// The DIMACS path: a graph written as a .gr file and read back.
	var file bytes.Buffer
	if err := Uniform(90, 400, 20, r).WriteDIMACS(&file); err != nil {
		t.Fatal(err)
	}
	gr, err := ReadDIMACS(&file, "uniform.gr")
	if err != nil {
		t.Fatal(err)
	}
	graphs = append(graphs, named{"uniform.gr", gr, 5})
	runs := 0
	for _, gc := range graphs {
		want := Dijkstra(gc.g, gc.src)
		for ranks := 1; ranks <= 4; ranks++ {
			for _, b := range pool.Balances() {
				for _, d := range pool.Detectors() {
					if d == pool.SinglePassRing || d == pool.QueueEmpty {
						continue // MoorePool refuses them
					}
					seed := uint64(runs)
					cfg := pool.Config{Balance: b, Detector: d, Seed: seed, Timeout: 20 * time.Second}
					if d == pool.FixedEnergy && runs%2 == 0 {
						cfg.Energy = 64 // runs out: ranks must ask rank 0 for more
					}
					f := pool.Faults{Seed: seed, Delay: 100 * time.Microsecond, Reorder: true}
					dist, pred, err := moorePool(gc.g, gc.src, ranks, cfg, f)
					if err == nil {
						err = CheckTree(gc.g, gc.src, want, dist, pred)
					}
					if err != nil {
						t.Fatalf("%s from %d, %d ranks, %v, %v: %v", gc.name, gc.src, ranks, b, d, err)
					}
					runs++
				}
			}
		}
	}
	t.Logf("%d runs", runs)
}

func TestMoorePoolRejects(t *testing.T) {
	g := Grid(3, 3, 5, rng(1))
	tr := pool.NewLocal(1, pool.Faults{})
	if _, _, _, err := MoorePool(tr[0], pool.Config{Balance: pool.Static, Detector: pool.SinglePassRing}, g, 0); err == nil || !strings.Contains(err.Error(), "SinglePassRing") {
		t.Errorf("single pass: %v", err)
	}
	if _, _, _, err := MoorePool(tr[0], pool.Config{}, g, 9); err == nil || !strings.Contains(err.Error(), "source 9 outside 0..8") {
		t.Errorf("source: %v", err)
	}
	// CheckTree catches a wrong predecessor.
	want := Dijkstra(g, 0)
	dist, pred, err := moorePool(g, 0, 2, pool.Config{}, pool.Faults{})
	if err != nil {
		t.Fatal(err)
	}
	pred[8] = 0
	if err := CheckTree(g, 0, want, dist, pred); err == nil || !strings.Contains(err.Error(), "vertex 8's predecessor 0") {
		t.Errorf("CheckTree: %v", err)
	}
}

func must(g *Graph, err error) *Graph {
	if err != nil {
		panic(err)
	}
	return g
}
