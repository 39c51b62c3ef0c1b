package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/internal/hostile"
	"github.com/dpgl/dpgl/rasterizer"
)

// benchCmd runs bench with args as a child process.
func benchCmd(t *testing.T, args ...string) hostile.Result {
	t.Helper()
	return hostile.Run(t, "bench", []string{"DPGL_BENCH_MAIN=1"}, args...)
}

// TestMain lets the test binary be bench: the acceptance tests run it as a
// child process (DPGL_BENCH_MAIN=1), so that a panic, a hang or an exit
// status is seen as a user sees it.
func TestMain(m *testing.M) {
	if os.Getenv("DPGL_BENCH_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// calibrated writes a calibration file with costs for this machine's
// renderer, so that the runs do not calibrate first.
func calibrated(t *testing.T) string {
	renderer := gputest.Context(t).Caps().Renderer
	path := filepath.Join(t.TempDir(), "cal.json")
	cal, err := balancer.LoadCalibration(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, loop := range []string{rasterizer.ScanConversionLoop, rasterizer.ZBufferLoop} {
		cal.Set(renderer, loop, balancer.LoopCost{CostIterations: 8, MaxGatherNs: 1, MinSolveNs: 1, Margin: 1, Runs: 1})
	}
	if err := cal.Save(); err != nil {
		t.Fatal(err)
	}
	return path
}

// sameShape reports how many pixels two coverage masks disagree on.
func sameShape(a, b []bool) int {
	d := 0
	for i := range a {
		if a[i] != b[i] {
			d++
		}
	}
	return d + len(b) - len(a)
}

// TestAcceptHostileFiles drives bench render (NIfTI volumes, PLY meshes)
// and bench strategies (DIMACS graphs) with generated damaged and extreme
// files: each run refuses with a message naming the file and the field,
// or draws the picture its well-formed twin draws.
func TestAcceptHostileFiles(t *testing.T) {
	gputest.Context(t)
	cal := calibrated(t)
	dir := t.TempDir()
	const size = 64
	masks := map[string][]bool{}
	for _, c := range hostile.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			if c.Open != "" {
				t.Skipf("open: %s", c.Open)
			}
			path, err := c.Write(dir)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out-"+c.Name)
			var args []string
			switch c.Kind {
			case hostile.NIfTI, hostile.PLY:
				args = []string{"render", "-" + string(c.Kind), path, "-views", "(45,45)", "-width", "64", "-height", "64",
					"-lanes", "all", "-policies", "Never,CostEffective", "-reps", "1", "-warmup", "0", "-calibration", cal, "-out", out}
				if c.Kind == hostile.NIfTI {
					args = append(args, "-res", "0")
				}
			case hostile.DIMACS:
				args = []string{"strategies", "-sets", "none", "-graphs", path, "-strategies", "Never,CostEffective",
					"-reps", "1", "-warmup", "0", "-cost", "8"}
			}
			r := benchCmd(t, args...)
			if !c.Draws() {
				hostile.Refused(t, c.Name, r, append([]string{filepath.Base(path)}, c.Want...)...)
				for _, w := range c.Avoid {
					if strings.Contains(r.Stderr, w) {
						t.Fatalf("the message blames %s:\n%s", w, r.Stderr)
					}
				}
				return
			}
			if r.Code != 0 {
				t.Fatalf("exit status %d, want a picture\nstdout:\n%s\nstderr:\n%s", r.Code, r.Stdout, r.Stderr)
			}
			for _, w := range c.Say {
				if !strings.Contains(r.Stdout, w) {
					t.Fatalf("the output does not say %q:\n%s", w, r.Stdout)
				}
			}
			if c.Kind == hostile.DIMACS {
				if !strings.Contains(r.Stdout, c.Name) {
					t.Fatalf("no row for the graph:\n%s", r.Stdout)
				}
				return
			}
			for _, set := range setNames {
				mask, n := hostile.Coverage(t, filepath.Join(out, imageName(set, "(45,45)")), rasterizer.DefaultMaterial.Background)
				if n < size*size/20 {
					t.Fatalf("%s set: the surface covers %d of %d pixels: a blank picture\n%s", set, n, size*size, r.Stdout)
				}
				key := c.Name + "/" + set
				masks[key] = mask
				// The unbalanced set is a decimation, whose ties (a cube's
				// faces) float rounding breaks differently at another
				// scale: only the balanced set must look the same.
				if c.Like != "" && set == setNames[balancedSet] {
					twin, ok := masks[c.Like+"/"+set]
					if !ok {
						t.Fatalf("no picture of %s to compare with", c.Like)
					}
					// The same shape, scaled or encoded otherwise: the
					// camera fits both alike; rounding may move an edge.
					if d := sameShape(mask, twin); d > size*size/100 {
						t.Fatalf("%s set: %d pixels differ from %s's picture", set, d, c.Like)
					}
				}
			}
		})
	}
}

// TestAcceptBadFlags gives every numeric flag of every command values it
// must refuse (not a number, NaN, the infinities, out of range): each run
// ends with a status other than 0 and a message naming the flag and the
// value, before any work.
func TestAcceptBadFlags(t *testing.T) {
	n := 0
	for cmd, fcs := range badFlags() {
		for _, fc := range fcs {
			for _, v := range fc.bad {
				what := cmd + " -" + fc.flag + " " + strconv.Quote(v)
				t.Run(what, func(t *testing.T) {
					r := benchCmd(t, cmd, "-"+fc.flag, v)
					hostile.Refused(t, what, r, "-"+fc.flag)
					if v != "" && !strings.Contains(r.Stderr, v) {
						t.Errorf("the message does not name the value:\n%s", r.Stderr)
					}
					if strings.Contains(r.Stdout, " on ") || strings.Contains(r.Stdout, "dataset:") {
						t.Errorf("refused only after starting the work:\n%s", r.Stdout)
					}
				})
				n++
			}
		}
	}
	t.Logf("%d bad flag values refused", n)
}

// flagCase is a flag and values of it that must be refused.
type flagCase struct {
	flag string
	bad  []string
}

// badFlags are the bad values of each command's flags.
func badFlags() map[string][]flagCase {
	ints := []string{"NaN", "Inf", "1.5", "x", "", "99999999999999999999"}
	floats := []string{"NaN", "nan", "Inf", "+Inf", "-Inf", "infinity", "1e400", "x", ""}
	exp := []flagCase{
		{"res", append([]string{"-1", "1"}, ints...)},
		{"reduction", append([]string{"0", "-1"}, ints...)},
		{"width", append([]string{"0", "-1", "4097"}, ints...)},
		{"height", append([]string{"0", "99999"}, ints...)},
		{"reps", append([]string{"0", "-1", "10001"}, ints...)},
		{"warmup", append([]string{"-1", "10001"}, ints...)},
		{"iso", append([]string{"1e39", "-3.5e38"}, floats...)},
		{"margin", append([]string{"-1", "-1e-9"}, floats...)},
		{"lanes", []string{"0", "-1", "x", "64,64", "NaN"}},
		{"views", []string{"(1,95)", "(1,1)x0", "", "M(0,0),M(0,0)"}},
		{"policies", []string{"Sometimes", ""}},
		{"field", []string{"teapot"}},
		{"calibration", []string{""}},
	}
	cmds := map[string][]flagCase{"paper": exp, "render": exp, "calibrate": exp,
		"balance": {
			{"p", append([]string{"-1", "67108865"}, ints...)},
			{"lanes", append([]string{"-1"}, ints...)},
			{"max", append([]string{"0", "-1", "4294967297", "65537"}, ints...)},
			{"work", append([]string{"-1", "65537"}, ints...)},
			{"cost", append([]string{"-1"}, floats...)},
			{"reps", append([]string{"0"}, ints...)},
			{"warmup", append([]string{"-1"}, ints...)},
			{"seed", []string{"-1", "x", "NaN", "18446744073709551616"}},
			{"workloads", []string{"lumpy", ""}},
			{"policies", []string{"Sometimes"}},
		},
		"iso": {
			{"res", append([]string{"1", "-1"}, ints...)},
			{"width", append([]string{"0"}, ints...)},
			{"height", append([]string{"-1", "4097"}, ints...)},
			{"sizes", []string{"1", "x", "-5", "NaN", "128,"}},
			{"field", []string{"teapot"}},
			{"reps", append([]string{"0"}, ints...)},
		},
		"copy": {
			{"sizes", []string{"0", "-1M", "x", "99999999999G", "1.5M", "0K", "2T"}},
			{"reps", append([]string{"0"}, ints...)},
			{"warmup", append([]string{"-1"}, ints...)},
		},
		"scan": {
			{"log2", []string{"0", "31", "-1", "x", "NaN"}},
			{"reps", append([]string{"0"}, ints...)},
		},
		"primitives": {
			{"log2", []string{"0", "31", "-1", "x", "NaN", "30"}},
			{"only", []string{"no-such-row"}},
			{"path", []string{"sideways"}},
			{"reps", append([]string{"0"}, ints...)},
			{"warmup", append([]string{"-1"}, ints...)},
		},
		"sort": {
			{"log2", []string{"0", "31", "-1", "x", "NaN", "30"}},
			{"reps", append([]string{"0"}, ints...)},
			{"warmup", append([]string{"-1"}, ints...)},
		},
		"strategies": {
			{"size", append([]string{"-1", "4097"}, ints...)},
			{"res", append([]string{"1", "0"}, ints...)},
			{"lanes", append([]string{"-1"}, ints...)},
			{"chunk", append([]string{"-1"}, ints...)},
			{"cost", append([]string{"-1"}, floats...)},
			{"seed", []string{"-1", "x"}},
			{"views", []string{"(1,95)"}},
			{"sets", []string{"some"}},
			{"strategies", []string{"Sometimes"}},
			{"graphs", []string{"rmat:27:2", "rmat:20:1000", "grid:0x5", "grid:99999x99999", "uniform:5", "nope.gr", "x"}},
			{"reps", append([]string{"0"}, ints...)},
		},
	}
	return cmds
}

// TestAcceptOutCheckedFirst: an -out that cannot take the results is
// refused before the dataset is built and the frames are rendered, not
// after minutes of work; and the file in its way is left as it was.
func TestAcceptOutCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "results")
	if err := os.WriteFile(file, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{file, filepath.Join(file, "sub")} {
		for _, cmd := range []string{"paper", "render"} {
			r := benchCmd(t, cmd, "-res", "8", "-views", "(0,0)", "-reps", "1", "-warmup", "0", "-out", out)
			hostile.Refused(t, cmd+" -out "+out, r, "-out", out)
			if strings.Contains(r.Stdout, "dataset:") {
				t.Fatalf("%s -out %s: refused only after building the dataset:\n%s", cmd, out, r.Stdout)
			}
		}
	}
	if b, _ := os.ReadFile(file); string(b) != "mine" {
		t.Fatalf("the file in -out's way now holds %q", b)
	}
	// The same for a -calibration file that cannot be read or written.
	for _, c := range []struct {
		cal  string
		want string
	}{
		{dir, "a folder"},
		{filepath.Join(file, "cal.json"), "not a"},
		{file, file},
	} {
		for _, args := range [][]string{{"render", "-res", "8", "-views", "(0,0)"}, {"balance", "-p", "64"}} {
			r := benchCmd(t, append(args, "-calibration", c.cal)...)
			hostile.Refused(t, args[0]+" -calibration "+c.cal, r, "calibration", c.want)
			if strings.Contains(r.Stdout, "dataset:") || strings.Contains(r.Stdout, "processors") {
				t.Fatalf("%s -calibration %s: refused only after starting the work:\n%s", args[0], c.cal, r.Stdout)
			}
		}
	}
}

// TestAcceptSizeLimits: a grid too large for memory is refused before it
// is allocated, naming the flag and the value.
func TestAcceptSizeLimits(t *testing.T) {
	for _, args := range [][]string{
		{"iso", "-sizes", "100000"}, {"iso", "-sizes", "2000"}, {"iso", "-sizes", "8", "-res", "100000"},
		{"render", "-res", "100000"}, {"paper", "-res", "3000"}, {"calibrate", "-res", "100000"},
		{"strategies", "-res", "100000"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			r := benchCmd(t, args...)
			hostile.Refused(t, strings.Join(args, " "), r, args[len(args)-2], args[len(args)-1])
		})
	}
}
