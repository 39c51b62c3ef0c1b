package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
)

func TestIsoPrintsThroughputAndTable1(t *testing.T) {
	gputest.Context(t)
	var out bytes.Buffer
	if err := run([]string{"iso", "-sizes", "20,33", "-res", "24", "-reps", "1", "-warmup", "0", "-width", "128", "-height", "96"}, &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"marching cubes on", "Gvoxels/s", "Mtris/s", "perforator 24^3", "at 128x96", "(0,0)", "M(45,45)"} {
		if !strings.Contains(s, want) {
			t.Fatalf("output lacks %q:\n%s", want, s)
		}
	}
	row := regexp.MustCompile(`(?m)^\s+33³\s+(\d+)\s+[\d.]+ [mu]?s`)
	if m := row.FindStringSubmatch(s); m == nil || m[1] == "0" {
		t.Fatalf("no plausible 33^3 row:\n%s", s)
	}
	if err := run([]string{"iso", "-sizes", "1"}, &out); err == nil || !strings.Contains(err.Error(), `"1"`) {
		t.Fatalf("bad size: %v", err)
	}
	if err := run([]string{"iso", "-field", "cube"}, &out); err == nil || !strings.Contains(err.Error(), "cube") {
		t.Fatalf("bad field: %v", err)
	}
}
