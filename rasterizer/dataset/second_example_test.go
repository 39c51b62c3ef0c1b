package dataset_test

import (
	"fmt"

	"github.com/dpgl/dpgl/rasterizer/dataset"
)

// The paper's second experiment's three sets, at a small resolution: each
// simulation's polygon set (Set) is of its class.
func ExampleSecondExperiment() {
	sims, err := dataset.SecondExperiment(32)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range sims {
		fmt.Printf("%-22s %-20s %-10s %v\n", s.Field.Name, s.Kind, s.Class(), s.Set().Len() > 0)
	}
	// Output:
	// taylor-green-speed     fluid dynamics       unbalanced true
	// taylor-green-vorticity fluid dynamics       balanced   true
	// particles              particle interaction balanced   true
}
