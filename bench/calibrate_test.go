package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
)

// A -calibration file that is not a calibration (a volume given by
// mistake) is refused by every command that would write one, before
// anything is measured, and stays byte for byte as it was.
func TestForeignCalibrationFileIsRefused(t *testing.T) {
	gputest.Context(t)
	path := filepath.Join(t.TempDir(), "ch2.nii.gz")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(append([]byte{92, 1, 0, 0}, make([]byte, 344)...)) // a NIfTI-1 header's sizeof_hdr, then zeros
	zw.Close()
	if err := os.WriteFile(path, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"calibrate", "-res", "12", "-width", "32", "-height", "32", "-views", "(0,0)", "-lanes", "all", "-reps", "1"},
		{"render", "-res", "12", "-width", "32", "-height", "32", "-views", "(0,0)", "-lanes", "all", "-reps", "1", "-warmup", "0", "-out", ""},
		{"balance", "-p", "500", "-max", "16", "-reps", "1", "-warmup", "0", "-workloads", "one-heavy"},
	} {
		var out bytes.Buffer
		err := run(append(args, "-calibration", path), &out)
		if err == nil || !strings.Contains(err.Error(), "-calibration "+path) || !strings.Contains(err.Error(), "not a calibration file") ||
			!strings.Contains(err.Error(), "nothing will be written to it") {
			t.Fatalf("%s with a .nii.gz as -calibration: %v\n%s", args[0], err, out.String())
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, gz.Bytes()) {
			t.Fatalf("%s changed the file given as -calibration", args[0])
		}
	}
}
