package experiment

import (
	"fmt"
	"slices"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer/view"
)

// PaperConfig is one run of the paper's experiment.
type PaperConfig struct {
	Views    []view.View
	Lanes    []int // 0 = one lane per processor
	Policies []balancer.Policy
	Warmup   int
	Reps     int
	// Calibration says where the costs come from; its Views, Lanes,
	// Warmup and Reps are set from the fields above.
	Calibration Calibration

	// What the report records of how it was made.
	Command    string    // the command line, e.g. "bench paper -res 64"
	Source     string    // the field's name or the file's path
	Resolution int       // -res
	Reduction  int       // the unbalanced set's reduction
	Reduced    []string  // defaults lowered for a software renderer
	Start      time.Time // when the run began, dataset included: the report's date, and its wall time from there
}

// frameKey names one measured configuration.
type frameKey struct {
	set    int
	view   string
	lanes  int
	policy balancer.Policy
}

// PaperRun is the paper's experiment on an Experiment: its costs
// (LoadCosts), its frames (Measure), then its Report.
type PaperRun struct {
	e     *Experiment
	cfg   PaperConfig
	caps  gpu.Caps
	date  time.Time
	costs [2]LoopCost
	notes []string // where the costs came from

	frames []*Frame
	index  map[frameKey]*Frame
	ic     ImageCheck
	wall   time.Duration
}

// NewPaperRun prepares the experiment of cfg on e. The policies must
// include Never (OR) and CostEffective (LB), which the tables compare.
func NewPaperRun(e *Experiment, cfg PaperConfig) *PaperRun {
	if !slices.Contains(cfg.Policies, balancer.Never) || !slices.Contains(cfg.Policies, balancer.CostEffective) {
		panic(fmt.Sprintf("experiment: NewPaperRun: policies %v lack Never or CostEffective", cfg.Policies))
	}
	if len(cfg.Views) == 0 || len(cfg.Lanes) == 0 || cfg.Reps < 1 {
		panic(fmt.Sprintf("experiment: NewPaperRun: %d views, %d Lanes values, %d repetitions", len(cfg.Views), len(cfg.Lanes), cfg.Reps))
	}
	c := &cfg.Calibration
	c.Views, c.Lanes, c.Warmup, c.Reps = cfg.Views, cfg.Lanes, cfg.Warmup, cfg.Reps
	if cfg.Start.IsZero() {
		cfg.Start = time.Now()
	}
	return &PaperRun{e: e, cfg: cfg, caps: *e.Context.Caps(), date: cfg.Start, index: map[frameKey]*Frame{}}
}

// Date is when the run was made.
func (p *PaperRun) Date() time.Time { return p.date }

// Frames is the number of configurations Measure renders.
func (p *PaperRun) Frames() int {
	return len(SetNames) * len(p.cfg.Views) * len(p.cfg.Lanes) * len(p.cfg.Policies)
}

// LoadCosts takes the loops' costs from the calibration file, or
// calibrates them (Experiment.LoadOrCalibrate).
func (p *PaperRun) LoadCosts(pr Progress) error {
	var err error
	p.costs, p.notes, err = p.e.LoadOrCalibrate(&p.cfg.Calibration, pr)
	return err
}

// Costs are the loops' costs LoadCosts found and the lines that say where
// they came from.
func (p *PaperRun) Costs() ([2]LoopCost, []string) { return p.costs, p.notes }

func (p *PaperRun) cost() Costs { return Costs{Scan: p.costs[0].Cost, Z: p.costs[1].Cost} }

// Measure renders both sets at every view and Lanes value under every
// policy, after warming the kernels up.
func (p *PaperRun) Measure(pr Progress) error {
	f := &p.cfg
	if err := p.e.WarmUp(f.Views[0], f.Lanes[0], p.cost()); err != nil {
		return err
	}
	for set := range SetNames {
		for _, v := range f.Views {
			for _, lanes := range f.Lanes {
				frs, err := p.e.Measure(set, v, lanes, f.Policies, p.cost(), f.Warmup, f.Reps, &p.ic)
				if err != nil {
					return err
				}
				for i := range frs {
					fr := &frs[i]
					p.frames = append(p.frames, fr)
					p.index[frameKey{set, v.Name, lanes, fr.Policy}] = fr
				}
				pr.step(len(frs), fmt.Sprintf("%s %s lanes %s", SetNames[set], v.Name, LanesLabel(lanes)))
			}
		}
	}
	p.wall = time.Since(f.Start)
	return nil
}
