package main

import (
	"io"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// The GPU's extraction at two grid sizes makes triangles, as many as the
// CPU reference's (measureIso checks), and is timed once each.
func TestIsoMeasuresExtraction(t *testing.T) {
	c := gputest.Context(t)
	e, err := isosurface.NewExtractor(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Delete()
	prev := 0
	for _, n := range []int{20, 33} {
		r, err := measureIso(c, e, volume.Default(), n, 0, 1, true)
		if err != nil {
			t.Fatal(err)
		}
		if r.N != n || r.Triangles <= prev || r.GPU.Reps != 1 || r.GPU.Median <= 0 || r.CPU <= 0 {
			t.Fatalf("%d^3: %+v", n, r)
		}
		prev = r.Triangles
	}
	// The command prints it, with Table 1 of a small default dataset.
	if err := run([]string{"iso", "-sizes", "20", "-res", "24", "-reps", "1", "-warmup", "0", "-width", "128", "-height", "96"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"iso", "-sizes", "1"}, io.Discard); err == nil || !strings.Contains(err.Error(), `invalid value "1" for flag -sizes`) {
		t.Fatalf("bad size: %v", err)
	}
	if err := run([]string{"iso", "-field", "cube"}, io.Discard); err == nil || !strings.Contains(err.Error(), `invalid value "cube" for flag -field`) {
		t.Fatalf("bad field: %v", err)
	}
}
