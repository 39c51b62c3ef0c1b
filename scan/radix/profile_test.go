package radix_test

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan/radix"
)

// TestProfiling: a profiled sort gives the same keys as an unprofiled one
// and names its steps in order, one per stage of each pass; turning
// profiling off records none again.
func TestProfiling(t *testing.T) {
	c := gputest.Context(t)
	for _, tc := range []struct {
		path  radix.Path
		bits  int
		order radix.Order
		want  []string // the steps, "name/pass"
	}{
		{radix.PathOneSweep, 8, radix.Order{}, []string{"histograms/-1", "bases/-1", "scatter/0", "scatter/1", "scatter/2", "scatter/3"}},
		{radix.PathCounts, 8, radix.Order{End: 24}, []string{"counts/0", "scan/0", "scatter/0", "counts/1", "scan/1", "scatter/1", "counts/2", "scan/2", "scatter/2", "copy back/-1"}},
		{radix.PathOneSweep, 8, radix.Order{Begin: 8, End: 16}, []string{"histograms/-1", "bases/-1", "scatter/0", "copy back/-1"}},
	} {
		s, err := radix.NewWithOptions(c, radix.Options{Path: tc.path, DigitBits: tc.bits, GroupSize: 8, Items: 4})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(7, uint64(tc.order.End)))
		keys := make([]uint32, 1000)
		for i := range keys {
			keys[i] = rng.Uint32()
		}
		want := slices.Clone(keys)
		lo, hi := uint(tc.order.Begin), uint(tc.order.End)
		if hi == 0 {
			hi = 32
		}
		slices.SortStableFunc(want, func(a, b uint32) int {
			da, db := a<<(32-hi)>>(32-hi+lo), b<<(32-hi)>>(32-hi+lo)
			return int(int64(da) - int64(db))
		})
		kb, _ := gpu.NewBufferFrom(c, keys)
		tmp, _ := gpu.NewBuffer[uint32](c, len(keys))
		s.SetProfiling(true)
		if err := radix.SortKeys(s, kb, tmp, tc.order); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, st := range s.LastPlan().Steps {
			got = append(got, st.Name+"/"+strconv.Itoa(st.Pass))
			if st.Time < 0 {
				t.Errorf("%v: step %v has a negative time", tc.path, st)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%v %+v: steps %v, want %v", tc.path, tc.order, got, tc.want)
		}
		if out := kb.Download(); !slices.Equal(out, want) {
			t.Errorf("%v %+v: profiled sort misorders the keys", tc.path, tc.order)
		}
		s.SetProfiling(false)
		kb.Write(0, keys)
		if err := radix.SortKeys(s, kb, tmp, tc.order); err != nil {
			t.Fatal(err)
		}
		if st := s.LastPlan().Steps; st != nil {
			t.Errorf("%v: unprofiled sort recorded steps %v", tc.path, st)
		}
		if out := kb.Download(); !slices.Equal(out, want) {
			t.Errorf("%v %+v: unprofiled sort misorders the keys", tc.path, tc.order)
		}
		kb.Delete()
		tmp.Delete()
		s.Delete()
	}
}
