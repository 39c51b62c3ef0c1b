//go:build mpi

package main

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestDistributedFlagMismatch: ranks started with different -res (an MPMD
// mpirun) end the job with a message naming the flag and the ranks, not
// MPI's bare MPI_ERR_TRUNCATE of the first collective whose sizes differ.
func TestDistributedFlagMismatch(t *testing.T) {
	bin := mpiBench(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	small := []string{"distributed", "-width", "64", "-height", "64", "-frames", "1", "-sets", "balanced", "-balance", "Static", "-views", "(0,0)"}
	args := []string{"--oversubscribe", "--allow-run-as-root", "-np", "1", bin}
	args = append(append(args, small...), "-res", "16", ":", "-np", "1", bin)
	args = append(append(args, small...), "-res", "20")
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, "mpirun", args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("still running after a minute:\n%s", out.String())
	}
	if err == nil {
		t.Fatalf("the job succeeded:\n%s", out.String())
	}
	for _, w := range []string{"rank 1: started with -res 20, unlike rank 0", "same flags"} {
		if !strings.Contains(out.String(), w) {
			t.Fatalf("no %q in the output:\n%s", w, out.String())
		}
	}
}

// TestDistributedHungRootTimeout: a hung rank 0 under -timeout 5s is
// reported by the others with the limit they waited and the -timeout the
// user gave (on main: "within -timeout 10s").
func TestDistributedHungRootTimeout(t *testing.T) {
	out, err, _ := mpirun(t, 2, time.Minute, "-width", "64", "-height", "64", "-res", "16", "-frames", "1", "-sets", "balanced",
		"-balance", "Static", "-views", "(0,0)", "-fail", "0:hang", "-timeout", "5s")
	if err == nil {
		t.Fatalf("the job succeeded:\n%s", out)
	}
	if !strings.Contains(out, "within 10s (twice -timeout 5s") || strings.Contains(out, "-timeout 10s") {
		t.Fatalf("the message does not report -timeout 5s:\n%s", out)
	}
}
