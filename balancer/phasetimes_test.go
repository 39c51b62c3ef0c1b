package balancer

import (
	"slices"
	"testing"
	"time"
)

// Merging two records equals recording both sets of durations in one.
func TestPhaseTimesMerge(t *testing.T) {
	a, b := []time.Duration{5, 2, 9}, []time.Duration{1, 12}
	var ta, tb, want PhaseTimes
	for _, d := range a {
		ta.add(d)
		want.add(d)
	}
	for _, d := range b {
		tb.add(d)
		want.add(d)
	}
	var empty PhaseTimes
	ta.Merge(empty) // an empty record changes nothing, Min included
	empty.Merge(ta) // and an empty record takes the other's
	ta.Merge(tb)
	if ta.N != want.N || ta.Min != want.Min || ta.Max != want.Max || ta.Total != want.Total || !slices.Equal(ta.All, want.All) {
		t.Fatalf("merged %+v, want %+v", ta, want)
	}
	if empty.N != 3 || empty.Min != 2 || empty.Max != 9 || empty.Total != 16 {
		t.Fatalf("merged into an empty record: %+v", empty)
	}
}
