package balancer_test

import (
	"fmt"
	"log"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan"
)

// The worked example's workload under the paper's Figure 1 and the other
// strategies, with the same solution kernel: the critical path is the most
// tasks one lane solved, summed over the dispatches, and the imbalance
// that over the perfectly balanced 119/lanes. (The work pool is left out:
// which lane takes which chunk depends on the GPU's scheduling.)
func ExampleConfig_strategy() {
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
	kernel := c.MustProgram("balancer/synthetic.comp", map[string]string{"MODE": "1"})
	sink, err := gpu.NewBuffer[uint32](c, 7)
	if err != nil {
		log.Fatal(err)
	}
	defer sink.Delete()
	solution := balancer.SolutionFunc(func(it *balancer.Iteration) {
		c.BindStorage(balancer.FirstFreeBinding, sink)
		it.Dispatch(kernel)
	})
	l, err := balancer.NewLoop[uint32](s, balancer.Config{})
	if err != nil {
		log.Fatal(err)
	}
	defer l.Delete()
	for _, st := range []balancer.Strategy{balancer.Paper, balancer.RoundRobin, balancer.Random, balancer.LeftRightHandoff, balancer.Search} {
		if err := l.SetConfig(balancer.Config{Name: "example", Strategy: st}); err != nil {
			log.Fatal(err)
		}
		if err := l.Load([]uint32{100, 19, 0, 0, 0, 0, 0}, nil, []uint32{0, 1, 2, 3, 4, 5, 6}); err != nil {
			log.Fatal(err)
		}
		stats, err := l.Run(solution)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-16v %3d lanes, %3d iterations, critical path %3d, imbalance %.2f\n",
			st, stats.Lanes, stats.Iterations, stats.CriticalPath, stats.Imbalance())
	}
	// Output:
	// Paper              7 lanes, 100 iterations, critical path 100, imbalance 5.88
	// RoundRobin         7 lanes,   1 iterations, critical path  17, imbalance 1.00
	// Random             7 lanes,   1 iterations, critical path  17, imbalance 1.00
	// LeftRightHandoff   7 lanes,   1 iterations, critical path  17, imbalance 1.00
	// Search           119 lanes,   1 iterations, critical path   1, imbalance 1.00
}
