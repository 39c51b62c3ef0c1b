package experiment_test

import (
	"fmt"
	"log"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/bench/internal/experiment"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer/dataset"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// The paper's experiment on a small dataset, as bench paper runs it: the
// costs, the frames, then the report's figures. (It needs a GL context,
// so it is compiled, not run.)
func ExamplePaperRun() {
	c, err := gpu.NewHeadless()
	if err != nil {
		log.Fatal(err)
	}
	defer c.Delete()
	e, err := experiment.New(c, dataset.FromField(volume.Default(), 32, dataset.DefaultReduction), experiment.Options{Width: 128, Height: 128})
	if err != nil {
		log.Fatal(err)
	}
	defer e.Delete()
	p := experiment.NewPaperRun(e, experiment.PaperConfig{
		Views: view.Paper(), Lanes: []int{0}, Policies: []balancer.Policy{balancer.Never, balancer.CostEffective},
		Reps: 3, Calibration: experiment.Calibration{Path: "calibration.json", Margin: balancer.DefaultMargin}, Start: time.Now(),
	})
	if err := p.LoadCosts(nil); err != nil {
		log.Fatal(err)
	}
	if err := p.Measure(nil); err != nil {
		log.Fatal(err)
	}
	r := p.Report()
	sp := r.Summary.UnbalancedSpeedup["LB"]
	fmt.Printf("LB %.1f-%.1fx faster than OR on the unbalanced set; same images: %v\n", sp.Min, sp.Max, r.Images.Identical)
	for _, cc := range r.CostCheck {
		fmt.Printf("%s: largest dataset cost %.1f against %.1f (exceeded: %v)\n", cc.Loop, cc.DatasetCost, cc.Cost, cc.Exceeded)
	}
}
