package experiment

import (
	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/rasterizer/view"
)

// Report is everything the paper's experiment found, as paper.json holds
// it; command bench prints its tables from it. The frames themselves, the
// kept images and the typed parameters are kept beside the JSON
// (Frame, Image, Views, Lanes, Policies).
type Report struct {
	Meta      Meta          `json:"meta"`
	Params    Params        `json:"parameters"`
	Costs     [2]LoopCost   `json:"costs"`
	CostNotes []string      `json:"costNotes"`
	Table1    []Table1Row   `json:"table1"`
	Frames    []FrameRow    `json:"frames"` // Tables 2 (unbalanced) and 3 (balanced)
	Table4    Table4        `json:"table4"`
	CostCheck [2]CostCheck  `json:"costCheck"`
	Summary   Summary       `json:"summary"`
	Headline  []HeadlineRow `json:"headline"`
	Images    Images        `json:"images"`
	Warnings  []string      `json:"balancerWarnings"`
	Files     []string      `json:"files"` // filled by whoever writes them

	// Dataset describes the dataset in one line (Experiment.Describe).
	Dataset string `json:"-"`

	runs     []*Frame
	index    map[frameKey]*Frame
	views    []view.View
	lanes    []int
	policies []balancer.Policy
	ic       *ImageCheck
}

// Frame returns the measured frame of a set at a view, Lanes value and
// policy, or nil.
func (r *Report) Frame(set int, view string, lanes int, pol balancer.Policy) *Frame {
	return r.index[frameKey{set, view, lanes, pol}]
}

// Runs are the measured frames, in the order they were measured.
func (r *Report) Runs() []*Frame { return r.runs }

// Views, Lanes and Policies are the run's, in the order the tables take
// them.
func (r *Report) Views() []view.View          { return r.views }
func (r *Report) Lanes() []int                { return r.lanes }
func (r *Report) Policies() []balancer.Policy { return r.policies }

// Image is the image of a set at a view (packed RGBA8, bottom row first),
// as every policy drew it when Images.Identical.
func (r *Report) Image(set int, view string) []uint32 {
	if r.ic == nil {
		return nil
	}
	return r.ic.Pixels(set, view)
}

// Meta says where and when the run was made.
type Meta struct {
	Command     string   `json:"command"`
	Renderer    string   `json:"glRenderer"`
	Vendor      string   `json:"glVendor"`
	Driver      string   `json:"glVersion"`
	GLSL        string   `json:"glslVersion"`
	Platform    string   `json:"platform"`
	Software    bool     `json:"softwareRenderer"`
	Atomic64    bool     `json:"atomic64"`
	Date        string   `json:"date"`
	GoVersion   string   `json:"goVersion"`
	Reduced     []string `json:"reducedForSoftware,omitempty"`
	WallSeconds float64  `json:"wallSeconds"`
}

// Params are the dataset and the settings of the run.
type Params struct {
	Dataset             string   `json:"dataset"`
	Source              string   `json:"source"` // field name or volume path
	Resolution          int      `json:"resolution"`
	Iso                 float32  `json:"isovalue"`
	Reduction           int      `json:"reduction"`
	BalancedTriangles   int      `json:"balancedTriangles"`
	UnbalancedTriangles int      `json:"unbalancedTriangles"`
	DatasetSeconds      float64  `json:"datasetSeconds"`
	Width               int      `json:"width"`
	Height              int      `json:"height"`
	Views               []string `json:"views"`
	Lanes               []string `json:"lanes"`
	Policies            []string `json:"policies"`
	Reps                int      `json:"reps"`
	Warmup              int      `json:"warmup"`
	Visibility          string   `json:"visibility"`
	Lockstep            bool     `json:"lockstep"` // Options.Lockstep: one dispatch an iteration
	Calibration         string   `json:"calibrationFile"`
}

// Visibility32 names the z-buffer scheme of drivers without 64-bit
// atomics (Params.Visibility).
const Visibility32 = "32-bit: the nearest tests' keys by compare-and-swap"

// Table1Row is one set at one view: the workloads as the loops saw them.
type Table1Row struct {
	Set            string  `json:"set"`
	View           string  `json:"view"`
	ScanMax        uint32  `json:"scanMax"`
	ScanAvg        float64 `json:"scanAvg"`
	ZMax           uint32  `json:"zbufferMax"`
	ZAvg           float64 `json:"zbufferAvg"`
	ScanProcessors int     `json:"scanProcessors"` // set-up triangles
	ZProcessors    int     `json:"zbufferProcessors"`
}

// Phase is one phase's durations (Table 4's minimum, maximum, average).
type Phase struct {
	N     int     `json:"n"`
	MinMs float64 `json:"minMs"`
	MaxMs float64 `json:"maxMs"`
	AvgMs float64 `json:"avgMs"`
}

func phaseOf(t balancer.PhaseTimes) Phase {
	return Phase{N: t.N, MinMs: Ms(t.Min), MaxMs: Ms(t.Max), AvgMs: Ms(t.Avg())}
}

// Loop is one loop of a frame.
type Loop struct {
	Processors     int              `json:"processors"`
	Lanes          int              `json:"lanes"`
	MaxWorkload    uint32           `json:"maxWorkload"`
	AvgWorkload    float64          `json:"avgWorkload"`
	Iterations     int              `json:"iterations"`
	Passes         int              `json:"passes"`
	Balances       int              `json:"balances"`
	Gathers        int              `json:"gathers"`
	Counts         int              `json:"counts"`
	Savings        uint64           `json:"savings"`
	CostIterations float64          `json:"costIterations"`
	MaxCost        float64          `json:"maxMeasuredCost"`
	Phases         map[string]Phase `json:"phases"`
}

func loopOf(l *LoopRun) Loop {
	return Loop{Processors: l.Processors, Lanes: l.Lanes, MaxWorkload: l.Start.MaxWorkload, AvgWorkload: l.StartAvg(),
		Iterations: l.Iterations, Passes: l.Passes, Balances: l.Balances, Gathers: l.Gathers, Counts: l.Counts, Savings: l.Savings,
		CostIterations: l.CostIterations, MaxCost: l.MaxCost,
		Phases: map[string]Phase{"count": phaseOf(l.Count), "gather": phaseOf(l.Gather), "redistribute": phaseOf(l.Redistribute), "solve": phaseOf(l.Solve)}}
}

// FrameRow is one frame of Tables 2 and 3.
type FrameRow struct {
	Set       string     `json:"set"`
	View      string     `json:"view"`
	Policy    string     `json:"policy"`
	Renderer  string     `json:"renderer"` // OR, LB, Bounded
	Lanes     string     `json:"lanes"`
	GPUMs     float64    `json:"gpuMedianMs"`
	GPUMinMs  float64    `json:"gpuMinMs"`
	GPUMaxMs  float64    `json:"gpuMaxMs"`
	WallMs    float64    `json:"wallMedianMs"`
	Spread    float64    `json:"spread"`
	Reps      int        `json:"reps"`
	SpeedupOR float64    `json:"speedupOverOR"`
	StagesMs  [4]float64 `json:"stagesMs"` // setup, scan conversion, z-buffer, shading
	Spans     int64      `json:"spans"`
	Pixels    int64      `json:"pixels"`
	Scan      Loop       `json:"scanConversion"`
	Z         Loop       `json:"zbuffer"`
	// IDPass is the z-buffer's primitive-id pass (Frame.IDs), on drivers
	// without 64-bit atomics.
	IDPass      *Loop  `json:"zbufferIdPass,omitempty"`
	SameImage   bool   `json:"sameImage"`
	DiffPixels  int    `json:"differingPixels"`
	LanesRaised string `json:"lanesRaised,omitempty"`
}

// Table4 is the phase times of LB's loops on the unbalanced set at the
// most lanes, all views.
type Table4 struct {
	Set    string        `json:"set"`
	Policy string        `json:"policy"`
	Lanes  string        `json:"lanes"`
	Loops  [2]LoopPhases `json:"loops"`
	// IDPassSolve is the z-buffer's primitive-id pass on drivers without
	// 64-bit atomics: not the paper's loop, so not in Loops[1].Solve.
	IDPassSolve *Phase `json:"zbufferIdPassSolve,omitempty"`
}

// LoopPhases are one loop's columns of Table 4.
type LoopPhases struct {
	Loop         string `json:"loop"`
	Gather       Phase  `json:"gather"`
	Redistribute Phase  `json:"redistribute"`
	Solve        Phase  `json:"solve"`
}

// CostCheck is §4.1's check of one loop's overestimate. The paper's rule
// (Exceeded) takes each dataset (a polygon set at a view and Lanes value,
// run by the policies that gather): its longest gathering plus its longest
// redistribution over its shortest solution phase, the median over the
// repetitions as in the calibration (balancer.Calibrator.AddMedian). The
// balancer's warning takes each iteration alone (MaxCost, Over), which can
// stay below the overestimate where a dataset's cost does not.
type CostCheck struct {
	Loop  string  `json:"loop"`
	Cost  float64 `json:"costIterations"`
	Paper float64 `json:"paperCost"`

	// The paper's rule, per dataset.
	DatasetCost  float64 `json:"maxDatasetCost"`
	DatasetAt    string  `json:"datasetAt,omitempty"`
	DatasetsOver int     `json:"datasetsOver"`
	Datasets     int     `json:"datasetsGathered"`
	Exceeded     bool    `json:"exceeded"` // a dataset cost more than Cost

	// Per iteration, as the balancer warns.
	MaxCost           float64 `json:"maxMeasuredCost"`
	At                string  `json:"at,omitempty"`
	Over              int     `json:"framesOver"`
	Gathered          int     `json:"framesGathered"`
	IterationExceeded bool    `json:"iterationExceeded"`

	// Longest is the largest MAX(workload) of the loop in this run: a
	// redistribution saves less than that, so a cost at or above it means
	// LB and Bounded can never balance and run as Figure 1 (a stale
	// calibration, or one measured under load).
	Longest   uint32 `json:"longestRunIterations"`
	CannotPay bool   `json:"costAboveLongestRun"`
}

// RatioRange is the range of a ratio over the views and Lanes values.
type RatioRange struct {
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
	MinAt string  `json:"minAt"`
	MaxAt string  `json:"maxAt"`
}

// Summary holds the figures the paper's text quotes.
type Summary struct {
	// OR time over each policy's, unbalanced set.
	UnbalancedSpeedup map[string]RatioRange `json:"unbalancedSpeedup"`
	// Each policy's time over OR's, less 1, balanced set: Max is the
	// worst loss.
	BalancedLoss map[string]RatioRange `json:"balancedLoss"`
	// LB on the unbalanced set over OR on the balanced set (paper: within
	// 1.7x).
	LBVsBalancedOR RatioRange `json:"lbUnbalancedOverOrBalanced"`
	// Whether CostEffective balanced the balanced set.
	BalancedSet BalancedSetBalancing `json:"balancedSetBalancing"`
	MaxSpread   float64              `json:"maxSpread"`
}

// BalancedSetBalancing says whether LB balanced the balanced set, and
// why it could not pay when it did not.
type BalancedSetBalancing struct {
	Frames         int      `json:"frames"`
	FramesBalanced int      `json:"framesBalanced"`
	ScanBalances   int      `json:"scanBalances"`
	ZBalances      int      `json:"zbufferBalances"`
	Gathers        int      `json:"gathers"`
	MaxSavingBound uint32   `json:"maxSavingsBound"` // max over frames and loops of MAX(workload) - ceil(avg) at the start
	Balanced       []string `json:"balanced,omitempty"`
}

// HeadlineRow is one of the paper's headline figures beside ours.
type HeadlineRow struct {
	What  string `json:"what"`
	Paper string `json:"paper"`
	Ours  string `json:"ours"`
}

// Images is the image-equality check: every policy and Lanes value must
// draw the same image and primitive ids.
type Images struct {
	Identical bool     `json:"identical"`
	Compared  int      `json:"framesCompared"`
	Images    int      `json:"images"`
	Differ    []string `json:"differ,omitempty"`
}
