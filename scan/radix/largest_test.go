package radix_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan/radix"
)

// TestLargest sorts arrays that fill a buffer of the largest size the
// driver allows (GL_MAX_SHADER_STORAGE_BLOCK_SIZE, capped at 2^26 keys to
// bound host memory and time on GPUs with larger limits): uint32 keys
// alone on both paths, and int32 keys with uint32 values (their input
// indices, which show stability) on the default path. The arrays fill
// their buffers, so there is no room for guard regions: the CPU checks
// every element, and a write past the end falls outside the buffer.
func TestLargest(t *testing.T) {
	if testing.Short() {
		t.Skip("sorts 2^25 keys three times")
	}
	c := gputest.Context(t)
	n := int(min(c.Caps().MaxSSBOSize/4, 1<<26))
	rng := gputest.Rand(t)
	keys := make([]uint32, n)
	for i := range keys {
		keys[i] = rng.Uint32()
	}
	want := slices.Clone(keys)
	slices.Sort(want)
	kb := upload(t, c, keys)
	tmp := upload(t, c, make([]uint32, n))
	for _, p := range []radix.Path{radix.PathOneSweep, radix.PathCounts} {
		s := newSorter(t, c, config{opt: radix.Options{Path: p}})
		what := fmt.Sprintf("SortKeys uint32 n=%d (%d bytes), %v", n, 4*n, p)
		kb.Write(0, keys)
		if err := radix.SortKeys(s, gpu.Array[uint32](kb), tmp, radix.Order{}); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		got := kb.Download()
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: [%d] = %d, want %d", what, i, got[i], want[i])
			}
		}
		if pl := s.LastPlan(); pl.Path != p {
			t.Fatalf("%s: ran %v", what, pl)
		}
		t.Logf("%s: %v", what, s.LastPlan())
	}

	// Pairs: few distinct keys, so that long runs of equal keys must keep
	// their input order.
	ik := make([]int32, n)
	idx := make([]uint32, n)
	for i := range ik {
		ik[i] = int32(rng.Uint32()>>20) - 2048
		idx[i] = uint32(i)
	}
	perm := cpuOrder(ik, radix.Order{Descending: true})
	ikb := upload(t, c, ik)
	itmp := upload(t, c, make([]int32, n))
	vb := upload(t, c, idx)
	s := newSorter(t, c, config{})
	what := fmt.Sprintf("SortPairs int32 descending n=%d", n)
	if err := radix.SortPairs(s, gpu.Array[int32](ikb), itmp, gpu.Array[uint32](vb), tmp, radix.Order{Descending: true}); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	gk, gv := ikb.Download(), vb.Download()
	for i, p := range perm {
		if gk[i] != ik[p] || gv[i] != uint32(p) {
			t.Fatalf("%s: [%d] = (%d, %d), want (%d, %d)", what, i, gk[i], gv[i], ik[p], p)
		}
	}
	t.Logf("%s: %v", what, s.LastPlan())
}
