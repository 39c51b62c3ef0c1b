package rasterizer

import (
	"fmt"
	"testing"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer/dataset"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
	"github.com/dpgl/dpgl/scan"
)

// BenchmarkFrameStages renders the default field's balanced set at the
// paper's (0,0) view and its unbalanced set at M(45,45), 256x256, under
// CostEffective at a cost of 16 iterations (about llvmpipe's calibrated
// costs), on each visibility path this driver can run, and reports each
// stage's GPU time per frame (ns/op is the host's time for Render).
func BenchmarkFrameStages(b *testing.B) {
	c := gputest.Context(b)
	s := newScanner(b, c)
	pair := dataset.FromField(volume.Default(), 64, dataset.DefaultReduction)
	for _, set := range []struct {
		name string
		m    *mesh.Mesh
		v    view.View
	}{{"balanced-0-0", pair.Balanced, view.Paper()[0]}, {"unbalanced-M45-45", pair.Unbalanced, view.Paper()[3]}} {
		g, err := mesh.Upload(c, set.m)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(set.name, func(b *testing.B) { benchmarkVisibilityPaths(b, s, g, pair.Camera(set.v, 256, 256)) })
		g.Delete()
	}
}

func benchmarkVisibilityPaths(b *testing.B, s *scan.Scanner, g *mesh.GPU, cam view.Camera) {
	c := s.Context()
	const w, h = 256, 256
	forVisibilityPaths(b, c, func(vis32 bool, test testOptions) {
		path := visibilityPathName(c, vis32)
		o := DefaultOptions()
		o.Width, o.Height, o.Visibility32 = w, h, vis32
		o.ScanConversion = quiet(balancer.Config{Policy: balancer.CostEffective, CostIterations: 16})
		o.ZBuffer = quiet(balancer.Config{Policy: balancer.CostEffective, CostIterations: 16})
		rd, err := newRenderer(s, o, test)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(path, func(b *testing.B) { benchStages(b, rd, g, cam) })
		rd.Delete()
	})
}

// stageKey is a stage's name as a benchmark metric unit (no spaces).
func stageKey(s Stage) string {
	k := []byte(s.String())
	for i, c := range k {
		if c == ' ' || c == '+' {
			k[i] = '-'
		}
	}
	return string(k)
}

// benchStages renders g from cam b.N times after one untimed frame (which
// compiles the kernels) and reports each stage's mean GPU time and their
// sum, in ms, as the benchmark's metrics.
func benchStages(b *testing.B, rd *Renderer, g *mesh.GPU, cam view.Camera) {
	if _, err := rd.Render(g, cam); err != nil {
		b.Fatal(err)
	}
	var sum StageTimes
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st, err := rd.Render(g, cam)
		if err != nil {
			b.Fatal(err)
		}
		for s, d := range st.Stages {
			sum[s] += d
		}
	}
	for s, d := range sum {
		if d > 0 {
			b.ReportMetric(float64(d)/float64(b.N)/float64(time.Millisecond), fmt.Sprintf("ms-%s", stageKey(Stage(s))))
		}
	}
	b.ReportMetric(float64(sum.Sum())/float64(b.N)/float64(time.Millisecond), "ms-gpu")
}
