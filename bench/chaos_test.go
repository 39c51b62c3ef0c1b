package main

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/internal/hostile"
	"github.com/dpgl/dpgl/rasterizer"
)

// The chaos harness: bench under injected write failures (a disk full
// after N bytes, DPGL_FILEIO_FAIL_AFTER), with FIFOs and devices as inputs,
// with damaged and foreign calibration files and degenerate data. Every
// case asserts what a user must see: no panic, no hang (a bounded run), no
// file replaced by a worse one, and every input's bytes unchanged.

// refuseLimit bounds a run that must refuse before any work: a FIFO open
// that waits for a writer would run into it.
const refuseLimit = 20 * time.Second

// noPanic fails the test when the run panicked.
func noPanic(t *testing.T, what string, r hostile.Result) {
	t.Helper()
	if strings.Contains(r.Stderr, "panic") || strings.Contains(r.Stderr, "goroutine ") {
		t.Fatalf("%s panicked:\n%s", what, r.Stderr)
	}
}

// cubePLY writes the hostile cube mesh to dir.
func cubePLY(t *testing.T, dir, name string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, hostile.Cube(1, 0).Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// tinyRender is a bench render run of a mesh that takes a second.
func tinyRender(mesh, cal, out string) []string {
	args := []string{"render", "-mesh", mesh, "-views", "(45,45)", "-width", "32", "-height", "32", "-lanes", "1",
		"-policies", "Never", "-reps", "1", "-warmup", "0", "-calibration", cal}
	if out != "" {
		args = append(args, "-out", out)
	}
	return args
}

// TestChaosFullDisk: bench render -out on a disk that fills after N bytes
// fails, naming the error, and leaves the results folder exactly as the
// previous run left it: no truncated PNG under a final name, no temporary
// file. On main the PNGs were replaced by truncated ones.
func TestChaosFullDisk(t *testing.T) {
	gputest.Context(t)
	dir := t.TempDir()
	cal := calibrated(t)
	mesh := cubePLY(t, dir, "cube.ply")
	out := filepath.Join(dir, "results")
	if r := benchCmd(t, tinyRender(mesh, cal, out)...); r.Code != 0 {
		t.Fatalf("a good run failed:\n%s", r.Stderr)
	}
	before := hostile.Snapshot(t, out)
	if len(before) != 2 {
		t.Fatalf("the good run wrote %d files, want 2", len(before))
	}
	inputs := hostile.Snapshot(t, dir)
	calBefore, _ := os.ReadFile(cal)
	for _, n := range []string{"0", "100", "1000"} {
		r := hostile.Run(t, "bench", []string{"DPGL_BENCH_MAIN=1", "DPGL_FILEIO_FAIL_AFTER=" + n}, tinyRender(mesh, cal, out)...)
		noPanic(t, "render on a full disk", r)
		hostile.Refused(t, "render on a disk full after "+n+" bytes", r, "no space left")
		hostile.Unchanged(t, "the results folder after a failure at "+n+" bytes", out, before)
	}
	delete(inputs, "results")
	hostile.Unchanged(t, "the inputs", dir, inputs)
	if b, _ := os.ReadFile(cal); string(b) != string(calBefore) {
		t.Fatal("the calibration file changed")
	}
}

// TestChaosPaperDegenerate: bench paper on a mesh whose every triangle has
// zero area writes its tables and plots (on main a log axis of no positive
// values panicked, leaving images and no tables) and warns that the images
// are blank and that the two sets are one; the same run on a disk that
// fills midway leaves the folder as it was.
func TestChaosPaperDegenerate(t *testing.T) {
	gputest.Context(t)
	dir := t.TempDir()
	cal := calibrated(t)
	mesh := filepath.Join(dir, "degenerate.ply")
	m := hostile.Mesh{Vertices: [][3]float64{{0, 0, 0}, {1, 1, 1}, {2, 2, 2}}, Faces: [][]int{{0, 1, 2}}}
	if err := os.WriteFile(mesh, m.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "results")
	args := []string{"paper", "-mesh", mesh, "-views", "(45,45)", "-width", "32", "-height", "32", "-lanes", "1",
		"-reps", "1", "-warmup", "0", "-calibration", cal, "-out", out, "-second=false"}
	r := benchCmd(t, args...)
	noPanic(t, "paper", r)
	if r.Code != 0 {
		t.Fatalf("exit status %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	for _, w := range []string{"warning: every one of the 1 triangles", "warning: the unbalanced set equals the balanced one"} {
		if !strings.Contains(r.Stdout, w) {
			t.Errorf("the output does not say %q:\n%s", w, r.Stdout)
		}
	}
	before := hostile.Snapshot(t, out)
	for _, name := range []string{"table1.csv", "paper.json", "plot-phase-times.png"} {
		if before[name] == "" {
			t.Errorf("no %s among %d files", name, len(before))
		}
	}
	r = hostile.Run(t, "bench", []string{"DPGL_BENCH_MAIN=1", "DPGL_FILEIO_FAIL_AFTER=5000"}, args...)
	noPanic(t, "paper on a full disk", r)
	hostile.Refused(t, "paper on a full disk", r, "no space left")
	hostile.Unchanged(t, "the results folder after a failed paper run", out, before)
}

// TestChaosSpecialInputs: a FIFO with no writer, or a device, given as an
// input is refused at once, naming the flag and the file (on main the FIFO
// blocked forever in open() and /dev/zero as -mesh ate memory); with
// DPGL_ALLOW_SPECIAL=1 /dev/zero is read, and refused after its first
// 4 KiB as a PLY header without a line end.
func TestChaosSpecialInputs(t *testing.T) {
	dir := t.TempDir()
	fifo := func(name string) string {
		p := filepath.Join(dir, name)
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cal := filepath.Join(dir, "none.json")
	render := func(flag, path string) []string {
		return []string{"render", "-" + flag, path, "-views", "(45,45)", "-width", "32", "-height", "32", "-reps", "1", "-warmup", "0", "-calibration", cal}
	}
	for _, c := range []struct {
		what string
		args []string
		env  []string
		want []string
	}{
		{"render -volume FIFO", render("volume", fifo("v.nii")), nil, []string{"-volume", "v.nii", "FIFO"}},
		{"render -mesh FIFO", render("mesh", fifo("m.ply")), nil, []string{"-mesh", "m.ply", "FIFO"}},
		{"render -mesh /dev/zero", render("mesh", "/dev/zero"), nil, []string{"-mesh", "/dev/zero", "device"}},
		{"render -volume /dev/null", render("volume", "/dev/null"), nil, []string{"-volume", "/dev/null", "device"}},
		{"strategies -graphs FIFO", []string{"strategies", "-sets", "none", "-graphs", fifo("g.gr"), "-reps", "1", "-warmup", "0", "-cost", "8"}, nil,
			[]string{"g.gr", "FIFO"}},
		{"render -mesh /dev/zero allowed", render("mesh", "/dev/zero"), []string{"DPGL_ALLOW_SPECIAL=1"}, []string{"-mesh", "/dev/zero", "PLY"}},
	} {
		t.Run(c.what, func(t *testing.T) {
			r := hostile.RunWithin(t, refuseLimit, "bench", append([]string{"DPGL_BENCH_MAIN=1"}, c.env...), c.args...)
			hostile.Refused(t, c.what, r, c.want...)
		})
	}
}

// TestChaosCalibrationFiles: an unreadable entry is kept as it is and
// reported, and a recalibration replaces only the loop it measured (on
// main render said "the file has none for this renderer" and replaced the
// other loop's valid 8-run entry); strategies refuses a file that is not a
// calibration as render and balance do (on main it ran on default costs);
// a -calibration that -cost makes a command not read is a warning.
func TestChaosCalibrationFiles(t *testing.T) {
	renderer := gputest.Context(t).Caps().Renderer
	dir := t.TempDir()
	mesh := cubePLY(t, dir, "cube.ply")
	cal := filepath.Join(dir, "cal.json")
	good, _ := json.Marshal(balancer.LoopCost{CostIterations: 8, MaxGatherNs: 1, MinSolveNs: 1, Margin: 1, Runs: 8, Date: "2026-01-01T00:00:00Z"})
	file := map[string]any{"format": "dpgl balancer calibration", "version": 1, "renderers": map[string]any{
		renderer: map[string]json.RawMessage{rasterizer.ScanConversionLoop: good, rasterizer.ZBufferLoop: json.RawMessage(`"garbage"`)}}}
	data, _ := json.Marshal(file)
	if err := os.WriteFile(cal, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r := benchCmd(t, tinyRender(mesh, cal, "")...)
	noPanic(t, "render", r)
	if r.Code != 0 {
		t.Fatalf("exit status %d\n%s", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stdout, "cannot be read") || strings.Contains(r.Stdout, "the file has none for this renderer") {
		t.Errorf("the output does not say the z-buffer entry cannot be read:\n%s", r.Stdout)
	}
	var back struct {
		Renderers map[string]map[string]json.RawMessage
	}
	after, _ := os.ReadFile(cal)
	if err := json.Unmarshal(after, &back); err != nil {
		t.Fatal(err)
	}
	loops := back.Renderers[renderer]
	var scan balancer.LoopCost
	json.Unmarshal(loops[rasterizer.ScanConversionLoop], &scan)
	if scan.Runs != 8 || scan.Date != "2026-01-01T00:00:00Z" {
		t.Errorf("the scan conversion's 8-run entry was replaced: %s", loops[rasterizer.ScanConversionLoop])
	}
	if string(loops[rasterizer.ZBufferLoop]) != `"garbage"` {
		t.Errorf("the unreadable z-buffer entry was not kept: %s", loops[rasterizer.ZBufferLoop])
	}

	bad := filepath.Join(dir, "NOT_A_CALIBRATION")
	os.WriteFile(bad, []byte("hello\n"), 0o644)
	r = hostile.RunWithin(t, refuseLimit, "bench", []string{"DPGL_BENCH_MAIN=1"},
		"strategies", "-sets", "none", "-graphs", "grid:4x4", "-reps", "1", "-warmup", "0", "-calibration", bad)
	hostile.Refused(t, "strategies -calibration NOT_A_CALIBRATION", r, "-calibration", "NOT_A_CALIBRATION")
	if b, _ := os.ReadFile(bad); string(b) != "hello\n" {
		t.Fatal("the foreign file changed")
	}

	r = benchCmd(t, "balance", "-cost", "8", "-calibration", bad, "-max", "8", "-workloads", "balanced", "-policies", "Never",
		"-reps", "1", "-warmup", "0")
	noPanic(t, "balance", r)
	if r.Code != 0 || !strings.Contains(r.Stdout, "warning: -calibration "+bad+" is not read: -cost 8") {
		t.Errorf("balance -cost with -calibration: exit %d, no warning:\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
}

// TestChaosPredictManyRanks: CostEffective's prediction for 100,000 ranks
// ends (on main its time grew with ranks²: hours); the hang limit is
// generous, not a timing.
func TestChaosPredictManyRanks(t *testing.T) {
	costs := make([]float64, 300000)
	for i := range costs {
		costs[i] = float64(i%97) + 1
	}
	done := make(chan sharePrediction)
	go func() { done <- predictShares(costs, 100000, 3) }()
	select {
	case p := <-done:
		if p.static < 1 || p.costEffective < 1 {
			t.Fatalf("%+v", p)
		}
	case <-time.After(hostile.HangLimit):
		t.Fatalf("100,000 ranks: no prediction after %v", hostile.HangLimit)
	}
}

// writeZeroBomb writes a gzipped NIfTI-1 volume of n^3 float32 zeros: a
// few hundred KiB that decode to 4n^3 bytes.
func writeZeroBomb(t *testing.T, path string, n int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	hdr := hostile.Nii{Dim: [8]int16{3, int16(n), int16(n), int16(n), 1, 1, 1, 1}, Voxels: []float64{}}
	zw.Write(hdr.Bytes())
	zeros := make([]byte, 1<<20)
	for left := 4 * n * n * n; left > 0; left -= len(zeros) {
		if _, err := zw.Write(zeros[:min(left, len(zeros))]); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestChaosZeroBomb: a small .nii.gz of 256^3 zeros, rendered at -res 32,
// takes beyond a small render's memory no more than the volume's float32
// samples (the 4 bytes a voxel CheckGrid budgets) and the garbage
// collector's headroom: on main Resample's two float64 copies took 16
// bytes a voxel more (640^3: 5.7 GB peak). GOGC=25 keeps the headroom
// small, so that the peak measures what is live. The peaks are printed.
func TestChaosZeroBomb(t *testing.T) {
	gputest.Context(t)
	dir := t.TempDir()
	const n = 256
	bomb := filepath.Join(dir, "bomb.nii.gz")
	writeZeroBomb(t, bomb, n)
	cal := calibrated(t)
	env := []string{"DPGL_BENCH_MAIN=1", "GOGC=25"}
	small := hostile.Run(t, "bench", env, tinyRender(cubePLY(t, dir, "cube.ply"), cal, "")...)
	if small.Code != 0 || small.MaxRSS == 0 {
		t.Fatalf("the small render: exit %d, peak %d\n%s", small.Code, small.MaxRSS, small.Stderr)
	}
	args := []string{"render", "-volume", bomb, "-res", "32", "-views", "(45,45)", "-width", "32", "-height", "32", "-lanes", "1",
		"-policies", "Never", "-reps", "1", "-warmup", "0", "-calibration", cal}
	r := hostile.Run(t, "bench", env, args...)
	noPanic(t, "render of the zero bomb", r)
	// All zeros: refused as an empty surface after it was read and
	// resampled, which is what is measured.
	hostile.Refused(t, "render of the zero bomb", r, "bomb.nii.gz", "empty")
	volume := int64(4 * n * n * n)
	extra := r.MaxRSS - small.MaxRSS
	t.Logf("peak RSS: %d MiB for the %d^3 zero bomb (its float32 samples %d MiB), %d MiB for a 12-triangle render",
		r.MaxRSS>>20, n, volume>>20, small.MaxRSS>>20)
	if limit := volume*3/2 + 128<<20; extra > limit {
		t.Fatalf("the zero bomb took %d MiB more than a small render, over the %d MiB of its samples, the collector's headroom and 128 MiB",
			extra>>20, limit>>20)
	}
}

// TestChaosGraphTooBig: a DIMACS graph that the reader takes but the
// driver's storage blocks cannot hold (2^26 vertices: 256 MiB of offsets,
// over llvmpipe's 128 MiB) is refused naming the file; on main
// Solver.Load's message gave the sizes alone.
func TestChaosGraphTooBig(t *testing.T) {
	c := gputest.Context(t)
	if c.Caps().MaxSSBOSize >= 4<<26 {
		t.Skipf("the driver's storage blocks (%d bytes) hold 2^26 vertices' offsets", c.Caps().MaxSSBOSize)
	}
	gr := filepath.Join(t.TempDir(), "big.gr")
	if err := os.WriteFile(gr, []byte("p sp 67108864 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := benchCmd(t, "strategies", "-sets", "none", "-graphs", gr, "-strategies", "Never", "-reps", "1", "-warmup", "0", "-cost", "8")
	hostile.Refused(t, "strategies -graphs big.gr", r, "-graphs", "big.gr", "67108864 vertices")
}
