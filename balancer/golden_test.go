package balancer

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/balancer/synthetic"
	"github.com/dpgl/dpgl/gpu/gputest"
)

var updateRuns = flag.Bool("update-runs", false, "rewrite testdata/runs.golden from the GPU loop's runs")

// The GPU loop's decisions on fixed workloads, recorded before the solution
// phase ran several iterations per dispatch, and compared since: the
// iterations, balancing operations, gatherings, counts and savings, and
// the iteration of every count (c), gathering (g) and redistribution (r),
// under every policy, with one lane per processor and with lanes that take
// several processors. Every task is solved exactly once.
func TestRunsUnchangedGPU(t *testing.T) {
	c := gputest.Context(t)
	var got strings.Builder
	l := newLoop[uint32](t, Config{})
	for _, cs := range goldenCases() {
		for _, pol := range []Policy{Never, Always, CostEffective, Bounded} {
			for _, lanes := range []int{0, 7} {
				cfg := Config{Name: "golden", Policy: pol, CostIterations: cs.cost, Lanes: lanes, Logf: t.Logf}
				if err := l.SetConfig(cfg); err != nil {
					t.Fatal(err)
				}
				ta := newTally(t, c, cs.w, make([]uint32, len(cs.w)))
				if err := l.Load(cs.w, nil, problems(len(cs.w))); err != nil {
					t.Fatal(err)
				}
				st, err := l.Run(ta)
				if err != nil {
					t.Fatalf("%s %v lanes %d: %v", cs.name, pol, lanes, err)
				}
				if err := ta.check(); err != nil {
					t.Fatalf("%s %v lanes %d: %v", cs.name, pol, lanes, err)
				}
				ta.delete()
				if st.Solve.N != st.Iterations {
					t.Errorf("%s %v lanes %d: %d solution phases timed for %d iterations", cs.name, pol, lanes, st.Solve.N, st.Iterations)
				}
				var phases []string
				for _, s := range l.tl.log {
					if s.phase != PhaseSolve {
						phases = append(phases, fmt.Sprintf("%c%d", s.phase.String()[0], s.iter))
					}
				}
				fmt.Fprintf(&got, "%s %v lanes=%d: iterations %d balances %d gathers %d counts %d savings %d: %s\n",
					cs.name, pol, lanes, st.Iterations, st.Balances, st.Gathers, st.Counts, st.Savings, strings.Join(phases, " "))
			}
		}
	}
	const file = "testdata/runs.golden"
	if *updateRuns {
		if err := os.WriteFile(file, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	g, w := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(g), len(w)) {
		gl, wl := "", ""
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			t.Errorf("run %d:\n got %s\nwant %s", i, gl, wl)
		}
	}
}

type goldenCase struct {
	name string
	w    []uint32
	cost float64
}

// goldenCases are the workloads of TestRunsUnchangedGPU: the paper's worked
// example, and every synthetic kind at two sizes, drawn with a fixed seed.
func goldenCases() []goldenCase {
	cases := []goldenCase{{"worked-example", []uint32{100, 19, 0, 0, 0, 0, 0}, 8}}
	r := rand.New(rand.NewPCG(19, 18))
	for _, k := range synthetic.Kinds {
		for _, p := range []int{300, 5000} {
			cases = append(cases, goldenCase{fmt.Sprintf("%v-%d", k, p), synthetic.Workload(k, p, 300, r), 12})
		}
	}
	return cases
}
