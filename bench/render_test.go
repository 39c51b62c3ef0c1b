package main

import (
	"bytes"
	"flag"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/bench/internal/experiment"
	"github.com/dpgl/dpgl/gpu/gputest"
)

// calibrateInto runs bench calibrate at two views into the file cal and
// checks what it saved.
func calibrateInto(t *testing.T, cal string) *balancer.Calibration {
	t.Helper()
	if err := run([]string{"calibrate", "-res", "20", "-width", "64", "-height", "64", "-views", "(0,0),(45,45)", "-lanes", "all", "-reps", "1", "-calibration", cal}, io.Discard); err != nil {
		t.Fatal(err)
	}
	c, err := balancer.LoadCalibration(cal)
	if err != nil {
		t.Fatal(err)
	}
	renderer := gputest.Context(t).Caps().Renderer
	for _, loop := range experiment.LoopNames {
		lc, err := c.Lookup(renderer, loop)
		if err != nil {
			t.Fatal(err)
		}
		// One run a view, each the median of one repetition.
		if lc.CostIterations <= lc.Margin || lc.Runs != 2 || lc.MinSolveNs <= 0 || lc.MaxGatherNs <= 0 || lc.LongestRun == 0 || lc.Date == "" {
			t.Fatalf("%s: implausible calibration %+v", loop, lc)
		}
	}
	return c
}

// TestRenderAndCalibrate calibrates into a file, then renders with the
// costs from it: every policy draws the same image, and the GL pipeline
// the same primitive ids at nearly every covered pixel.
func TestRenderAndCalibrate(t *testing.T) {
	gputest.Context(t)
	dir := t.TempDir()
	cal := filepath.Join(dir, "cal.json")
	c := calibrateInto(t, cal)
	renderer := gputest.Context(t).Caps().Renderer

	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	f := addExpFlags(fs, "render", renderDefaults)
	if err := parseExp(fs, f, []string{"-res", "20", "-width", "64", "-height", "64", "-views", "M(0,0)", "-lanes", "all", "-reps", "1", "-warmup", "0", "-calibration", cal}); err != nil {
		t.Fatal(err)
	}
	r, err := renderExperiment(f, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for i, lc := range r.Costs {
		if want, _ := c.Lookup(renderer, experiment.LoopNames[i]); lc.Source != "file" || lc.Cost != want.CostIterations {
			t.Fatalf("render's cost %d: %+v, want %v from the file", i, lc, want.CostIterations)
		}
	}
	if len(r.Views) != 2 {
		t.Fatalf("%d sets and views, want 2", len(r.Views))
	}
	for _, rv := range r.Views {
		if len(rv.Frames) != 1 || len(rv.Frames[0]) != 3 {
			t.Fatalf("%s set: %d Lanes values, want 1 with 3 policies", setNames[rv.Set], len(rv.Frames))
		}
		for _, fr := range rv.Frames[0] {
			if !fr.Same || !fr.Captured || fr.Time.Median <= 0 || fr.Scan.Iterations < 1 || fr.Z.Iterations < 1 {
				t.Fatalf("%s set, %v: %+v", setNames[rv.Set], fr.Policy, fr)
			}
		}
		// The tiled path, the fastest configuration, drew the loops' image.
		if tf := rv.Tiled; !tf.Same || !tf.Captured || tf.Time.Reps != 1 || tf.Time.Median <= 0 || tf.Setup != rv.Frames[0][0].Setup {
			t.Fatalf("%s set, tiled: %+v", setNames[rv.Set], tf)
		}
		if rv.HW.Agree < 0.99 || rv.HW.Time.Reps != 1 {
			t.Fatalf("%s set: primitive ids agree with the GL pipeline on %.2f%% of covered pixels, want >= 99%%", setNames[rv.Set], 100*rv.HW.Agree)
		}
	}
	out := filepath.Join(dir, "img")
	if err := writeImages(out, f.viewList, r.Images.Pixels, r.Width, r.Height, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"image-unbalanced-M0-0.png", "image-balanced-M0-0.png"} {
		file, err := os.Open(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(file)
		file.Close()
		if err != nil || img.Bounds().Dx() != 64 {
			t.Fatalf("%s: %v", name, err)
		}
	}

	// Run-time failures name the flag and value.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"paper", "-res", "16", "-iso", "50", "-out", "", "-calibration", cal}, `invalid value "50" for flag -iso: the surface of perforator 16^3 is empty there`},
		{[]string{"render", "-volume", filepath.Join(dir, "none.nii.gz"), "-calibration", cal}, `invalid value "` + filepath.Join(dir, "none.nii.gz") + `" for flag -volume: no such file`},
	} {
		if err := run(c.args, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want an error containing %q", c.args, err, c.want)
		}
	}
}

func TestExperimentFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"paper", "-views", "(1,1,1)"}, `invalid value "(1,1,1)" for flag -views: view: no view "(1,1,1)": want two angles`},
		{[]string{"paper", "-views", "(0,0),(0,0)"}, `invalid value "(0,0),(0,0)" for flag -views: view: view (0,0) given twice`},
		{[]string{"render", "-views", "M(45,45"}, `invalid value "M(45,45" for flag -views: view: "M(45,45": a '(' without its ')'`},
		{[]string{"paper", "-lanes", "64,x"}, `invalid value "64,x" for flag -lanes: "x" is neither`},
		{[]string{"paper", "-lanes", "0"}, `"0" is neither`},
		{[]string{"paper", "-policies", "Never,Bounded"}, `invalid value "Never,Bounded" for flag -policies: the experiment compares Never (OR) with CostEffective (LB)`},
		{[]string{"render", "-policies", "Never,Sometimes"}, `unknown policy "Sometimes"`},
		{[]string{"paper", "-res", "1"}, `invalid value "1" for flag -res: want a grid`},
		{[]string{"paper", "-res", "0"}, `invalid value "0" for flag -res: want a grid`},
		{[]string{"paper", "-res", "-3"}, `invalid value "-3" for flag -res: want an integer, 0 or more`},
		{[]string{"calibrate", "-width", "0"}, `invalid value "0" for flag -width: want an integer in 1..`},
		{[]string{"paper", "-height", "100000"}, `invalid value "100000" for flag -height`},
		{[]string{"paper", "-reps", "0"}, `invalid value "0" for flag -reps: want an integer in 1..`},
		{[]string{"paper", "-warmup", "-1"}, `invalid value "-1" for flag -warmup`},
		{[]string{"paper", "-reduction", "0"}, `invalid value "0" for flag -reduction`},
		{[]string{"paper", "-field", "cube"}, `invalid value "cube" for flag -field: no such built-in field`},
		{[]string{"paper", "-field", "sphere", "-volume", "x.nii"}, "-volume and -field exclude each other"},
		{[]string{"paper", "-margin", "-2"}, `invalid value "-2" for flag -margin`},
		{[]string{"paper", "-margin", "Inf"}, `invalid value "Inf" for flag -margin`},
		{[]string{"render", "-iso", "NaN"}, `invalid value "NaN" for flag -iso: want a finite number`},
		{[]string{"render", "-iso", "1e39"}, `invalid value "1e39" for flag -iso: want a finite number within`},
		{[]string{"render", "-iso", "-inf"}, `invalid value "-inf" for flag -iso`},
		{[]string{"render", "-iso", "1e400"}, `invalid value "1e400" for flag -iso: out of range`},
		{[]string{"render", "-width", "9223372036854775808"}, `invalid value "9223372036854775808" for flag -width`},
		{[]string{"render", "-mesh", "a.ply", "-volume", "b.nii"}, "-mesh and -volume exclude each other"},
		{[]string{"render", "-mesh", "a.ply", "-iso", "3"}, "-mesh and -iso exclude each other"},
		{[]string{"render", "-calibration", ""}, `invalid value "" for flag -calibration`},
		{[]string{"paper", "extra"}, `unexpected argument "extra"`},
		{[]string{"render", "-bogus"}, "flag provided but not defined: -bogus"},
	} {
		var buf bytes.Buffer
		err := run(c.args, &buf)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want an error containing %q", c.args, err, c.want)
		}
	}
}

func TestParseLanes(t *testing.T) {
	if ls, err := parseLanes("512, all,8192"); err != nil || len(ls) != 3 || ls[0] != 512 || ls[1] != 0 || ls[2] != 8192 {
		t.Fatalf("parseLanes: %v %v", ls, err)
	}
	if slug("M(45,45)") != "M45-45" || slug("(0,0)") != "0-0" {
		t.Fatal("slug")
	}
}
