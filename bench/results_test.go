package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
)

// TestResults: bench results -quick writes a Markdown file with the
// machine's stamp and a section per measurement, each holding what its
// command printed; a folder in the way of -out is refused and left alone.
func TestResults(t *testing.T) {
	gputest.Context(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "RESULTS.md")
	var log bytes.Buffer
	if err := run([]string{"results", "-quick", "-out", out}, &log); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, want := range []string{"# dpgl: measured results", "| CPU | ", "| GL | ", "| commit | ", "-quick",
		"## The paper's experiment", "Table 1", "## The renderer against the GL pipeline", "## Scans", "## Sort", "slices.Sort", "## Primitives", "histogram"} {
		if !strings.Contains(doc, want) {
			t.Fatalf("no %q in %s:\n%s", want, out, doc)
		}
	}
	if n := strings.Count(doc, "```"); n%2 != 0 || n < 10 {
		t.Fatalf("%d code fences in %s", n, out)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("the folder holds %d entries after the run, want RESULTS.md alone: %v", len(entries), entries)
	}
	in := filepath.Join(dir, "in-the-way")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	err = run([]string{"results", "-quick", "-out", in}, &log)
	if err == nil || !strings.Contains(err.Error(), "-out") || !strings.Contains(err.Error(), in) {
		t.Fatalf("a folder as -out: %v", err)
	}
}
