package cliflag_test

import (
	"flag"
	"fmt"
	"io"

	"github.com/dpgl/dpgl/internal/cliflag"
)

func Example() {
	fs := flag.NewFlagSet("viewer", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var iso, cost float64
	var lanes int
	cliflag.Float(fs, &iso, "iso", 0, "isovalue", cliflag.Float32)
	cliflag.Float(fs, &cost, "cost", 0, "costIterations (0: calibrated)", cliflag.NonNegative)
	cliflag.Int(fs, &lanes, "lanes", 0, "lanes (0: one per processor)", 0, 1<<20)
	for _, args := range [][]string{{"-iso", "NaN"}, {"-cost", "-1"}, {"-lanes", "2e6"}, {"-iso", "0.5", "-lanes", "64"}} {
		fmt.Println(fs.Parse(args))
	}
	fmt.Println(iso, lanes)
	// Output:
	// invalid value "NaN" for flag -iso: want a finite number within ±3.403e+38
	// invalid value "-1" for flag -cost: want a finite number, 0 or more
	// invalid value "2e6" for flag -lanes: not an integer
	// <nil>
	// 0.5 64
}
