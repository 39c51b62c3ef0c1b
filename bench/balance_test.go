package main

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
)

func TestBalancePrintsEveryPolicy(t *testing.T) {
	gputest.Context(t)
	cal := filepath.Join(t.TempDir(), "cal.json")
	var out bytes.Buffer
	args := []string{"balance", "-p", "2000", "-max", "48", "-reps", "1", "-warmup", "0", "-workloads", "balanced,one-heavy", "-calibration", cal, "-v"}
	if err := run(args, &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if !strings.Contains(s, "calibrated now") || !strings.Contains(s, "saved to "+cal) {
		t.Fatalf("no calibration was made:\n%s", s)
	}
	// Each policy's row: iterations, balances, gathers, counts, and a speedup.
	row := regexp.MustCompile(`(?m)^(balanced|one-heavy|\s+)\s+(Never|Always|CostEffective|Bounded)\s+48\s+[\d.]+\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+[\d.]+ [mu]?s\s+[\d.]+ [mu]?s\s+([\d.]+)x$`)
	rows := row.FindAllStringSubmatch(s, -1)
	if len(rows) != 8 {
		t.Fatalf("want 8 policy rows, found %d:\n%s", len(rows), s)
	}
	for _, r := range rows {
		it, _ := strconv.Atoi(r[3])
		if it < 1 || it > 48 {
			t.Fatalf("%s ran %d iterations:\n%s", r[2], it, s)
		}
		if r[2] == "Never" && (r[4] != "0" || r[5] != "0" || r[7] != "1.00") {
			t.Fatalf("Never balanced or gathered: %q", r[0])
		}
	}
	// The one-heavy workload is worth balancing for Always.
	if !regexp.MustCompile(`(?m)^\s+Always\s+48\s+[\d.]+\s+([1-9]|[1-3]\d)\s+[1-9]`).MatchString(s[strings.Index(s, "one-heavy"):]) {
		t.Fatalf("Always did not balance the one-heavy workload:\n%s", s)
	}
	// The second run reads the calibration instead of making one.
	out.Reset()
	if err := run(args[:len(args)-1], &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "from "+cal) {
		t.Fatalf("the calibration file was not reused:\n%s", out.String())
	}
	if err := run([]string{"balance", "-workloads", "lumpy"}, &out); err == nil || !strings.Contains(err.Error(), `unknown workload "lumpy"`) {
		t.Fatalf("bad workload: %v", err)
	}
}
