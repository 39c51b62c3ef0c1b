package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu/gputest"
)

// readCSV parses a results CSV into records keyed by the header.
func readCSV(t *testing.T, path string) []map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(recs) < 2 {
		t.Fatalf("%s: no rows", path)
	}
	var out []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = r[i]
		}
		out = append(out, m)
	}
	return out
}

func num(t *testing.T, rec map[string]string, key string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(rec[key], 64)
	if err != nil {
		t.Fatalf("column %s: %q is not a number (%v)", key, rec[key], err)
	}
	return v
}

// TestPaperReduced runs a reduced experiment (a tiny dataset and image, two
// views, one Lanes value, one repetition) and checks that every output is
// produced and consistent: the tables parse, the images decode, the JSON
// agrees with the CSV, every policy drew the same image, and the counts obey
// what the policies promise.
func TestPaperReduced(t *testing.T) {
	gputest.Context(t)
	dir := t.TempDir()
	out, cal := filepath.Join(dir, "results"), filepath.Join(dir, "cal.json")
	args := []string{"paper", "-res", "20", "-width", "64", "-height", "48", "-views", "(0,0),M(45,45)", "-lanes", "all",
		"-reps", "1", "-warmup", "0", "-out", out, "-calibration", cal}
	var buf bytes.Buffer
	if err := run(args, &buf); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	s := buf.String()
	for _, want := range []string{"Table 1:", "Table 2: rendering the unbalanced set", "Table 3: rendering the balanced set", "Table 4:",
		"Cost overestimates", "The paper's headline figures and ours", "8-33x", "27%",
		"every policy and Lanes value drew the same image and primitive ids", "costs calibrated now", "LB did not balance the balanced set"} {
		if !strings.Contains(s, want) && !(want == "LB did not balance the balanced set" && strings.Contains(s, "LB balanced the balanced set in")) {
			t.Fatalf("output lacks %q:\n%s", want, s)
		}
	}

	// The images, one per set and view, and the plots decode.
	for _, name := range []string{"image-unbalanced-0-0.png", "image-unbalanced-M45-45.png", "image-balanced-0-0.png", "image-balanced-M45-45.png",
		"plot-time-vs-lanes-unbalanced.png", "plot-time-vs-lanes-balanced.png", "plot-phase-times.png"} {
		f, err := os.Open(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b := img.Bounds(); strings.HasPrefix(name, "image-") && (b.Dx() != 64 || b.Dy() != 48) {
			t.Fatalf("%s is %v, want 64x48", name, b)
		}
	}

	// Table 1: both sets at both views, max >= avg.
	t1 := readCSV(t, filepath.Join(out, "table1.csv"))
	if len(t1) != 4 {
		t.Fatalf("table1.csv has %d rows, want 4", len(t1))
	}
	for _, r := range t1 {
		if num(t, r, "scan_max") < num(t, r, "scan_avg") || num(t, r, "zbuffer_max") < num(t, r, "zbuffer_avg") || num(t, r, "scan_max") < 1 {
			t.Fatalf("table1.csv: implausible workloads %v", r)
		}
	}

	// Tables 2 and 3: one row per view and policy.
	var js paperReport
	data, err := os.ReadFile(filepath.Join(out, "paper.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &js); err != nil {
		t.Fatalf("paper.json: %v", err)
	}
	jsFrames := map[string]frameJSON{}
	for _, fr := range js.Frames {
		jsFrames[fr.Set+fr.View+fr.Policy] = fr
	}
	for i, name := range []string{"table2.csv", "table3.csv"} {
		rows := readCSV(t, filepath.Join(out, name))
		if len(rows) != 6 {
			t.Fatalf("%s has %d rows, want 2 views x 3 policies", name, len(rows))
		}
		byPolicy := map[string]map[string]map[string]string{}
		for _, r := range rows {
			if r["set"] != setNames[i] || r["lanes"] != "all" || r["same_image"] != "true" {
				t.Fatalf("%s: row %v", name, r)
			}
			if num(t, r, "gpu_ms_median") <= 0 || num(t, r, "wall_ms_median") <= 0 || num(t, r, "reps") != 1 {
				t.Fatalf("%s: no timing in %v", name, r)
			}
			fj, ok := jsFrames[r["set"]+r["view"]+r["policy"]]
			if !ok || strconv.FormatFloat(fj.GPUMs, 'g', 6, 64) != r["gpu_ms_median"] || strconv.Itoa(fj.Scan.Iterations) != r["scan_iterations"] {
				t.Fatalf("%s row %v disagrees with paper.json %+v", name, r, fj)
			}
			if byPolicy[r["view"]] == nil {
				byPolicy[r["view"]] = map[string]map[string]string{}
			}
			byPolicy[r["view"]][r["policy"]] = r
		}
		for v, pol := range byPolicy {
			or, lb, bd := pol["Never"], pol["CostEffective"], pol["Bounded"]
			if or == nil || lb == nil || bd == nil {
				t.Fatalf("%s at %s lacks a policy: %v", name, v, pol)
			}
			if or["speedup_over_or"] != "1" || or["scan_balances"] != "0" || or["scan_gathers"] != "0" || or["zbuffer_balances"] != "0" {
				t.Fatalf("%s: OR balanced or gathered at %s: %v", name, v, or)
			}
			// Bounded makes exactly CostEffective's decisions.
			for _, k := range []string{"scan_iterations", "scan_balances", "zbuffer_iterations", "zbuffer_balances"} {
				if lb[k] != bd[k] {
					t.Fatalf("%s at %s: %s is %s for LB, %s for Bounded", name, v, k, lb[k], bd[k])
				}
			}
			// Balancing only ever shortens a loop.
			for _, loop := range []string{"scan", "zbuffer"} {
				if num(t, lb, loop+"_iterations") > num(t, or, loop+"_iterations") {
					t.Fatalf("%s at %s: LB ran %s iterations of %s, OR %s", name, v, lb[loop+"_iterations"], loop, or[loop+"_iterations"])
				}
				if num(t, lb, loop+"_balances") > 0 && num(t, lb, loop+"_iterations") == num(t, or, loop+"_iterations") {
					t.Fatalf("%s at %s: LB balanced %s without saving an iteration", name, v, loop)
				}
			}
		}
	}

	// Table 4 and the costs.
	t4 := readCSV(t, filepath.Join(out, "table4.csv"))
	if len(t4) != 6 {
		t.Fatalf("table4.csv has %d rows, want 2 loops x 3 phases", len(t4))
	}
	for _, r := range t4 {
		if n := num(t, r, "n"); n > 0 && !(num(t, r, "min_ms") <= num(t, r, "avg_ms") && num(t, r, "avg_ms") <= num(t, r, "max_ms")) {
			t.Fatalf("table4.csv: min <= avg <= max fails: %v", r)
		}
	}
	costsCSV := readCSV(t, filepath.Join(out, "costs.csv"))
	if len(costsCSV) != 2 || num(t, costsCSV[0], "cost_iterations") <= 0 || costsCSV[1]["paper_cost"] != "32" {
		t.Fatalf("costs.csv: %v", costsCSV)
	}
	md, err := os.ReadFile(filepath.Join(out, "paper.md"))
	if err != nil || !bytes.Contains(md, []byte("### Table 2: rendering the unbalanced set")) || !bytes.Contains(md, []byte("| :--- |")) {
		t.Fatalf("paper.md: %v\n%s", err, md)
	}

	if !js.Images.Identical || js.Images.Compared != 12 || js.Images.Images != 4 || js.Meta.Renderer == "" || js.Meta.Date == "" ||
		js.Params.Width != 64 || js.Params.Views[1] != "M(45,45)" || len(js.Frames) != 12 || len(js.Files) != 14 {
		t.Fatalf("paper.json: images %+v, meta %+v, params %+v, %d frames, files %v", js.Images, js.Meta, js.Params, len(js.Frames), js.Files)
	}
	for _, cc := range js.CostCheck {
		if cc.Exceeded != (cc.Over > 0) || cc.Over > cc.Gathered {
			t.Fatalf("paper.json: inconsistent cost check %+v", cc)
		}
	}

	// The calibration was saved; a second run reads it.
	c, err := balancer.LoadCalibration(cal)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Lookup(js.Meta.Renderer, "scan conversion"); err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	args[len(args)-3] = "" // -out ""
	if err := run(args, &buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "costs from "+cal) || strings.Contains(buf.String(), "wrote") {
		t.Fatalf("the second run did not read the calibration, or wrote files:\n%s", buf.String())
	}
}

func TestRenderAndCalibrate(t *testing.T) {
	gputest.Context(t)
	dir := t.TempDir()
	cal := filepath.Join(dir, "cal.json")
	var buf bytes.Buffer
	if err := run([]string{"calibrate", "-res", "20", "-width", "64", "-height", "64", "-views", "(0,0),(45,45)", "-lanes", "all", "-reps", "1", "-calibration", cal}, &buf); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	// The calibration's numbers: cost, the paper's, the phases, the runs
	// (one a view) and the longest run.
	if !regexp.MustCompile(`(?m)^scan conversion\s+[\d.]+\s+20\s+[\d.]+ [mu]?s\s+[\d.]+ [mu]?s\s+[\d.]+ [mu]?s\s+2\s+\d+$`).MatchString(buf.String()) ||
		!strings.Contains(buf.String(), "saved under") || !strings.Contains(buf.String(), "after 1 warm-up frames") {
		t.Fatalf("calibrate output:\n%s", buf.String())
	}
	c, err := balancer.LoadCalibration(cal)
	if err != nil {
		t.Fatal(err)
	}
	renderer := gputest.Context(t).Caps().Renderer
	for _, loop := range loopNames {
		lc, err := c.Lookup(renderer, loop)
		if err != nil {
			t.Fatalf("%v\n%s", err, buf.String())
		}
		if lc.CostIterations <= lc.Margin || lc.Runs < 1 || lc.MinSolveNs <= 0 {
			t.Fatalf("%s: implausible calibration %+v", loop, lc)
		}
	}

	buf.Reset()
	out := filepath.Join(dir, "img")
	if err := run([]string{"render", "-res", "20", "-width", "64", "-height", "64", "-views", "M(0,0)", "-lanes", "all", "-reps", "1", "-warmup", "0",
		"-calibration", cal, "-out", out}, &buf); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	s := buf.String()
	if !strings.Contains(s, "costs from "+cal) || !strings.Contains(s, "every policy and Lanes value drew the same image") {
		t.Fatalf("render output:\n%s", s)
	}
	// A row per policy and the GL pipeline's, per set.
	for _, r := range []string{"OR", "LB", "Bounded"} {
		if n := len(regexp.MustCompile(`(?m)^.{0,30}\s`+r+`\s+all\s+[\d.]+\s+[\d.]+\s+\d+%\s+\d+\s+\d+\s+\d+\s+\d+\s*$`).FindAllString(s, -1)); n != 2 {
			t.Fatalf("%d rows for %s, want 2:\n%s", n, r, s)
		}
	}
	agree := regexp.MustCompile(`GL pipeline\s+[\d.]+\s+[\d.]+\s+\d+%\s+([\d.]+)%`).FindAllStringSubmatch(s, -1)
	if len(agree) != 2 {
		t.Fatalf("no GL pipeline rows:\n%s", s)
	}
	for _, a := range agree {
		if v, _ := strconv.ParseFloat(a[1], 64); v < 99 {
			t.Fatalf("primitive ids agree with the GL pipeline on %s%% of covered pixels, want >= 99%%:\n%s", a[1], s)
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
	for _, name := range []string{"image-unbalanced-M0-0.png", "image-balanced-M0-0.png"} {
		f, err := os.Open(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(f); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		f.Close()
	}
}

func TestExperimentFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"paper", "-views", "(1,1)"}, `invalid value "(1,1)" for flag -views: no view "(1,1)"`},
		{[]string{"paper", "-views", "(0,0),(0,0)"}, "given twice"},
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

func TestParseViewsAndLanes(t *testing.T) {
	vs, err := parseViews(" (0,0), M(45, 45),M(0,0)")
	if err != nil || len(vs) != 3 || vs[0].Name != "(0,0)" || vs[1].Name != "M(45,45)" || vs[2].Magnification != 3 {
		t.Fatalf("parseViews: %v %v", vs, err)
	}
	if vs, err := parseViews("all"); err != nil || len(vs) != 4 {
		t.Fatalf("parseViews(all): %v %v", vs, err)
	}
	if ls, err := parseLanes("512, all,8192"); err != nil || len(ls) != 3 || ls[0] != 512 || ls[1] != 0 || ls[2] != 8192 {
		t.Fatalf("parseLanes: %v %v", ls, err)
	}
	if slug("M(45,45)") != "M45-45" || slug("(0,0)") != "0-0" {
		t.Fatal("slug")
	}
	if countDiffer([]uint32{1, 2, 3}, []uint32{4, 5, 6}, []uint32{1, 2, 9}, []uint32{4, 0, 6}) != 2 {
		t.Fatal("countDiffer")
	}
}

// A calibration file whose costs exceed every loop of the run (stale, or
// measured under load) makes LB and Bounded run as Figure 1; the report
// says so with the numbers instead of printing speedups of 1.0x as if
// they were the paper's result.
func TestPaperWarnsOfACostThatCannotPay(t *testing.T) {
	gputest.Context(t)
	dir := t.TempDir()
	out, cal := filepath.Join(dir, "results"), filepath.Join(dir, "cal.json")
	args := []string{"paper", "-res", "20", "-width", "64", "-height", "48", "-views", "M(45,45)", "-lanes", "all",
		"-reps", "1", "-warmup", "0", "-out", out, "-calibration", cal}
	report := func() (string, paperReport) {
		var buf bytes.Buffer
		if err := run(args, &buf); err != nil {
			t.Fatalf("%v\n%s", err, buf.String())
		}
		var js paperReport
		data, err := os.ReadFile(filepath.Join(out, "paper.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &js); err != nil {
			t.Fatal(err)
		}
		return buf.String(), js
	}
	// A fresh calibration may itself exceed loops this short: only the
	// raised costs below are certain to.
	report()
	// The file's costs, raised far above any loop of the run.
	var file map[string]any
	data, err := os.ReadFile(cal)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	raised := 0
	for _, loops := range file["renderers"].(map[string]any) {
		for _, lc := range loops.(map[string]any) {
			lc.(map[string]any)["costIterations"] = 1e5
			raised++
		}
	}
	if raised != 2 {
		t.Fatalf("raised %d costs in %s, want 2", raised, data)
	}
	if data, err = json.Marshal(file); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cal, data, 0o600); err != nil {
		t.Fatal(err)
	}
	s, js := report()
	for i, cc := range js.CostCheck {
		if !cc.CannotPay || cc.Cost != 1e5 || cc.Longest == 0 {
			t.Fatalf("cost check %d: %+v, want the cost 1e5 flagged above the longest loop", i, cc)
		}
	}
	if n := strings.Count(s, "WARNING: the overestimate 100000.0 is at least this run's longest loop"); n != 2 {
		t.Fatalf("%d warnings, want one a loop:\n%s", n, s)
	}
}
