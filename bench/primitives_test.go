package main

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
)

// The primitives table has one row per primitive and size, each with a
// positive time, rate and ratios; every row's GPU answer was checked
// against its CPU loop (a mismatch is an error).
func TestPrimitivesTable(t *testing.T) {
	gputest.Context(t)
	var out bytes.Buffer
	if err := run([]string{"primitives", "-log2", "12,14", "-reps", "2", "-warmup", "1"}, &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"primitives on", "vs copy", "vs CPU", "2^12", "2^14"} {
		if !strings.Contains(s, want) {
			t.Fatalf("output lacks %q:\n%s", want, s)
		}
	}
	for _, b := range primBenches {
		if strings.Count(s, b.name) != 2 {
			t.Fatalf("want 2 rows of %q:\n%s", b.name, s)
		}
	}
	row := regexp.MustCompile(`(?m)^.{21}  (.{24}) +([\d.]+) [mu]?s +([\d.]+) +([\d.]+) +[\d.]+ [mun]?s +([\d.]+)$`)
	rows := row.FindAllStringSubmatch(s, -1)
	if len(rows) != 2*len(primBenches) {
		t.Fatalf("%d rows parse, want %d:\n%s", len(rows), 2*len(primBenches), s)
	}
	for _, r := range rows {
		if f, err := strconv.ParseFloat(r[2], 64); err != nil || !(f > 0) {
			t.Fatalf("time %q is not positive in %q", r[2], r[0])
		}
		// Rates and ratios of tiny arrays on a busy CPU may round to
		// 0.000, but are numbers.
		for _, v := range r[3:] {
			if f, err := strconv.ParseFloat(v, 64); err != nil || f < 0 {
				t.Fatalf("rate or ratio %q is not a number in %q", v, r[0])
			}
		}
	}
	if err := run([]string{"primitives", "-log2", "12", "-only", "no such row"}, &out); err == nil || !strings.Contains(err.Error(), "matches no row") {
		t.Fatalf("-only with no match: %v", err)
	}
}
