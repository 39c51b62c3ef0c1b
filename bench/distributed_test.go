//go:build mpi

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dpgl/dpgl/rasterizer/distributed"
)

// The distributed tests run the bench binary under mpirun (make test-mpi:
// go test -tags mpi -run Distributed ./bench), so they need OpenMPI
// (openmpi-bin) and a build with the mpi tag.

var built struct {
	once sync.Once
	path string
	err  error
}

// mpiBench builds bench with the mpi tag once per test binary.
func mpiBench(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("mpirun"); err != nil {
		t.Fatalf("mpirun not found (apt-get install openmpi-bin): %v", err)
	}
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "dpgl-mpi")
		if err != nil {
			built.err = err
			return
		}
		built.path = filepath.Join(dir, "bench")
		out, err := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-tags", "mpi", "-o", built.path, ".").CombinedOutput()
		if err != nil {
			built.err = fmt.Errorf("go build -tags mpi: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.path
}

// mpirun runs bench distributed on np ranks and returns its output, error
// and how long it took; limit kills it (a hang fails the test, not the
// suite).
func mpirun(t *testing.T, np int, limit time.Duration, args ...string) (string, error, time.Duration) {
	t.Helper()
	return mpirunCommand(t, np, limit, "distributed", args...)
}

// mpirunCommand runs bench's command on np ranks, as mpirun does.
func mpirunCommand(t *testing.T, np int, limit time.Duration, command string, args ...string) (string, error, time.Duration) {
	t.Helper()
	bin := mpiBench(t)
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	full := append([]string{"-np", fmt.Sprint(np), "--oversubscribe", "--allow-run-as-root", bin, command}, args...)
	cmd := exec.CommandContext(ctx, "mpirun", full...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	if ctx.Err() != nil {
		t.Fatalf("mpirun %s: still running after %v (a hang):\n%s", strings.Join(full, " "), limit, out.String())
	}
	return out.String(), err, took
}

// TestDistributedBitForBit: on 1 to 4 ranks, both sets of the default
// dataset at the paper's four views, split as shares of the triangles and
// (the balanced set) as bricks of the volume, under every balancing choice
// (whose boundaries move between and, for LeftRightHandoff, within the
// frames), rank 0's composited visibility words and shaded image equal
// its single-process frame bit for bit (the command fails otherwise).
func TestDistributedBitForBit(t *testing.T) {
	for np := 1; np <= 4; np++ {
		out, err, took := mpirun(t, np, 5*time.Minute, "-width", "128", "-height", "128", "-res", "32", "-frames", "2")
		if err != nil {
			t.Fatalf("%d ranks: %v\n%s", np, err, out)
		}
		for _, want := range []string{fmt.Sprintf("distributed: %d ranks", np), "bit for bit", fmt.Sprintf("rank %d: node", np-1), "local rank", "triangles", "bricks", "Static", "LeftRightHandoff", "CostEffective"} {
			if !strings.Contains(out, want) {
				t.Fatalf("%d ranks: no %q in the output:\n%s", np, want, out)
			}
		}
		if strings.Contains(out, "DIFFERS") {
			t.Fatalf("%d ranks: an image differs:\n%s", np, out)
		}
		t.Logf("%d ranks: %v", np, took.Round(time.Millisecond))
	}
}

// TestDistributedFaults: a rank that fails ends the job with a message
// from rank 0, a rank that dies or hangs ends it within seconds, never a
// hang.
func TestDistributedFaults(t *testing.T) {
	small := []string{"-width", "64", "-height", "64", "-res", "16", "-frames", "1", "-sets", "balanced", "-balance", "Static", "-views", "(0,0)"}
	cases := []struct {
		name  string
		args  []string
		want  []string // all in the output
		limit time.Duration
	}{
		{"error", []string{"-fail", "2:error"}, []string{"rank 2: injected failure (-fail): the GL context is lost", "rendering the balanced set"}, time.Minute},
		{"bad file", []string{"-volume", "/nonexistent/brain.nii.gz", "-sets", "balanced"}, []string{"rank 0,1,2,3:", "/nonexistent/brain.nii.gz"}, time.Minute},
		{"bad flag", []string{"-balance", "fair"}, []string{`invalid value "fair" for flag -balance`, "no balancing policy"}, time.Minute},
		{"bad device", []string{"-device", "7"}, []string{"rank 0,1,2,3: gpu: EGL device 7 does not exist: EGL lists", "making a GL context"}, time.Minute},
		{"hang", []string{"-fail", "1:hang", "-timeout", "5s"}, []string{"another rank did not reach", "-timeout", "ending the job"}, time.Minute},
		{"hang amid handoffs", []string{"-fail", "1:hang", "-timeout", "5s", "-balance", "LRH"}, []string{"another rank did not reach", "ending the job"}, time.Minute},
		{"error amid handoffs", []string{"-fail", "3:error", "-balance", "LRH"}, []string{"rank 3: injected failure (-fail): the GL context is lost"}, time.Minute},
		{"exit", []string{"-fail", "3:exit"}, []string{"Exit code:    7"}, time.Minute},
		{"kill", []string{"-fail", "1:kill"}, []string{"process rank 1", "signal 9"}, time.Minute},
	}
	for _, tc := range cases {
		args := tc.args
		if tc.name != "bad file" {
			args = append(append([]string{}, small...), tc.args...)
		} else {
			args = append(append([]string{}, small[:8]...), tc.args...)
		}
		out, err, took := mpirun(t, 4, tc.limit, args...)
		if err == nil {
			t.Fatalf("%s: the job succeeded:\n%s", tc.name, out)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Fatalf("%s: no %q in the output (%v after %v):\n%s", tc.name, w, err, took, out)
			}
		}
		t.Logf("%s: ended in %v: %v", tc.name, took.Round(time.Millisecond), err)
	}
}

// TestDistributedHandoff: with rank 1 slowed by 100 ms a piece, rank 0
// reaches its checkpoint first and rank 1, at its first piece, hands it
// pieces over MPI's point-to-point messages; the image stays identical.
// Without the slowdown Static moves nothing.
func TestDistributedHandoff(t *testing.T) {
	args := []string{"-width", "64", "-height", "64", "-res", "16", "-frames", "2", "-sets", "balanced", "-views", "(0,0)", "-balance", "Static,LRH"}
	for _, split := range []string{"triangles", "bricks"} {
		out, err, _ := mpirun(t, 2, 2*time.Minute, append(args, "-split", split, "-fail", "1:slow")...)
		if err != nil || strings.Contains(out, "DIFFERS") {
			t.Fatalf("%s: %v\n%s", split, err, out)
		}
		rows := 0
		for _, line := range strings.Split(out, "\n") {
			fields := strings.Fields(line)
			if len(fields) < 4 || fields[0] != "balanced" || fields[1] != split {
				continue
			}
			rows++
			moved := !strings.Contains(line, " 0 (0) ")
			if fields[2] == "LeftRightHandoff" && !moved {
				t.Fatalf("%s: rank 1 slowed, yet no handoff:\n%s", split, out)
			}
			if fields[2] == "Static" && moved {
				t.Fatalf("%s: Static moved pieces:\n%s", split, out)
			}
		}
		if rows != 2 {
			t.Fatalf("%s: %d rows for Static and LeftRightHandoff, want 2:\n%s", split, rows, out)
		}
	}
}

// TestDistributedResolveRanks: with -resolve ranks every rank shades the
// pixels its own triangles won and an OR joins them at rank 0: on 2 and 4
// ranks, both sets and splits, every balancing choice, the four views,
// rank 0's pixels equal its single-process frame bit for bit.
func TestDistributedResolveRanks(t *testing.T) {
	for _, np := range []int{2, 4} {
		out, err, took := mpirun(t, np, 5*time.Minute, "-width", "64", "-height", "64", "-res", "16", "-frames", "2", "-resolve", "ranks")
		if err != nil || strings.Contains(out, "DIFFERS") || !strings.Contains(out, "bit for bit") || !strings.Contains(out, "bitwise-OR reduction") {
			t.Fatalf("%d ranks: %v\n%s", np, err, out)
		}
		t.Logf("%d ranks: %v", np, took.Round(time.Millisecond))
	}
}

// heldSamples is the "samples a rank: a b c of N" of bench distributed's
// bricks line.
func heldSamples(t *testing.T, out string) (held []int, whole int) {
	t.Helper()
	_, rest, ok := strings.Cut(out, "samples a rank: ")
	if !ok {
		t.Fatalf("no samples a rank in the output:\n%s", out)
	}
	line, _, _ := strings.Cut(rest, "\n")
	fields := strings.Fields(line)
	for i, f := range fields {
		if f == "of" && i+1 < len(fields) {
			fmt.Sscan(fields[i+1], &whole)
			break
		}
		var n int
		fmt.Sscan(f, &n)
		held = append(held, n)
	}
	return held, whole
}

// TestDistributedSlabs: ranks that sample (a field) or read (a NIfTI
// file, resampled) only their bricks' slabs of the volume, none the whole
// dataset but rank 0 for its check, composite the single-process image
// bit for bit on 1 to 4 ranks; each holds only its slab (a rank's samples
// are its cell layers' sample layers and one beyond each face, fewer than
// the volume's on 2 ranks or more); with -check=false no rank builds the
// whole dataset.
func TestDistributedSlabs(t *testing.T) {
	const res = 20
	for np := 1; np <= 4; np++ {
		out, err, took := mpirun(t, np, 5*time.Minute, "-width", "64", "-height", "64", "-res", fmt.Sprint(res), "-frames", "2", "-split", "bricks", "-resolve", "ranks", "-views", "(45,45),M(0,0)")
		if err != nil || strings.Contains(out, "DIFFERS") || !strings.Contains(out, "bit for bit") {
			t.Fatalf("%d ranks: %v\n%s", np, err, out)
		}
		held, whole := heldSamples(t, out)
		if len(held) != np || whole != res*res*res {
			t.Fatalf("%d ranks: samples held %v of %d:\n%s", np, held, whole, out)
		}
		b := distributed.Partition(res-1, np)
		for r, n := range held {
			lo, hi := max(b[r]-1, 0), min(b[r+1]+1, res-1)
			if n != res*res*(hi-lo+1) {
				t.Fatalf("%d ranks: rank %d holds %d samples, its brick [%d, %d) needs %d:\n%s", np, r, n, b[r], b[r+1], res*res*(hi-lo+1), out)
			}
		}
		t.Logf("%d ranks: %v, samples held %v of %d", np, took.Round(time.Millisecond), held, whole)
	}
	out, err, _ := mpirun(t, 3, 5*time.Minute, "-width", "64", "-height", "64", "-res", "24", "-frames", "2", "-split", "bricks", "-resolve", "ranks", "-check=false")
	if err != nil || !strings.Contains(out, "not checked (-check=false)") || strings.Contains(out, "dataset:") || strings.Contains(out, "bit for bit") {
		t.Fatalf("-check=false: %v\n%s", err, out)
	}
	const ch2 = "/usr/share/mricron/templates/ch2.nii.gz"
	if _, err := os.Stat(ch2); err != nil {
		t.Logf("%s not installed: no NIfTI run", ch2)
		return
	}
	out, err, _ = mpirun(t, 3, 5*time.Minute, "-width", "64", "-height", "64", "-res", "24", "-frames", "2", "-split", "bricks", "-resolve", "ranks", "-views", "(0,0)", "-volume", ch2)
	if err != nil || strings.Contains(out, "DIFFERS") || !strings.Contains(out, "bit for bit") {
		t.Fatalf("-volume %s: %v\n%s", ch2, err, out)
	}
}
