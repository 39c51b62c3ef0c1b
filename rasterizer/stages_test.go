package rasterizer

import (
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
)

// TestStageTimes renders a frame on each visibility path and checks the
// stage breakdown: the stages of other paths took no time, the frame's
// times are the sums of its stages', and the frame took some.
func TestStageTimes(t *testing.T) {
	c := gputest.Context(t)
	const w, h = 64, 48
	m := uploadSoup(t, c, sphereSoup(10, 20))
	cam := testViewCamera(w, h)
	for _, r := range visibilityRenderers(t, c) {
		o := r.Options()
		o.Width, o.Height = w, h
		if err := r.SetOptions(o); err != nil {
			t.Fatal(err)
		}
		for _, batch := range []int{0, 50} {
			r.batchTriangles = batch
			st, err := r.Render(m, cam)
			if err != nil {
				t.Fatal(err)
			}
			notRun := map[Stage]bool{StageMerge: r.vis64 && !r.emulate, StageIDPass: true, StageExtract: !r.vis64}
			for s, d := range st.Stages {
				if notRun[Stage(s)] && d != 0 {
					t.Errorf("%s, batches %d: stage %v took %v, but this path does not run it", st.Visibility, st.Batches, Stage(s), d)
				}
			}
			sum := st.Stages
			if st.Total != sum.Sum() || st.Total <= 0 ||
				st.SetupTime != sum[StageTransformClip]+sum[StageSetup] ||
				st.ScanTime != sum[StageScanPrepare]+sum[StageScanLoop] ||
				st.ZBufferTime != sum[StageZPrepare]+sum[StageZLoop]+sum[StageMerge]+sum[StageIDPass]+sum[StageExtract] ||
				st.ResolveTime != sum[StageResolve] {
				t.Errorf("%s, batches %d: times %v %v %v %v total %v do not add up the stages %v", st.Visibility, st.Batches, st.SetupTime, st.ScanTime, st.ZBufferTime, st.ResolveTime, st.Total, sum)
			}
			if batch > 0 && st.Batches < 2 {
				t.Errorf("batches of %d triangles: %d batch", batch, st.Batches)
			}
		}
	}
	for s := Stage(-1); s <= NumStages; s++ {
		if s.String() == "" {
			t.Errorf("stage %d has no name", int(s))
		}
	}
}
