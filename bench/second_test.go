package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/bench/internal/experiment"
	"github.com/dpgl/dpgl/gpu/gputest"
)

// The second experiment's report from a reduced run of bench paper: three
// sets of the kinds and classes the paper had, every frame's speedup over
// OR from the frame times, the summary's ranges from the frames, the same
// image under every policy; and -second=false leaves it out.
func TestPaperSecondExperiment(t *testing.T) {
	gputest.Context(t)
	dir := t.TempDir()
	out, cal := filepath.Join(dir, "results"), filepath.Join(dir, "cal.json")
	views, lanes := 2, 2
	args := []string{"paper", "-res", "20", "-width", "64", "-height", "48", "-views", "(0,0),M(0,0)", "-lanes", "64,all",
		"-reps", "1", "-warmup", "0", "-out", out, "-calibration", cal}
	var buf bytes.Buffer
	if err := run(args, &buf); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	data, err := os.ReadFile(filepath.Join(out, "second.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r experiment.SecondReport
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if r.Resolution != 20 || r.Reps != 1 || r.Warmup != 0 || r.Paper != (experiment.SecondPaper{SpeedupMin: 4, SpeedupMax: 33, WorstLoss: 0.25}) || r.Costs[0] <= 0 || r.Costs[1] <= 0 {
		t.Fatalf("report header: resolution %d, paper %+v, costs %v", r.Resolution, r.Paper, r.Costs)
	}
	class := map[string]string{}
	kinds := map[string]int{}
	for _, s := range r.Sets {
		class[s.Name] = s.Class
		kinds[s.Kind]++
		if s.Triangles == 0 {
			t.Fatalf("set %s has no triangles", s.Name)
		}
	}
	want := map[string]string{"taylor-green-speed": "unbalanced", "taylor-green-vorticity": "balanced", "particles": "balanced"}
	if len(class) != 3 || kinds["fluid dynamics"] != 2 || kinds["particle interaction"] != 1 {
		t.Fatalf("sets %+v", r.Sets)
	}
	for n, c := range want {
		if class[n] != c {
			t.Fatalf("set %s is %q, want %q", n, class[n], c)
		}
	}
	policies := 3 // the default Never, CostEffective, Bounded
	if len(r.Frames) != 3*views*lanes*policies {
		t.Fatalf("%d frames, want %d", len(r.Frames), 3*views*lanes*policies)
	}
	or := map[[3]string]experiment.SecondFrame{}
	for _, fr := range r.Frames {
		if fr.Renderer == "OR" {
			or[[3]string{fr.Set, fr.View, fr.Lanes}] = fr
		}
	}
	for _, fr := range r.Frames {
		o, ok := or[[3]string{fr.Set, fr.View, fr.Lanes}]
		if !ok || fr.GPUMs <= 0 || !fr.Same || fr.Class != class[fr.Set] || fr.ScanMax == 0 || fr.ZMax == 0 {
			t.Fatalf("frame %+v (OR's found: %v)", fr, ok)
		}
		if x := o.GPUMs / fr.GPUMs; math.Abs(fr.SpeedupOR-x) > 1e-6*x {
			t.Fatalf("frame %+v: speedup %v, OR's time over its own %v", fr, fr.SpeedupOR, x)
		}
		if fr.ScanMax != o.ScanMax || fr.ZMax != o.ZMax || (fr.Renderer == "OR" && fr.Balances != [2]int{}) {
			t.Fatalf("frame %+v: workloads differ from OR's %+v, or OR balanced", fr, o)
		}
	}
	if !r.Images.Identical || r.Images.Compared != len(r.Frames) || r.Images.Images != 3*views {
		t.Fatalf("images %+v", r.Images)
	}
	checkSecondSummary(t, &r, []balancer.Policy{balancer.CostEffective, balancer.Bounded})
	if len(r.CostCheck) != 2*len(r.Sets) {
		t.Fatalf("%d cost values, want one per set and loop", len(r.CostCheck))
	}
	for i, c := range r.CostCheck {
		if c.Set != r.Sets[i/2].Name || c.Loop != experiment.LoopNames[i%2] || c.Overestimate != r.Costs[i%2] ||
			c.Over > c.Datasets || c.Datasets > views*lanes*2 || (c.Datasets > 0) != (c.Cost > 0) || (c.Over > 0) != (c.Cost > c.Overestimate) {
			t.Fatalf("cost %+v", c)
		}
	}

	// Without the second experiment: no report.
	out2 := filepath.Join(dir, "results2")
	args = append(args[:len(args)-4], "-out", out2, "-calibration", cal, "-second=false")
	buf.Reset()
	if err := run(args, &buf); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if _, err := os.Stat(filepath.Join(out2, "second.json")); !os.IsNotExist(err) {
		t.Fatalf("-second=false wrote second.json (%v)", err)
	}
}

// checkSecondSummary recomputes each policy's ranges from the frames.
func checkSecondSummary(t *testing.T, r *experiment.SecondReport, policies []balancer.Policy) {
	t.Helper()
	if len(r.Summary) != len(policies) {
		t.Fatalf("summary %+v, want one per policy of %v", r.Summary, policies)
	}
	for _, pol := range policies {
		s, ok := r.Result(policyLabel(pol))
		if !ok {
			t.Fatalf("no summary for %v", pol)
		}
		sp, loss := span{}, span{}
		for _, fr := range r.Frames {
			if fr.Renderer != s.Renderer {
				continue
			}
			at := fr.Set + ", " + fr.View + ", lanes " + fr.Lanes
			if fr.Class == "unbalanced" {
				sp.add(fr.SpeedupOR, at)
			} else {
				loss.add(1/fr.SpeedupOR-1, at)
			}
		}
		if s.Speedup != sp.RatioRange || s.Loss != loss.RatioRange {
			t.Fatalf("%v: summary %+v; from the frames: speedup %+v, loss %+v", pol, s, sp, loss)
		}
	}
}

// span is a range recomputed by the test, as RatioRange holds one.
type span struct {
	experiment.RatioRange
	n int
}

func (s *span) add(x float64, at string) {
	if s.n == 0 || x < s.Min {
		s.Min, s.MinAt = x, at
	}
	if s.n == 0 || x > s.Max {
		s.Max, s.MaxAt = x, at
	}
	s.n++
}
