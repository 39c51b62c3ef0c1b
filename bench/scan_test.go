package main

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
)

func TestScanTable(t *testing.T) {
	gputest.Context(t)
	var out bytes.Buffer
	if err := run([]string{"scan", "-log2", "14,16", "-reps", "2", "-warmup", "1"}, &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"scan on", "vs copy", "look-back/shared", "reduce-then-scan/shared", "2^14", "2^16"} {
		if !strings.Contains(s, want) {
			t.Fatalf("output lacks %q:\n%s", want, s)
		}
	}
	// Every row has two positive rates and two positive ratios.
	row := regexp.MustCompile(`(?m)^.*(look-back|reduce-then-scan)/\w+\s+[\d.]+ [mu]?s\s+([\d.]+)\s+([\d.]+)\s+[\d.]+ [mu]?s\s+([\d.]+)\s+([\d.]+)$`)
	rows := row.FindAllStringSubmatch(s, -1)
	if len(rows) < 4 {
		t.Fatalf("want at least 4 rows (2 sizes x 2 paths):\n%s", s)
	}
	for _, r := range rows {
		for _, v := range r[2:] {
			if f, err := strconv.ParseFloat(v, 64); err != nil || !(f > 0) {
				t.Fatalf("rate or ratio %q is not positive in %q", v, r[0])
			}
		}
	}
	if _, err := parseLog2Sizes("16,x"); err == nil {
		t.Fatal("parseLog2Sizes accepted x")
	}
}
