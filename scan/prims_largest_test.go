package scan_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// TestPrimitivesLargestBuffer runs each primitive built on the scans on
// inputs that fill a buffer of the largest size the driver allows (capped
// at 2^26 elements to bound host memory and time on GPUs with larger
// limits), with the default Scanner. Outputs as long as the input fill
// their buffers too, so they have no guard regions: the CPU loop checks
// every element, and a write past the end falls outside the buffer.
// Shorter outputs (histograms, segment reductions) are guarded.
func TestPrimitivesLargestBuffer(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the largest buffers take minutes on a CPU renderer")
	}
	c := gputest.Context(t)
	n := int(min(c.Caps().MaxSSBOSize/4, 1<<26))
	s := primScanner(t, c, config{opt: scan.Options{}})
	rng := gputest.Rand(t)
	t.Logf("n = %d (%d MiB per array)", n, 4*n>>20)

	fl := input[float32](rng, "special", n)
	gf := upload(t, c, fl)
	out := upload(t, c, make([]uint32, n))
	outF := upload(t, c, make([]float32, n))

	for _, bins := range []int{256, 5000} {
		what := fmt.Sprintf("HistogramEven float32, %d bins", bins)
		g := guarded(t, c, bins, uint32(0xDEADBEEF), nil)
		scan.HistogramEven(s, g.View, gpu.Array[float32](gf), -1, 1)
		checkBits(t, what, g.Check(t, what), cpuHistEven(fl, bins, -1, 1))
	}
	u := input[uint32](rng, "random", n)
	gu := upload(t, c, u)
	bnd := input[uint32](rng, "random", 1001)
	slices.Sort(bnd)
	g := guarded(t, c, 1000, uint32(0xDEADBEEF), nil)
	scan.HistogramRange(s, g.View, gpu.Array[uint32](gu), gpu.Array[uint32](upload(t, c, bnd)))
	checkBits(t, "HistogramRange uint32", g.Check(t, "HistogramRange"), cpuHistRange(u, bnd))

	// Select and partition: the floats below 0.25 (not NaN).
	var sel, rej []float32
	for _, x := range fl {
		if x < 0.25 {
			sel = append(sel, x)
		} else {
			rej = append(rej, x)
		}
	}
	k, err := scan.SelectIf(s, gpu.Array[float32](outF), gpu.Array[float32](gf), "x < 0.25")
	if err != nil || k != len(sel) {
		t.Fatalf("SelectIf: %d, %v; want %d", k, err, len(sel))
	}
	checkBits(t, "SelectIf", outF.Download()[:k], sel)
	k, err = scan.PartitionIf(s, gpu.Array[float32](outF), gpu.Array[float32](gf), "x < 0.25")
	if err != nil || k != len(sel) {
		t.Fatalf("PartitionIf: %d, %v; want %d", k, err, len(sel))
	}
	checkBits(t, "PartitionIf", outF.Download(), append(sel, rej...))
	sel, rej = nil, nil

	// Transform in place: the sign flipped.
	want := make([]float32, n)
	for i, x := range fl {
		want[i] = math.Float32frombits(math.Float32bits(x) ^ 0x80000000)
	}
	if err := scan.Transform(s, gpu.Array[float32](gf), gpu.Array[float32](gf), "-x"); err != nil {
		t.Fatal(err)
	}
	checkBits(t, "Transform in place", gf.Download(), want)
	want = nil

	// Runs: keys in runs of 1 to 16.
	keys := make([]uint32, n)
	for i := range keys {
		if i == 0 || rng.IntN(8) == 0 {
			keys[i] = rng.Uint32()
		} else {
			keys[i] = keys[i-1]
		}
	}
	gk := upload(t, c, keys)
	wu, wl, starts := cpuRuns(keys)
	lengths := upload(t, c, make([]uint32, n))
	if k := scan.RunLengthEncode(s, gpu.Array[uint32](out), gpu.Array[uint32](lengths), gpu.Array[uint32](gk)); k != len(wu) {
		t.Fatalf("RunLengthEncode: %d runs, want %d", k, len(wu))
	}
	checkBits(t, "RunLengthEncode unique", out.Download()[:len(wu)], wu)
	checkBits(t, "RunLengthEncode lengths", lengths.Download()[:len(wu)], wl)
	if k := scan.ReduceByKey(s, gpu.Array[uint32](out), gpu.Array[uint32](lengths), gpu.Array[uint32](gk), gpu.Array[uint32](gu), scan.Add); k != len(wu) {
		t.Fatalf("ReduceByKey: %d runs, want %d", k, len(wu))
	}
	sums := make([]uint32, len(wu))
	for r, st := range starts {
		for _, v := range u[st : st+int(wl[r])] {
			sums[r] += v
		}
	}
	checkBits(t, "ReduceByKey keys", out.Download()[:len(wu)], wu)
	checkBits(t, "ReduceByKey sums", lengths.Download()[:len(wu)], sums)

	// Segmented reduce over the runs' starts (their offsets), and the
	// load-balancing search and interval expand over the runs' lengths.
	offs := make([]uint32, len(starts)+1)
	for r, st := range starts {
		offs[r] = uint32(st)
	}
	offs[len(starts)] = uint32(n)
	gs := guarded(t, c, len(starts), uint32(0xDEADBEEF), nil)
	scan.SegmentedReduce(s, gs.View, gpu.Array[uint32](gu), gpu.Array[uint32](upload(t, c, offs)), scan.Add, 0)
	checkBits(t, "SegmentedReduce", gs.Check(t, "SegmentedReduce"), sums)

	gOffs := upload(t, c, offs[:len(starts)])
	scan.LoadBalancingSearch(s, gpu.Array[uint32](out), gpu.Array[uint32](lengths), gpu.Array[uint32](gOffs))
	seg, rank := out.Download(), lengths.Download()
	for g := range n {
		r := seg[g]
		if r >= uint32(len(starts)) || uint32(starts[r]) > uint32(g) || uint32(g)-uint32(starts[r]) >= wl[r] || rank[g] != uint32(g-starts[r]) {
			t.Fatalf("LoadBalancingSearch: item %d: segment %d rank %d", g, r, rank[g])
		}
	}
	scan.IntervalExpand(s, gpu.Array[uint32](out), gpu.Array[uint32](upload(t, c, wu)), gpu.Array[uint32](gOffs))
	checkBits(t, "IntervalExpand", out.Download(), keys)
}

// The primitives give the same bits on every run, float sums included,
// whatever the scheduling of the look-back: the same Scanner three times,
// and a second Scanner of the same shape.
func TestPrimitivesDeterministic(t *testing.T) {
	c := gputest.Context(t)
	s1 := primScanner(t, c, config{opt: scan.Options{Path: scan.PathLookBack, GroupSize: 8, Vectors: 1}})
	s2 := primScanner(t, c, config{opt: scan.Options{Path: scan.PathLookBack, GroupSize: 8, Vectors: 1}})
	rng := gputest.Rand(t)
	n := 37*s1.TileSize() + 5
	keys := input[uint32](rng, "narrow", n)
	vals := input[float32](rng, "random", n)
	gk, gv := upload(t, c, keys), upload(t, c, vals)
	offs := []uint32{0}
	for offs[len(offs)-1] < uint32(n) {
		offs = append(offs, min(offs[len(offs)-1]+uint32(rng.IntN(200)), uint32(n)))
	}
	gOffs := upload(t, c, offs)
	run := func(s *scan.Scanner) []float32 {
		uk := upload(t, c, make([]uint32, n))
		sums := upload(t, c, make([]float32, n))
		k := scan.ReduceByKey(s, gpu.Array[uint32](uk), gpu.Array[float32](sums), gpu.Array[uint32](gk), gpu.Array[float32](gv), scan.Add)
		seg := upload(t, c, make([]float32, len(offs)-1))
		scan.SegmentedReduce(s, gpu.Array[float32](seg), gpu.Array[float32](gv), gpu.Array[uint32](gOffs), scan.Add, 0.5)
		part := upload(t, c, make([]float32, n))
		if _, err := scan.PartitionIf(s, gpu.Array[float32](part), gpu.Array[float32](gv), "x > 0.0"); err != nil {
			t.Fatal(err)
		}
		return slices.Concat(sums.Download()[:k], seg.Download(), part.Download())
	}
	first := run(s1)
	for i, s := range []*scan.Scanner{s1, s1, s2} {
		checkBits(t, fmt.Sprintf("run %d", i+2), run(s), first)
	}
}
