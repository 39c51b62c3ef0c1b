package experiment

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
)

// Stats summarizes repeated timings.
type Stats struct {
	Median, Min, Max time.Duration
	Wall             time.Duration // median wall time per repetition, host side
	Reps             int
}

// Spread is (max-min)/median, the relative spread of the repetitions.
func (s Stats) Spread() float64 {
	if s.Median <= 0 {
		return 0
	}
	return float64(s.Max-s.Min) / float64(s.Median)
}

// Summarize sorts the GPU and wall times of repetitions (in place) and
// returns their medians and range.
func Summarize(gpuTimes, walls []time.Duration) Stats {
	sort.Slice(gpuTimes, func(i, j int) bool { return gpuTimes[i] < gpuTimes[j] })
	sort.Slice(walls, func(i, j int) bool { return walls[i] < walls[j] })
	n := len(gpuTimes)
	return Stats{Median: gpuTimes[n/2], Min: gpuTimes[0], Max: gpuTimes[n-1], Wall: walls[n/2], Reps: n}
}

// LoopRun is one loop's statistics over the timed repetitions of a frame:
// the counts of the first repetition (they are the same in every one), the
// phase times of all of them merged, and each repetition's own statistics
// (Reps), of which §4.1's cost of a dataset takes the median.
type LoopRun struct {
	balancer.Stats
	// Passes is the number of passes over the loop's tasks a frame made:
	// the z-buffer of the 32-bit visibility scheme's fallback (a batch
	// whose tests' keys outgrow a storage block) makes two (depths, then
	// primitive ids: Frame.IDs), every other loop one.
	Passes int
	Reps   []balancer.Stats
}

// add accounts one more repetition b of the same loop.
func (a *LoopRun) add(b balancer.Stats) {
	// A repetition is kept for its counts and extremes (the calibrator's
	// median over them); its every-iteration durations go into a's merged
	// PhaseTimes alone, so that a second copy does not grow the heap by
	// every iteration of every repetition.
	rep := b
	for _, t := range []*balancer.PhaseTimes{&rep.Count, &rep.Gather, &rep.Redistribute, &rep.Solve, &rep.Schedule} {
		t.All = nil
	}
	a.Reps = append(a.Reps, rep)
	if a.Passes == 0 {
		a.Stats, a.Passes = b, 1
		// a's samples grow by appending: they must not share b's arrays.
		for _, t := range []*balancer.PhaseTimes{&a.Count, &a.Gather, &a.Redistribute, &a.Solve} {
			t.All = slices.Clone(t.All)
		}
		return
	}
	for _, pt := range []struct{ dst, src *balancer.PhaseTimes }{
		{&a.Count, &b.Count}, {&a.Gather, &b.Gather}, {&a.Redistribute, &b.Redistribute}, {&a.Solve, &b.Solve}} {
		pt.dst.Merge(*pt.src)
	}
	if b.MaxCost > a.MaxCost {
		a.MaxCost, a.MaxCostAt = b.MaxCost, b.MaxCostAt
	}
}

// Frame is one set at one view under one policy and Lanes value,
// repeated.
type Frame struct {
	Set    int
	View   view.View
	Policy balancer.Policy
	Lanes  int // requested; 0 = one per processor

	Time    Stats // the frame's GPU time (timestamps) and wall time
	Scan, Z LoopRun
	// IDs is the z-buffer's second pass on drivers without 64-bit
	// atomics: each pixel's lowest primitive id at its depth, found by
	// load-balancing search over all tasks. It is not the paper's loop,
	// and is kept out of Z so that Z's phases are the paper's (Table 4).
	// Passes is 0 where the driver has 64-bit atomics.
	IDs      LoopRun
	Stages   [4]time.Duration // setup, scan conversion, z-buffer, shading: the median repetition's
	Same     bool             // image and primitive ids equal the first policy's at this set and view
	Differ   int              // pixels that differ when not Same
	Pixels   int64            // the z-buffer loop's tasks
	Spans    int64            // the scan-conversion loop's tasks
	Setup    raster.SetupStats
	Captured bool // pixels were read back and compared

	// Median is the median repetition's statistics: where its time went,
	// stage by stage (FrameStats.Stages), and each loop's phases.
	Median rasterizer.FrameStats
}

// LanesRan says what Lanes each loop ran with when the balancer raised the
// requested value (software renderers), or "".
func (fr *Frame) LanesRan() string {
	if fr.Lanes == 0 {
		return ""
	}
	var parts []string
	for _, l := range []struct {
		name string
		st   *LoopRun
	}{{"scan", &fr.Scan}, {"z", &fr.Z}} {
		want := min(fr.Lanes, max(l.st.Processors, 1))
		if l.st.Processors > 0 && l.st.Lanes != want {
			parts = append(parts, fmt.Sprintf("%s %d", l.name, l.st.Lanes))
		}
	}
	return strings.Join(parts, ", ")
}

// frameAcc gathers the repetitions of one configuration.
type frameAcc struct {
	fr         Frame
	gpu, walls []time.Duration
	all        []rasterizer.FrameStats
}

func newFrameAcc(set int, v view.View, pol balancer.Policy, lanes int) *frameAcc {
	return &frameAcc{fr: Frame{Set: set, View: v, Policy: pol, Lanes: lanes}}
}

func (a *frameAcc) add(st rasterizer.FrameStats) {
	a.all = append(a.all, st)
	a.gpu = append(a.gpu, st.Total)
	a.walls = append(a.walls, st.Wall)
	a.fr.Scan.add(st.ScanConversion)
	a.fr.Z.add(st.ZBuffer)
	if st.ZBufferIDs.Processors > 0 {
		a.fr.IDs.add(st.ZBufferIDs)
		a.fr.Z.Passes = 2
	}
}

// result summarizes the repetitions: median and spread of the frame time,
// the stages of the median repetition.
func (a *frameAcc) result() Frame {
	fr := a.fr
	fr.Time = Summarize(slices.Clone(a.gpu), slices.Clone(a.walls))
	idx := make([]int, len(a.all))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(x, y int) bool { return a.gpu[idx[x]] < a.gpu[idx[y]] })
	m := a.all[idx[len(idx)/2]]
	fr.Stages = [4]time.Duration{m.SetupTime, m.ScanTime, m.ZBufferTime, m.ResolveTime}
	fr.Median = m
	fr.Pixels, fr.Spans, fr.Setup = m.Pixels, m.Spans, m.Setup
	return fr
}

// Measure renders a set at a view under each policy, warm+reps times,
// with the policies taking turns within each repetition so that a burst
// of load on the machine falls on all of them alike. After each policy's
// last repetition, its image is compared (ic may be nil).
func (e *Experiment) Measure(set int, v view.View, lanes int, policies []balancer.Policy, cost Costs, warm, reps int, ic *ImageCheck) ([]Frame, error) {
	accs := make([]*frameAcc, len(policies))
	for i, pol := range policies {
		accs[i] = newFrameAcc(set, v, pol, lanes)
	}
	for k := 0; k < warm+reps; k++ {
		for i, pol := range policies {
			if err := e.Configure(pol, lanes, cost); err != nil {
				return nil, err
			}
			st, err := e.Render(set, v)
			if err != nil {
				return nil, err
			}
			if k < warm {
				continue
			}
			accs[i].add(st)
			if k == warm+reps-1 && ic != nil {
				ic.Compare(e.Renderer.Pixels(), e.Renderer.Prims(), &accs[i].fr)
			}
		}
	}
	out := make([]Frame, len(policies))
	for i, a := range accs {
		out[i] = a.result()
	}
	return out, nil
}
