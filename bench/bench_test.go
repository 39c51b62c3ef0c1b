package main

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
)

// The copy kernels and the driver's copy move 16 MiB at some bandwidth,
// the best kernel among those tried; quick prints it.
func TestCopyMeasuresBandwidth(t *testing.T) {
	c := gputest.Context(t)
	r, err := measureCopy(c, 16<<20, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r.Bytes != 16<<20 || !slices.Contains(copyKernels, r.Best) || r.GBps <= 0 || r.DriverGBps <= 0 || r.GPU.Reps != 1 {
		t.Fatalf("%+v", r)
	}
	if err := run([]string{"quick"}, io.Discard); err != nil {
		t.Fatal(err)
	}
}

func TestBadArguments(t *testing.T) {
	if err := run([]string{"nonsense"}, io.Discard); err == nil || !strings.Contains(err.Error(), `unknown command "nonsense"`) {
		t.Fatalf("unknown command: %v", err)
	}
	if _, err := parseSizes("64M,x"); err == nil || !strings.Contains(err.Error(), `"x"`) {
		t.Fatalf("bad size: %v", err)
	}
	if s, err := parseSizes("512K,2M,1G"); err != nil || s[0] != 512<<10 || s[1] != 2<<20 || s[2] != 1<<30 {
		t.Fatalf("parseSizes: %v %v", s, err)
	}
}
