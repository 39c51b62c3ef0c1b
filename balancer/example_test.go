package balancer_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan"
)

// The paper's worked example (§2.3 and §2.3.1) on the GPU: seven
// processors, one gathering and one redistribution.
func Example() {
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
	l, err := balancer.NewLoop[float32](s, balancer.Config{Name: "example"})
	if err != nil {
		log.Fatal(err)
	}
	defer l.Delete()

	// The paper numbers tasks from 1: each active processor starts at 1.
	workload := []uint32{100, 19, 0, 0, 0, 0, 0}
	if err := l.Load(workload, []uint32{1, 1, 0, 0, 0, 0, 0}, []float32{1.0, 2.0, 0, 0, 0, 0, 0}); err != nil {
		log.Fatal(err)
	}
	in := l.Gather()
	assignment, newValues := l.Assignment(in)
	fmt.Println("workload           ", ints(workload))
	fmt.Println("num_idle           ", in.NumIdle)
	fmt.Println("avg                ", in.Avg)
	mask := make([]string, len(workload))
	for p, w := range workload {
		mask[p] = map[bool]string{true: "T", false: "F"}[w > in.Avg]
	}
	fmt.Println("act_mask           ", strings.Join(mask, " "))
	fmt.Println("sum_workload       ", in.MaskedSum)
	fmt.Println("assignment         ", ints(assignment))
	fmt.Println("new_workload_values", ints(newValues))
	fmt.Println("savings            ", in.Savings())

	l.Redistribute(in)
	w := make([]uint32, 7)
	pi := make([]uint32, 7)
	pd := make([]float32, 7)
	l.Workload().Read(0, w)
	l.ParallelIndex().Read(0, pi)
	l.Problem().Read(0, pd)
	fmt.Println("new_workload       ", ints(w))
	fmt.Println("parallel_index     ", ints(pi))
	fmt.Print("problem_data        ")
	for _, v := range pd {
		if v == 0 {
			fmt.Print("0\n")
		} else {
			fmt.Printf("%.1f ", v)
		}
	}
	// Output:
	// workload            100 19 0 0 0 0 0
	// num_idle            5
	// avg                 17
	// act_mask            T T F F F F F
	// sum_workload        119
	// assignment          5 1 0 0 0 0 0
	// new_workload_values 20 19 0 0 0 0 0
	// savings             80
	// new_workload        20 20 20 20 20 19 0
	// parallel_index      1 21 41 61 81 1 0
	// problem_data        1.0 1.0 1.0 1.0 1.0 2.0 0
}

func ints(v []uint32) string { return strings.Trim(fmt.Sprint(v), "[]") }

// The policies on the worked example, on the CPU model: how many
// iterations each runs, how often it balances and gathers information,
// with a cost of 20 iterations (the paper's scan-conversion overestimate).
func ExampleSimulate() {
	for _, p := range balancer.Policies {
		m := balancer.NewModel(balancer.IntegerSteps, []uint32{100, 19, 0, 0, 0, 0, 0}, nil, []int{0, 1, 2, 3, 4, 5, 6})
		st := balancer.Simulate(m, balancer.Config{Policy: p, CostIterations: 20}, nil, nil)
		fmt.Printf("%-13v %3d iterations, %d balances, %3d gatherings, %d counts\n", p, st.Iterations, st.Balances, st.Gathers, st.Counts)
	}
	// Output:
	// Never         100 iterations, 0 balances,   0 gatherings, 1 counts
	// Always         20 iterations, 1 balances,  20 gatherings, 0 counts
	// CostEffective  20 iterations, 1 balances,   1 gatherings, 0 counts
	// Bounded        20 iterations, 1 balances,   1 gatherings, 1 counts
}

// A whole loop with a solution kernel: shaders/balancer/synthetic.comp
// (MODE 1) hashes each task into its processor's word of sink, a buffer of
// its own at balancer.FirstFreeBinding. Each policy runs the worked
// example's workload.
func ExampleLoop_Run() {
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

	l, err := balancer.NewLoop[uint32](s, balancer.Config{Name: "example"})
	if err != nil {
		log.Fatal(err)
	}
	defer l.Delete()
	for _, p := range balancer.Policies {
		l.SetConfig(balancer.Config{Name: "example", Policy: p, CostIterations: 20})
		if err := l.Load([]uint32{100, 19, 0, 0, 0, 0, 0}, nil, []uint32{0, 1, 2, 3, 4, 5, 6}); err != nil {
			log.Fatal(err)
		}
		st, err := l.Run(solution)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-13v %3d iterations, %d balances\n", p, st.Iterations, st.Balances)
	}
	// Output:
	// Never         100 iterations, 0 balances
	// Always         20 iterations, 1 balances
	// CostEffective  20 iterations, 1 balances
	// Bounded        20 iterations, 1 balances
}

// Calibrating a loop's cost on two datasets of one's own: Calibrate runs
// each under Always (so that it redistributes), once to warm up and then
// three times, and keeps the run of median cost of each. The cost itself
// depends on the GPU; Config.CostIterations takes it.
func ExampleCalibrate() {
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
	sink, err := gpu.NewBuffer[uint32](c, 4096)
	if err != nil {
		log.Fatal(err)
	}
	defer sink.Delete()
	solution := balancer.SolutionFunc(func(it *balancer.Iteration) {
		c.BindStorage(balancer.FirstFreeBinding, sink)
		it.Dispatch(kernel)
	})
	l, err := balancer.NewLoop[uint32](s, balancer.Config{Name: "mine"})
	if err != nil {
		log.Fatal(err)
	}
	defer l.Delete()

	datasets := [][]uint32{make([]uint32, 4096), make([]uint32, 4096)}
	for p := range 4096 {
		datasets[0][p] = uint32(p % 7) // short task lists
		datasets[1][p] = uint32(1 + p%3)
	}
	datasets[0][5], datasets[1][9] = 300, 120 // and one heavy processor each
	problems := make([]uint32, 4096)
	lc, err := balancer.Calibrate(l, solution, len(datasets), func(i int) error {
		return l.Load(datasets[i], nil, problems)
	}, balancer.CalibrateOptions{Margin: balancer.DefaultMargin})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d runs counted, the longest %d iterations, cost above the margin: %v\n", lc.Runs, lc.LongestRun, lc.CostIterations > lc.Margin)
	l.SetConfig(balancer.Config{Name: "mine", Policy: balancer.CostEffective, CostIterations: lc.CostIterations})
	// Output:
	// 2 runs counted, the longest 300 iterations, cost above the margin: true
}
