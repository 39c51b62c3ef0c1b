package sssp_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/balancer/sssp"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan"
)

// Shortest paths in a small DIMACS graph on the GPU, the relaxation loops
// balanced by a work pool; vertex 5 is unreachable.
func Example() {
	g, err := sssp.ReadDIMACS(strings.NewReader(`c a climb: camps 1..4, and 5 out of reach
p sp 5 6
a 1 2 10
a 1 3 3
a 3 2 4
a 2 4 2
a 3 4 9
a 5 1 1
`), "climb.gr")
	if err != nil {
		log.Fatal(err)
	}
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
	so, err := sssp.NewSolver(s, balancer.Config{Strategy: balancer.WorkPool})
	if err != nil {
		log.Fatal(err)
	}
	defer so.Delete()
	if err := so.Load(g); err != nil {
		log.Fatal(err)
	}
	if _, err := so.Run(0); err != nil {
		log.Fatal(err)
	}
	for v, d := range so.Distances() {
		if d == sssp.Unreachable {
			fmt.Printf("camp %d: unreachable\n", v+1)
		} else {
			fmt.Printf("camp %d: %d\n", v+1, d)
		}
	}
	// How many rounds it took depends on the order the relaxations ran in
	// (a distance lowered early in a round is seen within the round); the
	// distances do not.
	fmt.Println("equal to Dijkstra:", fmt.Sprint(so.Distances()) == fmt.Sprint(sssp.Dijkstra(g, 0)))
	// Output:
	// camp 1: 0
	// camp 2: 7
	// camp 3: 3
	// camp 4: 9
	// camp 5: unreachable
	// equal to Dijkstra: true
}
