package experiment

import (
	"fmt"
	"math"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/rasterizer/dataset"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/view"
)

// The paper's figures for its second experiment (§4: "In summary,
// performance improvements ranged from a factor of 4 to 33. The empirical
// worst case performance loss is only 25 percent on balanced datasets").
const (
	PaperSecondSpeedupMin = 4
	PaperSecondSpeedupMax = 33
	PaperSecondWorstLoss  = 0.25
)

// SecondConfig is one run of the paper's second experiment: the three sets
// of dataset.SecondExperiment at Resolution^3, each rendered at every view
// and Lanes value under every policy.
type SecondConfig struct {
	Resolution int
	Views      []view.View
	Lanes      []int // 0 = one lane per processor
	Policies   []balancer.Policy
	Warmup     int
	Reps       int
}

// Frames is the number of configurations RunSecond renders.
func (cfg *SecondConfig) Frames() int {
	return 3 * len(cfg.Views) * len(cfg.Lanes) * len(cfg.Policies)
}

// SecondReport is the paper's second experiment ("three other polygon
// datasets were tested"): its sets, every frame with its speedup over OR,
// each policy's speedup range on the unbalanced set and worst loss on the
// balanced sets beside the paper's figures, §4.1's cost of each set's
// loops against the overestimates (the first experiment's: the paper used
// its unbalanced set's "on all the other datasets"), and the image check.
// Command bench prints it after the first experiment and writes it to
// second.json.
type SecondReport struct {
	Resolution     int            `json:"resolution"`
	Reps           int            `json:"reps"` // per frame, as the first experiment's
	Warmup         int            `json:"warmup"`
	Costs          [2]float64     `json:"costIterations"` // scan conversion, z-buffer
	Sets           []SecondSet    `json:"sets"`
	Frames         []SecondFrame  `json:"frames"`
	Summary        []SecondResult `json:"summary"` // one per policy other than OR
	CostCheck      []SecondCost   `json:"costCheck"`
	Paper          SecondPaper    `json:"paper"`
	Images         Images         `json:"images"`
	DatasetSeconds float64        `json:"datasetSeconds"`
	WallSeconds    float64        `json:"wallSeconds"`
}

// SecondSet is one of the three polygon sets.
type SecondSet struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Kind        string `json:"simulation"` // "fluid dynamics" or "particle interaction"
	Class       string `json:"class"`      // "balanced" or "unbalanced"
	Triangles   int    `json:"triangles"`
}

// SecondFrame is one set at one view and Lanes value under one policy.
type SecondFrame struct {
	Set      string  `json:"set"`
	Class    string  `json:"class"`
	View     string  `json:"view"`
	Lanes    string  `json:"lanes"`
	Renderer string  `json:"renderer"` // OR, LB, Bounded
	GPUMs    float64 `json:"gpuMedianMs"`
	WallMs   float64 `json:"wallMedianMs"`
	Spread   float64 `json:"spread"`
	// SpeedupOR is OR's GPU time over this frame's at the same set, view
	// and Lanes.
	SpeedupOR float64 `json:"speedupOverOR"`
	// The workloads as the loops found them (the same under every policy).
	ScanMax  uint32  `json:"scanMax"`
	ScanAvg  float64 `json:"scanAvg"`
	ZMax     uint32  `json:"zbufferMax"`
	ZAvg     float64 `json:"zbufferAvg"`
	Balances [2]int  `json:"balances"` // scan conversion, z-buffer
	Same     bool    `json:"sameImage"`
}

// SecondResult is one policy's figures beside the paper's: its speedup
// over OR on the unbalanced set and its loss against OR (time over OR's,
// less 1) on the balanced sets, over every view and Lanes value.
type SecondResult struct {
	Renderer string     `json:"renderer"`
	Speedup  RatioRange `json:"unbalancedSpeedup"`
	Loss     RatioRange `json:"balancedLoss"` // Max is the worst loss
}

// SecondCost is §4.1's cost of one set's loop ("Cost values were computed
// for all the other datasets by dividing the maximum information gathering
// and redistribution phases execution times by the minimum execution time
// of the solution phase. These cost values were all less than the
// overestimates."), per dataset (the set at a view and Lanes value) as
// CostCheck takes it, over the frames of the policies that gather; Cost is
// the largest.
type SecondCost struct {
	Set          string  `json:"set"`
	Loop         string  `json:"loop"`
	Cost         float64 `json:"maxDatasetCost"` // 0 when the loop never gathered
	At           string  `json:"at,omitempty"`
	Datasets     int     `json:"datasetsGathered"`
	Over         int     `json:"datasetsOver"`
	Overestimate float64 `json:"overestimate"`
}

// SecondPaper is what the paper says of its second experiment.
type SecondPaper struct {
	SpeedupMin float64 `json:"speedupMin"`
	SpeedupMax float64 `json:"speedupMax"`
	WorstLoss  float64 `json:"worstLoss"`
}

// RunSecond makes the second experiment's sets and renders them on e's
// renderer (whose kernels the first experiment has compiled) with the
// first experiment's costs. e's own sets are not touched.
func RunSecond(e *Experiment, cfg SecondConfig, costs Costs, pr Progress) (*SecondReport, error) {
	start := time.Now()
	pr.step(0, fmt.Sprintf("three simulations' sets at %d^3", cfg.Resolution))
	sims, err := dataset.SecondExperiment(cfg.Resolution)
	if err != nil {
		return nil, err
	}
	r := &SecondReport{Resolution: cfg.Resolution, Reps: cfg.Reps, Warmup: cfg.Warmup, Costs: [2]float64{costs.Scan, costs.Z},
		DatasetSeconds: time.Since(start).Seconds(),
		Paper:          SecondPaper{SpeedupMin: PaperSecondSpeedupMin, SpeedupMax: PaperSecondSpeedupMax, WorstLoss: PaperSecondWorstLoss}}
	for _, sim := range sims {
		r.Sets = append(r.Sets, SecondSet{Name: sim.Field.Name, Description: sim.Field.Description, Kind: sim.Kind,
			Class: sim.Class(), Triangles: sim.Set().Len()})
		frames, ic, err := measureSimulation(e, &cfg, costs, sim, pr)
		if err != nil {
			return nil, err
		}
		r.addFrames(sim, frames, ic)
		r.addCosts(sim.Field.Name, frames)
	}
	r.summarize(cfg.Policies)
	r.WallSeconds = time.Since(start).Seconds()
	return r, nil
}

// measureSimulation renders one simulation's set at every view and Lanes
// value under every policy, on base's renderer.
func measureSimulation(base *Experiment, cfg *SecondConfig, costs Costs, sim *dataset.Simulation, pr Progress) ([]Frame, *ImageCheck, error) {
	e := &Experiment{Context: base.Context, Renderer: base.Renderer, Pair: sim.Pair, Width: base.Width, Height: base.Height,
		Options: base.Options, sc: base.sc, warnings: base.warnings}
	set := Balanced
	if !sim.Balanced {
		set = Unbalanced
	}
	var err error
	if e.Sets[set], err = mesh.Upload(e.Context, sim.Set()); err != nil {
		return nil, nil, err
	}
	defer e.Sets[set].Delete()
	ic := &ImageCheck{}
	var out []Frame
	for _, v := range cfg.Views {
		for _, lanes := range cfg.Lanes {
			frs, err := e.Measure(set, v, lanes, cfg.Policies, costs, cfg.Warmup, cfg.Reps, ic)
			if err != nil {
				return nil, nil, fmt.Errorf("bench: the second experiment's %s set: %w", sim.Field.Name, err)
			}
			out = append(out, frs...)
			pr.step(len(frs), fmt.Sprintf("%s %s lanes %s", sim.Field.Name, v.Name, LanesLabel(lanes)))
		}
	}
	return out, ic, nil
}

// addFrames adds one simulation's frames, each with its speedup over OR.
func (r *SecondReport) addFrames(sim *dataset.Simulation, frames []Frame, ic *ImageCheck) {
	or := map[[2]string]*Frame{}
	for i := range frames {
		if fr := &frames[i]; fr.Policy == balancer.Never {
			or[[2]string{fr.View.Name, LanesLabel(fr.Lanes)}] = fr
		}
	}
	for i := range frames {
		fr := &frames[i]
		o := or[[2]string{fr.View.Name, LanesLabel(fr.Lanes)}]
		r.Frames = append(r.Frames, SecondFrame{Set: sim.Field.Name, Class: sim.Class(), View: fr.View.Name, Lanes: LanesLabel(fr.Lanes),
			Renderer: PolicyLabel(fr.Policy), GPUMs: Ms(fr.Time.Median), WallMs: Ms(fr.Time.Wall), Spread: fr.Time.Spread(),
			SpeedupOR: Ratio(o.Time.Median, fr.Time.Median),
			ScanMax:   fr.Scan.Start.MaxWorkload, ScanAvg: fr.Scan.StartAvg(), ZMax: fr.Z.Start.MaxWorkload, ZAvg: fr.Z.StartAvg(),
			Balances: [2]int{fr.Scan.Balances, fr.Z.Balances}, Same: fr.Same})
		if fr.Captured {
			r.Images.Compared++
			if !fr.Same {
				r.Images.Differ = append(r.Images.Differ, fmt.Sprintf("%s %s lanes %s %s: %d pixels",
					sim.Field.Name, fr.View.Name, LanesLabel(fr.Lanes), PolicyLabel(fr.Policy), fr.Differ))
			}
		}
	}
	r.Images.Images += len(ic.ref)
}

// addCosts adds §4.1's cost of each loop of a set: per dataset (view and
// Lanes value) over the repetitions of the policies that gather, as
// CostCheck's datasets.
func (r *SecondReport) addCosts(set string, frames []Frame) {
	for i, name := range LoopNames {
		c := SecondCost{Set: set, Loop: name, Overestimate: r.Costs[i]}
		for k := range frames {
			fr := &frames[k]
			if fr.Policy != balancer.CostEffective && fr.Policy != balancer.Bounded {
				continue
			}
			// One Calibrator per frame: the policies' frames of a
			// dataset are separate runs of it, each its own cost.
			cal := &balancer.Calibrator{}
			cal.AddMedian([]*LoopRun{&fr.Scan, &fr.Z}[i].Reps)
			if cal.Runs == 0 {
				continue
			}
			c.Datasets++
			if cal.Cost > c.Overestimate {
				c.Over++
			}
			if cal.Cost > c.Cost {
				c.Cost, c.At = cal.Cost, fmt.Sprintf("%s, lanes %s, %s", fr.View.Name, LanesLabel(fr.Lanes), PolicyLabel(fr.Policy))
			}
		}
		r.CostCheck = append(r.CostCheck, c)
	}
}

// summarize sets each policy's speedup range on the unbalanced set and
// loss range on the balanced sets from the frames.
func (r *SecondReport) summarize(policies []balancer.Policy) {
	r.Images.Identical = len(r.Images.Differ) == 0
	for _, pol := range policies {
		if pol == balancer.Never {
			continue
		}
		s := SecondResult{Renderer: PolicyLabel(pol)}
		sp, loss := newRange(), newRange()
		for _, fr := range r.Frames {
			if fr.Renderer != s.Renderer || fr.SpeedupOR <= 0 {
				continue
			}
			at := fmt.Sprintf("%s, %s, lanes %s", fr.Set, fr.View, fr.Lanes)
			if fr.Class == "unbalanced" {
				sp.add(fr.SpeedupOR, at)
			} else {
				loss.add(1/fr.SpeedupOR-1, at)
			}
		}
		s.Speedup, s.Loss = sp.done(), loss.done()
		r.Summary = append(r.Summary, s)
	}
}

func newRange() RatioRange { return RatioRange{Min: math.Inf(1), Max: math.Inf(-1)} }

func (rr *RatioRange) add(x float64, at string) {
	if x < rr.Min {
		rr.Min, rr.MinAt = x, at
	}
	if x > rr.Max {
		rr.Max, rr.MaxAt = x, at
	}
}

// done is the range, or zeros when nothing was added.
func (rr RatioRange) done() RatioRange {
	if math.IsInf(rr.Min, 1) {
		return RatioRange{}
	}
	return rr
}

// Result returns the summary of a renderer (LB, Bounded).
func (r *SecondReport) Result(renderer string) (SecondResult, bool) {
	for _, s := range r.Summary {
		if s.Renderer == renderer {
			return s, true
		}
	}
	return SecondResult{}, false
}

// CostsBelow reports whether every set's cost was below the overestimate,
// as the paper found, and otherwise the cost furthest above.
func (r *SecondReport) CostsBelow() (bool, SecondCost) {
	var worst SecondCost
	below := true
	for _, c := range r.CostCheck {
		if c.Over > 0 {
			if below || c.Cost-c.Overestimate > worst.Cost-worst.Overestimate {
				worst = c
			}
			below = false
		}
	}
	return below, worst
}
