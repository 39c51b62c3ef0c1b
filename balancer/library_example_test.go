package balancer_test

import (
	"fmt"
	"log"
	"slices"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan"
)

// A solution kernel of one's own (testdata/jobs.comp, which includes dpgl's
// balancer/loop.glsl) under each policy: processor p holds a job of
// workload[p] tasks, and each task adds its job's mark to its own slot of
// a table, so a table holding every mark once shows that every task ran
// exactly once.
func Example_userKernel() {
	c, err := gpu.NewHeadless()
	if err != nil {
		log.Fatal(err)
	}
	defer c.Delete()
	s, err := scan.New(c)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Delete()

	// The user's file, with dpgl's shaders behind it for #include.
	kernel, err := c.UserProgramFile("testdata/jobs.comp", nil)
	if err != nil {
		log.Fatal(err)
	}
	// type job struct{ Mark, First uint32 }: the std430 twin of the
	// kernel's struct Job, the problem type BALANCER_PROBLEM.
	workload := []uint32{100, 19, 0, 0, 0, 0, 0}
	jobs := []job{{Mark: 1, First: 0}, {Mark: 2, First: 100}, {}, {}, {}, {}, {}}
	hits, err := gpu.NewBuffer[uint32](c, 119)
	if err != nil {
		log.Fatal(err)
	}
	defer hits.Delete()
	solution := balancer.SolutionFunc(func(it *balancer.Iteration) {
		c.BindStorage(balancer.FirstFreeBinding, hits) // the kernel's Hits block
		it.Dispatch(kernel)
	})

	l, err := balancer.NewLoop[job](s, balancer.Config{Name: "jobs", CostIterations: 20})
	if err != nil {
		log.Fatal(err)
	}
	defer l.Delete()
	for _, p := range balancer.Policies {
		l.SetConfig(balancer.Config{Name: "jobs", Policy: p, CostIterations: 20})
		hits.Fill(0)
		if err := l.Load(workload, nil, jobs); err != nil {
			log.Fatal(err)
		}
		st, err := l.Run(solution)
		if err != nil {
			log.Fatal(err)
		}
		got := hits.Download()
		once := slices.Equal(got[:100], slices.Repeat([]uint32{1}, 100)) && slices.Equal(got[100:], slices.Repeat([]uint32{2}, 19))
		fmt.Printf("%-13v %3d iterations, %d balances, every task once: %v\n", p, st.Iterations, st.Balances, once)
	}
	// Output:
	// Never         100 iterations, 0 balances, every task once: true
	// Always         20 iterations, 1 balances, every task once: true
	// CostEffective  20 iterations, 1 balances, every task once: true
	// Bounded        20 iterations, 1 balances, every task once: true
}
