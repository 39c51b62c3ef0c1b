package main

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/balancer/synthetic"
	"github.com/dpgl/dpgl/gpu/gputest"
)

// Every policy on a balanced and a one-heavy workload: Never neither
// balances nor gathers, Always balances the one-heavy one, balancing only
// shortens the loop; the first run calibrates the cost and saves it, the
// second reads it.
func TestBalanceRunsEveryPolicy(t *testing.T) {
	c := gputest.Context(t)
	cal := filepath.Join(t.TempDir(), "cal.json")
	policies := []balancer.Policy{balancer.Never, balancer.Always, balancer.CostEffective, balancer.Bounded}
	o := &balanceOpts{p: 2000, max: 48, work: 16, kinds: []synthetic.Kind{synthetic.Balanced, synthetic.OneHeavy}, policies: policies,
		calPath: cal, seed: 1, reps: 1}
	r, err := measureBalance(c, o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !r.calibrated || r.cost <= 0 {
		t.Fatalf("the first run did not calibrate: cost %v", r.cost)
	}
	saved, err := balancer.LoadCalibration(cal)
	if err != nil {
		t.Fatal(err)
	}
	if lc, err := saved.Lookup(c.Caps().Renderer, loopName(16)); err != nil || lc.CostIterations != r.cost {
		t.Fatalf("the file holds %+v (%v), want the cost %v", lc, err, r.cost)
	}
	if len(r.rows) != 8 {
		t.Fatalf("%d rows, want 2 workloads x 4 policies", len(r.rows))
	}
	for i, row := range r.rows {
		st := row.st
		if row.kind != o.kinds[i/4] || row.policy != policies[i%4] || st.Start.MaxWorkload != 48 || st.Iterations < 1 || st.Iterations > 48 || row.time.Reps != 1 {
			t.Fatalf("row %d: %v %v, %+v", i, row.kind, row.policy, st)
		}
		never := r.rows[i/4*4].st
		if row.policy == balancer.Never && (st.Balances != 0 || st.Gathers != 0 || row.speedup != 1) {
			t.Fatalf("Never balanced or gathered on %v: %+v, speedup %v", row.kind, st, row.speedup)
		}
		if st.Iterations > never.Iterations || (st.Balances > 0 && st.Iterations == never.Iterations) {
			t.Fatalf("%v on %v: %d iterations after %d balances, Never %d", row.policy, row.kind, st.Iterations, st.Balances, never.Iterations)
		}
	}
	if always := r.rows[5].st; always.Balances < 1 || always.Iterations >= 40 {
		t.Fatalf("Always did not balance the one-heavy workload: %+v", always)
	}

	// The second run reads the calibration instead of making one.
	again, err := measureBalance(c, o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if again.calibrated || again.cost != r.cost {
		t.Fatalf("the second run calibrated (%v) or took another cost (%v, want %v)", again.calibrated, again.cost, r.cost)
	}
	// The command, verbose, prints what measureBalance returns.
	if err := run([]string{"balance", "-p", "500", "-max", "16", "-reps", "1", "-warmup", "0", "-workloads", "one-heavy", "-calibration", cal, "-v"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"balance", "-workloads", "lumpy"}, io.Discard); err == nil || !strings.Contains(err.Error(), `unknown workload "lumpy"`) {
		t.Fatalf("bad workload: %v", err)
	}
}
