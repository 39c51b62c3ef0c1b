package scan_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// TestFamiliesLargestBuffer runs the families on inputs that fill a
// buffer of the largest size the driver allows (capped at 2^26 elements),
// with the default Scanner, against plain loops; outputs that fill their
// buffers have no guard regions (a write past the end falls outside the
// buffer), shorter ones are guarded.
func TestFamiliesLargestBuffer(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the largest buffers take minutes on a CPU renderer")
	}
	c := gputest.Context(t)
	n := int(min(c.Caps().MaxSSBOSize/4, 1<<26))
	s := primScanner(t, c, config{opt: scan.Options{}})
	rng := gputest.Rand(t)
	t.Logf("n = %d (%d MiB per array)", n, 4*n>>20)

	keys := runKeys[uint32](rng, n, 9)
	kb := gpu.Array[uint32](upload(t, c, keys))
	vals := input[uint32](rng, "random", n)
	vb := gpu.Array[uint32](upload(t, c, vals))
	out := gpu.Array[uint32](upload(t, c, make([]uint32, n)))

	scan.InclusiveScanByKey(s, out, vb, kb, scan.Add)
	cpuScan(vals, cpuHeads(keys), scan.Add, 0, true).check(t, "InclusiveScanByKey", out.(*gpu.Buffer[uint32]).Download())

	scan.AdjacentDifference(s, out, vb)
	want := make([]uint32, n)
	for i := range vals {
		want[i] = vals[i]
		if i > 0 {
			want[i] -= vals[i-1]
		}
	}
	checkBits(t, "AdjacentDifference", out.(*gpu.Buffer[uint32]).Download(), want)

	wu, _, starts := cpuRuns(keys)
	gk := guarded(t, c, len(wu), uint32(0xDEADBEEF), nil)
	gv := guarded(t, c, len(wu), uint32(0xDEADBEEF), nil)
	if k := scan.UniqueByKey(s, gk.View, gv.View, kb, vb); k != len(wu) {
		t.Fatalf("UniqueByKey: %d runs, want %d", k, len(wu))
	}
	checkBits(t, "UniqueByKey keys", gk.Check(t, "UniqueByKey"), wu)
	for r, st := range starts {
		wu[r] = vals[st]
	}
	checkBits(t, "UniqueByKey values", gv.Check(t, "UniqueByKey"), wu)
	wu, starts = nil, nil

	wo, wl := cpuNonTrivialRuns(keys)
	gOff := guarded(t, c, len(wo), uint32(0xDEADBEEF), nil)
	gLen := guarded(t, c, len(wo), uint32(0xDEADBEEF), nil)
	if k := scan.NonTrivialRuns(s, gOff.View, gLen.View, kb); k != len(wo) {
		t.Fatalf("NonTrivialRuns: %d runs, want %d", k, len(wo))
	}
	checkBits(t, "NonTrivialRuns offsets", gOff.Check(t, "NonTrivialRuns"), wo)
	checkBits(t, "NonTrivialRuns lengths", gLen.Check(t, "NonTrivialRuns"), wl)
	wo, wl = nil, nil

	// Merge two sorted halves of the values; the merge of them is their
	// sort.
	h := n / 2
	slices.Sort(vals[:h])
	slices.Sort(vals[h:])
	vb.Write(0, vals)
	vbuf := vb.(*gpu.Buffer[uint32])
	scan.Merge(s, out, gpu.Array[uint32](vbuf.Slice(0, h)), gpu.Array[uint32](vbuf.Slice(h, n-h)))
	got := out.(*gpu.Buffer[uint32]).Download()
	slices.Sort(vals)
	checkBits(t, "Merge", got, vals)

	// Lower bounds of the keys in the sorted values.
	vb.Write(0, vals)
	scan.LowerBound(s, out, gpu.Array[uint32](vbuf), kb)
	got = out.(*gpu.Buffer[uint32]).Download()
	for i, k := range keys {
		w, _ := slices.BinarySearch(vals, k)
		if int(got[i]) != w {
			t.Fatalf("LowerBound: [%d] = %d, want %d", i, got[i], w)
		}
	}

	// Four channels, three counted.
	bins, lo, hi := []int{256, 1000, 3}, []uint32{0, 0, 1 << 30}, []uint32{1 << 31, 1 << 20, 1 << 31}
	var counts []gpu.Array[uint32]
	var gs []*gputest.Guarded[uint32]
	for _, b := range bins {
		g := guarded(t, c, b, uint32(0xDEADBEEF), nil)
		gs, counts = append(gs, g), append(counts, g.View)
	}
	px := n / 4 * 4
	scan.MultiHistogramEven(s, counts, gpu.Array[uint32](vbuf.Slice(0, px)), 4, lo, hi)
	for k, g := range gs {
		ch := make([]uint32, px/4)
		for p := range ch {
			ch[p] = vals[4*p+k]
		}
		what := fmt.Sprintf("MultiHistogramEven channel %d", k)
		checkBits(t, what, g.Check(t, what), cpuHistEven(ch, bins[k], lo[k], hi[k]))
	}
}
