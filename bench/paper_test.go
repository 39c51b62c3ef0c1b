package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/bench/internal/experiment"
	"github.com/dpgl/dpgl/gpu/gputest"
)

// paperReport runs bench paper's experiment with args and returns its
// report, as runPaper does before printing it.
func paperReport(t *testing.T, args ...string) *experiment.Report {
	t.Helper()
	fs := flag.NewFlagSet("paper", flag.ContinueOnError)
	f := addExpFlags(fs, "paper", paperDefaults)
	if err := parseExp(fs, f, args); err != nil {
		t.Fatal(err)
	}
	r, _, err := paperExperiment(f, args, time.Now(), false, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

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

// TestPaperReduced runs a reduced experiment (a tiny dataset and image, two
// views, one Lanes value, one repetition) and checks its report: the
// workloads, the frames and what the policies promise of them, the phase
// times, the cost check, the balanced set's balancing, the images; then
// the files written from it, and a second run that reads the calibration
// the first one saved.
func TestPaperReduced(t *testing.T) {
	gputest.Context(t)
	dir := t.TempDir()
	cal := filepath.Join(dir, "cal.json")
	args := []string{"-res", "20", "-width", "64", "-height", "48", "-views", "(0,0),M(45,45)", "-lanes", "all",
		"-reps", "1", "-warmup", "0", "-out", "", "-calibration", cal}
	r := paperReport(t, args...)
	checkTable1(t, r)
	checkFrames(t, r)
	checkTable4(t, r)
	checkCosts(t, r)
	checkBalancedSet(t, r)
	if !r.Images.Identical || r.Images.Compared != 12 || r.Images.Images != 4 || len(r.Images.Differ) != 0 {
		t.Fatalf("images: %+v", r.Images)
	}
	for set := range setNames {
		for _, v := range []string{"(0,0)", "M(45,45)"} {
			if n := len(r.Image(set, v)); n != 64*48 {
				t.Fatalf("the %s set's image at %s has %d pixels, want 64x48", setNames[set], v, n)
			}
		}
	}
	if r.Meta.Renderer == "" || r.Meta.Date == "" || r.Params.Width != 64 || r.Params.Height != 48 ||
		!slices.Equal(r.Params.Views, []string{"(0,0)", "M(45,45)"}) || !slices.Equal(r.Params.Lanes, []string{"all"}) ||
		r.Params.Calibration != cal || r.Params.Resolution != 20 || r.Params.Source != "perforator" {
		t.Fatalf("meta %+v, params %+v", r.Meta, r.Params)
	}
	checkFiles(t, r, filepath.Join(dir, "results"))

	// The calibration was saved; a second run reads it.
	for i, lc := range r.Costs {
		if lc.Source != "calibrated now" || lc.Cost <= 0 || lc.Loop != experiment.LoopNames[i] {
			t.Fatalf("first run's cost %d: %+v", i, lc)
		}
	}
	if _, err := balancer.LoadCalibration(cal); err != nil {
		t.Fatal(err)
	}
	checkSteps(t, r, true)
	// The second run batches: the same iterations, balances and images.
	again := paperReport(t, append(args, "-lockstep=false")...)
	checkSteps(t, again, false)
	for _, fr := range r.Runs() {
		g := again.Frame(fr.Set, fr.View.Name, fr.Lanes, fr.Policy)
		if g.Scan.Iterations != fr.Scan.Iterations || g.Z.Iterations != fr.Z.Iterations ||
			g.Scan.Balances != fr.Scan.Balances || g.Z.Balances != fr.Z.Balances || !slices.Equal(again.Image(fr.Set, fr.View.Name), r.Image(fr.Set, fr.View.Name)) {
			t.Fatalf("batched %s %s %v: iterations %d/%d balances %d/%d, lockstep %d/%d %d/%d (or the image differs)", setNames[fr.Set], fr.View.Name, fr.Policy,
				g.Scan.Iterations, g.Z.Iterations, g.Scan.Balances, g.Z.Balances, fr.Scan.Iterations, fr.Z.Iterations, fr.Scan.Balances, fr.Z.Balances)
		}
	}
	for i, lc := range again.Costs {
		if lc.Source != "file" || lc.Cost != r.Costs[i].Cost {
			t.Fatalf("second run's cost %d: %+v, want the first run's %v from the file", i, lc, r.Costs[i].Cost)
		}
	}
	if !strings.HasPrefix(again.CostNotes[len(again.CostNotes)-1], "costs from "+cal) {
		t.Fatalf("second run's notes: %q", again.CostNotes)
	}
}

// checkTable1: both sets at both views, each the OR frame's counts.
func checkTable1(t *testing.T, r *experiment.Report) {
	t.Helper()
	if len(r.Table1) != 4 {
		t.Fatalf("Table 1 has %d rows, want 4", len(r.Table1))
	}
	for i, row := range r.Table1 {
		set, v := i/2, r.Params.Views[i%2]
		fr := r.Frame(set, v, 0, balancer.Never)
		if row.Set != setNames[set] || row.View != v || row.ScanMax != fr.Scan.Start.MaxWorkload || row.ZMax != fr.Z.Start.MaxWorkload ||
			row.ScanProcessors != fr.Scan.Processors || row.ZProcessors != fr.Z.Processors {
			t.Fatalf("Table 1 row %d %+v is not OR's frame at %s: %+v", i, row, v, fr.Scan.Start)
		}
		if row.ScanMax < 1 || float64(row.ScanMax) < row.ScanAvg || float64(row.ZMax) < row.ZAvg || row.ScanAvg <= 0 {
			t.Fatalf("Table 1: implausible workloads %+v", row)
		}
	}
}

// checkFrames: a frame per set, view and policy; OR balances nothing;
// Bounded makes CostEffective's decisions; balancing only shortens a loop.
func checkFrames(t *testing.T, r *experiment.Report) {
	t.Helper()
	if len(r.Frames) != 12 || len(r.Runs()) != 12 {
		t.Fatalf("%d frames (%d runs), want 2 sets x 2 views x 3 policies", len(r.Frames), len(r.Runs()))
	}
	for i, fj := range r.Frames {
		fr := r.Runs()[i]
		if fj.Set != setNames[fr.Set] || fj.View != fr.View.Name || fj.Policy != fr.Policy.String() || fj.Lanes != "all" || !fj.SameImage ||
			fj.GPUMs <= 0 || fj.WallMs <= 0 || fj.Reps != 1 || fj.Scan.Iterations != fr.Scan.Iterations || fj.Z.Iterations != fr.Z.Iterations {
			t.Fatalf("frame %d: %+v disagrees with its run %+v", i, fj, fr)
		}
		// A loop's phases are its repetitions', and the z-buffer's the
		// depth pass's alone.
		for _, l := range []*experiment.LoopRun{&fr.Scan, &fr.Z} {
			n := 0
			for _, rep := range l.Reps {
				n += rep.Solve.N
			}
			if len(l.Reps) != 1 || l.Solve.N != n {
				t.Fatalf("frame %d: %d solution phases of %d repetitions, which had %d", i, l.Solve.N, len(l.Reps), n)
			}
		}
		// One pass over the z-buffer's tasks on every driver: the 32-bit
		// path's id pass is its fallback for a batch whose tests' keys
		// outgrow a storage block, which this dataset is far from.
		if fj.IDPass != nil || fj.Z.Passes != 1 {
			t.Fatalf("frame %d: id pass %v, z passes %d on a driver with 64-bit atomics %v", i, fj.IDPass, fj.Z.Passes, r.Meta.Atomic64)
		}
	}
	for set := range setNames {
		for _, v := range r.Params.Views {
			or, lb, bd := r.Frame(set, v, 0, balancer.Never), r.Frame(set, v, 0, balancer.CostEffective), r.Frame(set, v, 0, balancer.Bounded)
			if or.Scan.Balances+or.Z.Balances+or.Scan.Gathers+or.Z.Gathers != 0 {
				t.Fatalf("%s set at %s: OR balanced or gathered: %+v %+v", setNames[set], v, or.Scan.Stats, or.Z.Stats)
			}
			for i, l := range [][3]*experiment.LoopRun{{&or.Scan, &lb.Scan, &bd.Scan}, {&or.Z, &lb.Z, &bd.Z}} {
				o, c, b := l[0], l[1], l[2]
				if c.Iterations != b.Iterations || c.Balances != b.Balances {
					t.Fatalf("%s set at %s, loop %d: LB %d iterations %d balances, Bounded %d and %d", setNames[set], v, i, c.Iterations, c.Balances, b.Iterations, b.Balances)
				}
				if c.Iterations > o.Iterations || (c.Balances > 0 && c.Iterations == o.Iterations) {
					t.Fatalf("%s set at %s, loop %d: LB ran %d iterations after %d balances, OR %d", setNames[set], v, i, c.Iterations, c.Balances, o.Iterations)
				}
			}
		}
	}
}

// checkTable4: LB's phases on the unbalanced set, min <= avg <= max; the
// z-buffer's solution column is the depth pass's alone.
func checkTable4(t *testing.T, r *experiment.Report) {
	t.Helper()
	t4 := r.Table4
	if t4.Set != "unbalanced" || t4.Policy != "CostEffective" || t4.Lanes != "all" {
		t.Fatalf("Table 4 of %+v", t4)
	}
	var zSolve, idSolve int
	for _, v := range r.Params.Views {
		fr := r.Frame(unbalancedSet, v, 0, balancer.CostEffective)
		zSolve += fr.Z.Solve.N
		idSolve += fr.IDs.Solve.N
	}
	if t4.Loops[1].Solve.N != zSolve || (idSolve > 0) != (t4.IDPassSolve != nil) || (idSolve > 0 && t4.IDPassSolve.N != idSolve) {
		t.Fatalf("Table 4: z-buffer solution %+v, id pass %+v; want %d and %d phases", t4.Loops[1].Solve, t4.IDPassSolve, zSolve, idSolve)
	}
	for _, l := range t4.Loops {
		for _, p := range []experiment.Phase{l.Gather, l.Redistribute, l.Solve} {
			if p.N > 0 && !(p.MinMs <= p.AvgMs && p.AvgMs <= p.MaxMs) {
				t.Fatalf("Table 4, %s: min <= avg <= max fails: %+v", l.Loop, p)
			}
		}
	}
}

// checkCosts: the cost check agrees with the frames it was made from.
func checkCosts(t *testing.T, r *experiment.Report) {
	t.Helper()
	for i, cc := range r.CostCheck {
		gathered := 0
		for _, fr := range r.Runs() {
			l := []*experiment.LoopRun{&fr.Scan, &fr.Z}[i]
			if (fr.Policy == balancer.CostEffective || fr.Policy == balancer.Bounded) && l.Gathers > 0 {
				gathered++
			}
		}
		if cc.Loop != experiment.LoopNames[i] || cc.Cost != r.Costs[i].Cost || cc.Paper != []float64{20, 32}[i] || cc.Gathered != gathered ||
			cc.Exceeded != (cc.DatasetsOver > 0) || cc.IterationExceeded != (cc.Over > 0) || cc.Over > cc.Gathered ||
			cc.Datasets > 4 || cc.DatasetsOver > cc.Datasets || (cc.Datasets > 0) != (gathered > 0) {
			t.Fatalf("cost check %d: %+v (%d frames gathered)", i, cc, gathered)
		}
	}
}

// checkBalancedSet: whether LB balanced the balanced set, counted from
// its frames.
func checkBalancedSet(t *testing.T, r *experiment.Report) {
	t.Helper()
	bs := r.Summary.BalancedSet
	balanced, gathers := 0, 0
	for _, v := range r.Params.Views {
		fr := r.Frame(balancedSet, v, 0, balancer.CostEffective)
		if fr.Scan.Balances+fr.Z.Balances > 0 {
			balanced++
		}
		gathers += fr.Scan.Gathers + fr.Z.Gathers
	}
	if bs.Frames != 2 || bs.FramesBalanced != balanced || len(bs.Balanced) != balanced || bs.Gathers != gathers {
		t.Fatalf("balanced set: %+v; want %d of 2 frames balanced, %d gathers", bs, balanced, gathers)
	}
}

// checkFiles writes the report's files and checks them against it: the
// images and plots decode, the CSV tables and paper.json hold the report's
// numbers, paper.md its tables.
func checkFiles(t *testing.T, r *experiment.Report, out string) {
	t.Helper()
	files, err := writeResults(out, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 14 || !slices.Equal(files, r.Files) {
		t.Fatalf("wrote %v, report lists %v", files, r.Files)
	}
	for _, name := range files {
		if filepath.Ext(name) != ".png" {
			continue
		}
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
	for i, name := range []string{"table2.csv", "table3.csv"} {
		rows := readCSV(t, filepath.Join(out, name))
		if len(rows) != 6 {
			t.Fatalf("%s has %d rows, want 6", name, len(rows))
		}
		for k, row := range rows {
			fj := r.Frames[6*i+k]
			if row["set"] != fj.Set || row["view"] != fj.View || row["policy"] != fj.Policy || row["gpu_ms_median"] != fnum(fj.GPUMs) ||
				row["scan_iterations"] != strconv.Itoa(fj.Scan.Iterations) || row["zbuffer_passes"] != strconv.Itoa(fj.Z.Passes) {
				t.Fatalf("%s row %v disagrees with the report's %+v", name, row, fj)
			}
		}
	}
	if n := len(readCSV(t, filepath.Join(out, "table4.csv"))); n != 6+btoi(r.Table4.IDPassSolve != nil) {
		t.Fatalf("table4.csv has %d rows", n)
	}
	costs := readCSV(t, filepath.Join(out, "costs.csv"))
	if len(costs) != 2 || costs[1]["paper_cost"] != "32" || costs[0]["max_dataset_cost"] != fnum(r.CostCheck[0].DatasetCost) {
		t.Fatalf("costs.csv: %v", costs)
	}
	var js experiment.Report
	data, err := os.ReadFile(filepath.Join(out, "paper.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &js); err != nil {
		t.Fatalf("paper.json: %v", err)
	}
	if !reflect.DeepEqual(js.Frames, r.Frames) || !reflect.DeepEqual(js.CostCheck, r.CostCheck) || !reflect.DeepEqual(js.Table1, r.Table1) ||
		!reflect.DeepEqual(js.Summary, r.Summary) || !reflect.DeepEqual(js.Files, r.Files) {
		t.Fatalf("paper.json does not hold the report")
	}
	md, err := os.ReadFile(filepath.Join(out, "paper.md"))
	if err != nil || !bytes.Contains(md, []byte("### Table 2: rendering the unbalanced set")) || !bytes.Contains(md, []byte("| :--- |")) {
		t.Fatalf("paper.md: %v\n%s", err, md)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// A calibration file whose costs exceed every loop of the run (stale, or
// measured under load) makes LB and Bounded run as Figure 1; the report
// says so, with the numbers, instead of speedups of 1.0x as if they were
// the paper's result.
func TestPaperWarnsOfACostThatCannotPay(t *testing.T) {
	gputest.Context(t)
	cal := filepath.Join(t.TempDir(), "cal.json")
	renderer := gputest.Context(t).Caps().Renderer
	c, err := balancer.LoadCalibration(cal)
	if err != nil {
		t.Fatal(err)
	}
	for _, loop := range experiment.LoopNames {
		c.Set(renderer, loop, balancer.LoopCost{CostIterations: 1e5, MaxGatherNs: 1, MinSolveNs: 1, Margin: 1, Runs: 1})
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	r := paperReport(t, "-res", "20", "-width", "64", "-height", "48", "-views", "M(45,45)", "-lanes", "all",
		"-reps", "1", "-warmup", "0", "-out", "", "-calibration", cal)
	var longest [2]uint32
	for _, row := range r.Table1 {
		longest[0], longest[1] = max(longest[0], row.ScanMax), max(longest[1], row.ZMax)
	}
	for i, cc := range r.CostCheck {
		if !cc.CannotPay || cc.Cost != 1e5 || cc.Longest == 0 || cc.Longest != longest[i] {
			t.Fatalf("cost check %d: %+v, want the cost 1e5 flagged above the longest loop, %d", i, cc, longest[i])
		}
	}
	for _, fr := range r.Runs() {
		if fr.Scan.Balances+fr.Z.Balances != 0 {
			t.Fatalf("%v balanced at a cost of 1e5: %+v", fr.Policy, fr.Scan.Stats)
		}
	}
}

// The printer prints every table of the report, then the balancer's
// warnings.
func TestPrintReport(t *testing.T) {
	gputest.Context(t)
	cal := filepath.Join(t.TempDir(), "cal.json")
	r := paperReport(t, "-res", "12", "-width", "32", "-height", "32", "-views", "(0,0)", "-lanes", "all",
		"-reps", "1", "-warmup", "0", "-out", "", "-calibration", cal)
	// Only the printer is under test: the run's own warnings (an iteration
	// over a cost calibrated a moment ago, under load) would come first.
	r.Warnings = []string{"a warning of the balancer"}
	var b bytes.Buffer
	printReport(&b, r)
	s := b.String()
	for _, tb := range reportTables(r) {
		if !strings.Contains(s, tb.title+"\n") {
			t.Fatalf("the output lacks %q:\n%s", tb.title, s)
		}
	}
	if !strings.HasSuffix(s, "balancer warnings:\n  a warning of the balancer\n") {
		t.Fatalf("the output does not end with the warnings:\n%s", s)
	}
}

// checkSteps: under -lockstep every iteration of every loop is its own
// dispatch, as the paper's machine steps; without it the unbalanced set's
// Never frames (no decisions at all) run several iterations a dispatch.
func checkSteps(t *testing.T, r *experiment.Report, lockstep bool) {
	t.Helper()
	if r.Params.Lockstep != lockstep {
		t.Fatalf("Params.Lockstep %v, want %v", r.Params.Lockstep, lockstep)
	}
	batched := false
	for _, fr := range r.Runs() {
		for _, l := range []experiment.LoopRun{fr.Scan, fr.Z} {
			if lockstep && l.Dispatches != l.Iterations {
				t.Fatalf("lockstep %s %s %v: %d dispatches for %d iterations", setNames[fr.Set], fr.View.Name, fr.Policy, l.Dispatches, l.Iterations)
			}
			if !lockstep && fr.Policy == balancer.Never && l.Dispatches < l.Iterations {
				batched = true
			}
		}
	}
	if !lockstep && !batched {
		t.Fatal("-lockstep=false batched no Never loop")
	}
}
