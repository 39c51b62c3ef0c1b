package main

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
)

func TestSortTable(t *testing.T) {
	gputest.Context(t)
	var out bytes.Buffer
	if err := run([]string{"sort", "-log2", "10,14", "-reps", "2", "-warmup", "1"}, &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"radix sort of uint32 keys on", "vs CPU", "one-sweep", "counts", "2^10", "2^14"} {
		if !strings.Contains(s, want) {
			t.Fatalf("output lacks %q:\n%s", want, s)
		}
	}
	// Every row has a positive rate and two positive ratios.
	row := regexp.MustCompile(`(?m)^.*(one-sweep|counts)\s+[\d.]+ [mu]?s\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(one-sweep|counts), `)
	rows := row.FindAllStringSubmatch(s, -1)
	if len(rows) != 4 {
		t.Fatalf("want 4 rows (2 sizes x 2 paths):\n%s", s)
	}
	// Each path prints its profiled sort's passes: at 2^14 keys, 4 passes.
	pass := regexp.MustCompile(`(?m)^\s+pass (\d) +[\d.]+ [mu]?s +([\d.]+)  .*scatter`)
	if got := len(pass.FindAllString(s, -1)); got != 2*2*4 {
		t.Fatalf("want 16 pass rows (2 sizes x 2 paths x 4 passes), got %d:\n%s", got, s)
	}
	for _, r := range rows {
		if r[1] != r[5] {
			t.Fatalf("row of path %s ran %s: %q", r[1], r[5], r[0])
		}
		for _, v := range r[2:5] {
			if f, err := strconv.ParseFloat(v, 64); err != nil || !(f > 0) {
				t.Fatalf("rate or ratio %q is not positive in %q", v, r[0])
			}
		}
	}
}
