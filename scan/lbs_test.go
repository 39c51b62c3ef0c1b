package scan_test

import (
	"fmt"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// lbsLayouts returns segment sizes that sum to about n: random with many
// empty segments, all in one, one per item, empty segments only around
// one big one, long runs of empties, and 70000 empties between two
// halves.
func lbsLayouts(n int, rnd func(int) int) map[string][]uint32 {
	out := map[string][]uint32{"one": {uint32(n)}, "none": {}}
	var r, unit, padded, gaps []uint32
	for left := n; left > 0; {
		k := 0
		if rnd(3) != 0 {
			k = min(left, rnd(70)+1)
		}
		r = append(r, uint32(k))
		left -= k
	}
	for range n {
		unit = append(unit, 1)
	}
	padded = append(make([]uint32, 100), uint32(n))
	padded = append(padded, make([]uint32, 100)...)
	for left := n; left > 0; {
		gaps = append(gaps, make([]uint32, rnd(3000))...)
		k := min(left, rnd(5)+1)
		gaps = append(gaps, uint32(k))
		left -= k
	}
	out["random"], out["unit"], out["padded"], out["gaps"] = r, unit, padded, gaps
	// More empty segments in a row than the walk steps through (4096), or
	// than a loop may count (65535).
	desert := append([]uint32{uint32(n / 2)}, make([]uint32, 70000)...)
	out["desert"] = append(desert, uint32(n-n/2))
	return out
}

func TestLoadBalancingSearch(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range passConfigs {
		t.Run(cfg.name, func(t *testing.T) {
			s := primScanner(t, c, cfg)
			rng := gputest.Rand(t)
			for _, n := range primSizes(s, cfg.full) {
				for name, sizes := range lbsLayouts(n, rng.IntN) {
					off := make([]uint32, len(sizes))
					var seg, rank []uint32
					sum := uint32(0)
					for p, k := range sizes {
						off[p] = sum
						for r := range k {
							seg, rank = append(seg, uint32(p)), append(rank, r)
						}
						sum += k
					}
					items := int(sum)
					ob := gpu.Array[uint32](upload(t, c, off))
					what := fmt.Sprintf("LoadBalancingSearch %d items, %s (%d segments)", items, name, len(sizes))
					gs := guarded(t, c, items, uint32(0xDEADBEEF), nil)
					gr := guarded(t, c, items, uint32(0xDEADBEEF), nil)
					scan.LoadBalancingSearch(s, gs.View, gr.View, ob)
					checkBits(t, what+" segment", gs.Check(t, what), seg)
					checkBits(t, what+" rank", gr.Check(t, what), rank)
					scan.LoadBalancingSearch(s, gs.View, nil, ob)
					checkBits(t, what+" segment without rank", gs.Check(t, what), seg)

					// Interval expand of 8-byte records.
					type rec struct{ A, B uint32 }
					vals := make([]rec, len(sizes))
					for p := range vals {
						vals[p] = rec{uint32(p), rng.Uint32()}
					}
					want := make([]rec, items)
					for i, p := range seg {
						want[i] = vals[p]
					}
					what = fmt.Sprintf("IntervalExpand %d items, %s", items, name)
					ge := guarded(t, c, items, rec{7, 7}, nil)
					scan.IntervalExpand(s, ge.View, gpu.Array[rec](upload(t, c, vals)), ob)
					checkBits(t, what, ge.Check(t, what), want)

					// And of one-word records, stored as vectors.
					vals1 := make([]uint32, len(sizes))
					for p := range vals1 {
						vals1[p] = rng.Uint32()
					}
					want1 := make([]uint32, items)
					for i, p := range seg {
						want1[i] = vals1[p]
					}
					what = fmt.Sprintf("IntervalExpand %d items of one word, %s", items, name)
					ge1 := guarded(t, c, items, uint32(7), nil)
					scan.IntervalExpand(s, ge1.View, gpu.Array[uint32](upload(t, c, vals1)), ob)
					checkBits(t, what, ge1.Check(t, what), want1)
				}
			}
			// Items before offsets[0] belong to no segment.
			ob := gpu.Array[uint32](upload(t, c, []uint32{3, 5}))
			gs := guarded(t, c, 7, uint32(0xDEADBEEF), nil)
			gr := guarded(t, c, 7, uint32(0xDEADBEEF), nil)
			scan.LoadBalancingSearch(s, gs.View, gr.View, ob)
			const no = 0xFFFFFFFF
			checkBits(t, "items before offsets[0]: segment", gs.Check(t, "segment"), []uint32{no, no, no, 0, 0, 1, 1})
			checkBits(t, "items before offsets[0]: rank", gr.Check(t, "rank"), []uint32{no, no, no, 0, 1, 0, 1})
			gs.View.Write(0, []uint32{9, 9, 9, 9, 9, 9, 9})
			scan.IntervalExpand(s, gs.View, gpu.Array[uint32](upload(t, c, []uint32{4, 5})), ob)
			checkBits(t, "IntervalExpand, items before offsets[0]", gs.Check(t, "IntervalExpand"), []uint32{9, 9, 9, 4, 4, 5, 5})
			// The same past the first vectors and invocations: 37 items
			// before offsets[0], segments of 13 and 51 items.
			ob = gpu.Array[uint32](upload(t, c, []uint32{37, 50}))
			want, wseg, wrank := make([]uint32, 101), make([]uint32, 101), make([]uint32, 101)
			for g := range want {
				want[g], wseg[g], wrank[g] = 9, no, no
				if g >= 37 {
					p := uint32(min(g, 50) / 50)
					want[g], wseg[g], wrank[g] = 4+p, p, uint32(g)-[]uint32{37, 50}[p]
				}
			}
			gs = guarded(t, c, 101, uint32(0xDEADBEEF), nil)
			gr = guarded(t, c, 101, uint32(0xDEADBEEF), nil)
			scan.LoadBalancingSearch(s, gs.View, gr.View, ob)
			checkBits(t, "37 items before offsets[0]: segment", gs.Check(t, "segment"), wseg)
			checkBits(t, "37 items before offsets[0]: rank", gr.Check(t, "rank"), wrank)
			nines := make([]uint32, 101)
			for g := range nines {
				nines[g] = 9
			}
			gs.View.Write(0, nines)
			scan.IntervalExpand(s, gs.View, gpu.Array[uint32](upload(t, c, []uint32{4, 5})), ob)
			checkBits(t, "IntervalExpand, 37 items before offsets[0]", gs.Check(t, "IntervalExpand"), want)
		})
	}
}
