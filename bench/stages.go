package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/rasterizer"
)

// stageColumn is one column of the breakdown: a share of the frame's GPU
// time.
type stageColumn struct {
	name string
	of   func(st *rasterizer.FrameStats) time.Duration
}

func stage(s rasterizer.Stage) func(*rasterizer.FrameStats) time.Duration {
	return func(st *rasterizer.FrameStats) time.Duration { return st.Stages[s] }
}

// balancing is a loop's time outside its solution phase: counting,
// gathering, redistributing, and a strategy's scheduling.
func balancing(l func(*rasterizer.FrameStats) *balancer.Stats) func(*rasterizer.FrameStats) time.Duration {
	return func(st *rasterizer.FrameStats) time.Duration {
		s := l(st)
		return s.Count.Total + s.Gather.Total + s.Redistribute.Total + s.Schedule.Total
	}
}

func solving(l func(*rasterizer.FrameStats) *balancer.Stats) func(*rasterizer.FrameStats) time.Duration {
	return func(st *rasterizer.FrameStats) time.Duration { return l(st).Solve.Total }
}

var (
	scanStats = func(st *rasterizer.FrameStats) *balancer.Stats { return &st.ScanConversion }
	zStats    = func(st *rasterizer.FrameStats) *balancer.Stats { return &st.ZBuffer }
)

var stageColumns = []stageColumn{
	{"xform+clip", stage(rasterizer.StageTransformClip)},
	{"setup", stage(rasterizer.StageSetup)},
	{"scan prep", stage(rasterizer.StageScanPrepare)},
	{"scan loop", stage(rasterizer.StageScanLoop)},
	{"(balance", balancing(scanStats)},
	{"solve)", solving(scanStats)},
	{"z prep", stage(rasterizer.StageZPrepare)},
	{"z loop", stage(rasterizer.StageZLoop)},
	{"(balance", balancing(zStats)},
	{"solve)", solving(zStats)},
	{"merge", stage(rasterizer.StageMerge)},
	{"id pass", stage(rasterizer.StageIDPass)},
	{"extract", stage(rasterizer.StageExtract)},
	{"resolve", stage(rasterizer.StageResolve)},
}

// writeStageBreakdown prints, per set, view, Lanes value and policy, each
// stage's share of the median frame's GPU time (a loop's balancing and
// solution phases, from its phase timestamps, beside the loop's own share),
// the frame's GPU time, and in host time the rest of Render (what the GPU
// timestamps do not cover) and the image's read-back. Stages that no frame
// ran are left out.
func writeStageBreakdown(w io.Writer, run *renderRun) {
	cells := stageTable(run)
	if cells == nil {
		return
	}
	header := cells[0]
	width := make([]int, len(header))
	for _, l := range cells {
		for i, c := range l {
			width[i] = max(width[i], len(c))
		}
	}
	fmt.Fprintln(w, "where the frame's time goes: each stage's share of the GPU time (timestamps), the median frame")
	for _, l := range cells {
		var b strings.Builder
		for i, c := range l {
			if i > 0 {
				b.WriteString("  ")
			}
			if i < 4 {
				fmt.Fprintf(&b, "%-*s", width[i], c)
			} else {
				fmt.Fprintf(&b, "%*s", width[i], c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	fmt.Fprintln(w, "  (balance solve): the loop's count, gather and redistribute phases, and its solution phase; host ms: Render's wall time\n"+
		"  beyond its GPU time (host work and waits the timestamps do not cover); read-back: Renderer.Pixels")
}

// stageTable is writeStageBreakdown's table, the header first; nil
// without frames.
func stageTable(run *renderRun) [][]string {
	type row struct {
		label    []string
		st       *rasterizer.FrameStats
		readBack time.Duration
	}
	var rows []row
	for _, rv := range run.Views {
		for _, frs := range rv.Frames {
			for i := range frs {
				fr := &frs[i]
				rows = append(rows, row{[]string{setNames[rv.Set], rv.View.Name, policyLabel(fr.Policy), lanesLabel(fr.Lanes)}, &fr.Median, rv.ReadBack})
			}
		}
	}
	if len(rows) == 0 {
		return nil
	}
	var cols []stageColumn
	for _, c := range stageColumns {
		for _, r := range rows {
			if c.of(r.st) > 0 {
				cols = append(cols, c)
				break
			}
		}
	}
	header := []string{"set", "view", "renderer", "lanes", "GPU ms"}
	for _, c := range cols {
		header = append(header, c.name)
	}
	header = append(header, "host ms", "read-back ms")
	cells := [][]string{header}
	for _, r := range rows {
		total := r.st.Total
		line := append(append([]string{}, r.label...), fmtMs(total))
		for _, c := range cols {
			line = append(line, percentOf(c.of(r.st), total))
		}
		cells = append(cells, append(line, fmtMs(max(r.st.Wall-total, 0)), fmtMs(r.readBack)))
	}
	return cells
}

// percentOf is d as a percentage of total.
func percentOf(d, total time.Duration) string {
	if total <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(d)/float64(total))
}

// timeReadBack is the host's time to read r's image back.
func timeReadBack(r *rasterizer.Renderer) time.Duration {
	start := time.Now()
	r.Pixels()
	return time.Since(start)
}
