package balancer_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// job is the Go twin of testdata/jobs.comp's Job.
type job struct {
	Mark  uint32 // added to each of the job's slots
	First uint32 // the job's first slot
}

// The user's walk (README, "Use dpgl as a library"): a kernel of one's own
// in one's own file, including dpgl's balancer/loop.glsl, under every policy
// and every strategy, on a heavy-tailed workload with idle processors.
// Every task must be solved exactly once: each slot of the hits table,
// surrounded by guard regions, holds its job's mark once.
func TestUserKernelEveryPolicyAndStrategy(t *testing.T) {
	c := gputest.Context(t)
	s, err := scan.New(c)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Delete()
	kernel, err := c.UserProgramFile(filepath.Join("testdata", "jobs.comp"), nil)
	if err != nil {
		t.Fatal(err)
	}

	// A Pareto-like workload: most jobs short, a few up to 400 tasks, a
	// fifth of the processors idle.
	rng := rand.New(rand.NewPCG(16, 1))
	const processors = 700
	workload := make([]uint32, processors)
	jobs := make([]job, processors)
	total := 0
	for p := range workload {
		if rng.IntN(5) > 0 {
			workload[p] = uint32(min(400, math.Floor(1/math.Pow(1-rng.Float64(), 1.2))))
		}
		jobs[p] = job{Mark: uint32(p) + 1, First: uint32(total)}
		total += int(workload[p])
	}
	want := make([]uint32, total)
	for p, w := range workload {
		for k := 0; k < int(w); k++ {
			want[int(jobs[p].First)+k] = jobs[p].Mark
		}
	}
	hits := gputest.NewGuarded[uint32](t, c, total, 0xdeadbeef, nil)
	defer hits.Delete()
	solution := balancer.SolutionFunc(func(it *balancer.Iteration) {
		c.BindStorage(balancer.FirstFreeBinding, hits.View)
		it.Dispatch(kernel)
	})

	var configs []balancer.Config
	for _, p := range balancer.Policies {
		configs = append(configs, balancer.Config{Policy: p})
	}
	for _, st := range balancer.Strategies[1:] {
		configs = append(configs, balancer.Config{Policy: balancer.Never, Strategy: st, Seed: 7})
	}
	l, err := balancer.NewLoop[job](s, balancer.Config{Name: "jobs", CostIterations: 20})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Delete()
	for _, cfg := range configs {
		cfg.Name, cfg.CostIterations, cfg.Lanes, cfg.Logf = "jobs", 20, 64, t.Logf
		what := fmt.Sprintf("%v/%v", cfg.Policy, cfg.Strategy)
		if err := l.SetConfig(cfg); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		hits.View.Write(0, make([]uint32, total))
		if err := l.Load(workload, nil, jobs); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		st, err := l.Run(solution)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		got := hits.Check(t, what)
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: slot %d holds %d, want job %d's mark %d once (%d tasks in all, %d balances)", what, i, got[i], want[i]-1, want[i], total, st.Balances)
			}
		}
		if cfg.Strategy == balancer.Paper && cfg.Policy != balancer.Never && st.Balances == 0 {
			t.Errorf("%s: never balanced a workload whose largest job is %d tasks among %d lanes", what, slicesMax(workload), cfg.Lanes)
		}
	}
}

func slicesMax(v []uint32) uint32 {
	m := uint32(0)
	for _, x := range v {
		m = max(m, x)
	}
	return m
}

// A Go problem type whose size differs from the kernel's BALANCER_PROBLEM
// (12 bytes against Job's 8) is refused at the first dispatch, naming the
// block and both sizes, instead of giving wrong results.
func TestUserKernelProblemLayoutMismatch(t *testing.T) {
	c := gputest.Context(t)
	s, err := scan.New(c)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Delete()
	kernel, err := c.UserProgramFile(filepath.Join("testdata", "jobs.comp"), nil)
	if err != nil {
		t.Fatal(err)
	}
	type wideJob struct{ Mark, First, Extra uint32 }
	l, err := balancer.NewLoop[wideJob](s, balancer.Config{Name: "wide", CostIterations: 20})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Delete()
	hits, _ := gpu.NewBuffer[uint32](c, 8)
	defer hits.Delete()
	if err := l.Load([]uint32{4, 4}, nil, []wideJob{{1, 0, 0}, {2, 4, 0}}); err != nil {
		t.Fatal(err)
	}
	var r any
	func() {
		defer func() { r = recover() }()
		l.Run(balancer.SolutionFunc(func(it *balancer.Iteration) {
			c.BindStorage(balancer.FirstFreeBinding, hits)
			it.Dispatch(kernel)
		}))
	}()
	if msg := fmt.Sprint(r); !contains(msg, "storage block BalancerProblems (binding 2)", "stride of 8 bytes", "elements of 12 bytes") {
		t.Fatalf("a 12-byte Go problem for an 8-byte GLSL Job: recovered %q", msg)
	}
}

func contains(s string, subs ...string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}
