package main

import (
	"slices"
	"testing"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/bench/internal/experiment"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/view"
)

// TestStageTable: each stage's share of a constructed frame, the loops'
// balancing and solution phases beside them, and no column for a stage
// that no frame ran.
func TestStageTable(t *testing.T) {
	ms := time.Millisecond
	var st rasterizer.FrameStats
	st.Stages[rasterizer.StageTransformClip] = 10 * ms
	st.Stages[rasterizer.StageSetup] = 10 * ms
	st.Stages[rasterizer.StageScanLoop] = 30 * ms
	st.Stages[rasterizer.StageZLoop] = 40 * ms
	st.Stages[rasterizer.StageResolve] = 10 * ms
	st.Total, st.Wall = 100*ms, 103*ms
	st.ScanConversion.Solve.Total = 20 * ms
	st.ScanConversion.Gather.Total = 6 * ms
	st.ScanConversion.Redistribute.Total = 4 * ms
	st.ZBuffer.Solve.Total = 40 * ms
	run := &renderRun{Views: []renderView{{Set: 1, View: view.Paper()[0], ReadBack: 2 * ms,
		Frames: [][]experiment.Frame{{{Policy: balancer.CostEffective, Median: st}}}}}}
	got := stageTable(run)
	want := [][]string{
		{"set", "view", "renderer", "lanes", "GPU ms", "xform+clip", "setup", "scan loop", "(balance", "solve)", "z loop", "solve)", "resolve", "host ms", "read-back ms"},
		{setNames[1], "(0,0)", "LB", "all", "100", "10%", "10%", "30%", "10%", "20%", "40%", "40%", "10%", "3.00", "2.00"},
	}
	if len(got) != len(want) {
		t.Fatalf("table %q, want %q", got, want)
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("row %d: %q, want %q", i, got[i], want[i])
		}
	}
	if stageTable(&renderRun{}) != nil {
		t.Error("a table without frames")
	}
}
