package distributed

import (
	"sync"
	"testing"
)

func TestPartner(t *testing.T) {
	for size := 1; size <= 7; size++ {
		for round := 0; round < 4; round++ {
			for r := 0; r < size; r++ {
				p := Partner(r, size, round)
				if p >= 0 && (Partner(p, size, round) != r || (p != r-1 && p != r+1)) {
					t.Fatalf("size %d round %d: rank %d's partner %d is not a neighbour whose partner it is", size, round, r, p)
				}
				if p < 0 && size > 1 && r != 0 && r != size-1 {
					t.Fatalf("size %d round %d: inner rank %d sits out", size, round, r)
				}
			}
			// Alternation: a rank's partners in rounds k and k+1 differ.
			for r := 1; r+1 < size; r++ {
				if Partner(r, size, round) == Partner(r, size, round+1) {
					t.Fatalf("size %d: rank %d has partner %d in rounds %d and %d", size, r, Partner(r, size, round), round, round+1)
				}
			}
		}
	}
}

// handoffRounds runs rounds of the protocol on ranks ranks over units
// units; before(rank, round) may block a rank's first piece. It checks
// that every unit is rendered exactly once a round and that the shares
// stay contiguous and cover the units, and returns the stats.
func handoffRounds(t *testing.T, ranks, units, slab, rounds int, moveCost float64, block func(rank, round int, a, b int, lo, hi int)) [][]HandoffStats {
	t.Helper()
	bounds := Partition(units, ranks)
	var all [][]HandoffStats
	for round := 0; round < rounds; round++ {
		var mu sync.Mutex
		done := make([]int, units)
		next := make([][2]int, ranks)
		stats := make([]HandoffStats, ranks)
		errs := runLocal(ranks, func(c Comm) error {
			r := c.Rank()
			h := &Handoff{Comm: c, Slab: slab, MoveCost: moveCost}
			lo, hi, st, err := h.Frame(round, bounds[r], bounds[r+1], func(a, b int) error {
				if block != nil {
					block(r, round, a, b, bounds[r], bounds[r+1])
				}
				mu.Lock()
				for u := a; u < b; u++ {
					done[u]++
				}
				mu.Unlock()
				return nil
			})
			next[r], stats[r] = [2]int{lo, hi}, st
			return err
		})
		for r, err := range errs {
			if err != nil {
				t.Fatalf("round %d: rank %d: %v", round, r, err)
			}
		}
		for u, n := range done {
			if n != 1 {
				t.Fatalf("round %d: unit %d rendered %d times (bounds %v, next %v)", round, u, n, bounds, next)
			}
		}
		for r := 0; r < ranks; r++ {
			if (r == 0 && next[r][0] != 0) || (r == ranks-1 && next[r][1] != units) || (r > 0 && next[r][0] != next[r-1][1]) || next[r][0] > next[r][1] {
				t.Fatalf("round %d: shares %v do not tile [0, %d)", round, next, units)
			}
			bounds[r+1] = next[r][1]
			if g, tk := stats[r].Gave, 0; g > 0 {
				if p := stats[r].Partner; p >= 0 {
					tk = stats[p].Took
				}
				if g != tk {
					t.Fatalf("round %d: rank %d gave %d units, its partner took %d", round, r, g, tk)
				}
			}
		}
		all = append(all, stats)
	}
	return all
}

// TestHandoffCoverage: whatever the timing, on 1 to 5 ranks with slabs
// that do and do not divide the shares, each round renders every unit
// once and the shares tile the units.
func TestHandoffCoverage(t *testing.T) {
	for ranks := 1; ranks <= 5; ranks++ {
		for _, units := range []int{0, 1, ranks, 97, 400} {
			for _, slab := range []int{1, 7, 64} {
				handoffRounds(t, ranks, units, slab, 4, 0, nil)
			}
		}
	}
}

// TestHandoffMoves: rank 1's first piece of round 0 waits until rank 0
// has rendered its whole share, so rank 0 reaches its checkpoint first and
// rank 1, still short of its own, must hand it pieces from the end
// nearest it; at a prohibitive move cost it hands none.
func TestHandoffMoves(t *testing.T) {
	for _, tc := range []struct {
		moveCost float64
		handoff  bool
	}{{0, true}, {1e9, false}} {
		var zeroDone sync.WaitGroup
		zeroDone.Add(1)
		var once sync.Once
		left := 0
		st := handoffRounds(t, 2, 800, 50, 1, tc.moveCost, func(rank, round, a, b, lo, hi int) {
			switch rank {
			case 0:
				if a < hi {
					left += b - a
				}
				if left == hi-lo {
					once.Do(zeroDone.Done)
				}
			case 1:
				zeroDone.Wait()
			}
		})
		gave, took := st[0][1].Gave, st[0][0].Took
		if !st[0][0].Signalled || st[0][1].Signalled {
			t.Fatalf("move cost %g: rank 0 signalled %v, rank 1 %v; want rank 0 alone", tc.moveCost, st[0][0].Signalled, st[0][1].Signalled)
		}
		if tc.handoff && (gave == 0 || gave%50 != 0 || gave > 350) {
			t.Fatalf("move cost %g: rank 1 gave %d units; want whole pieces of 50, some, from the 350 it had not begun", tc.moveCost, gave)
		}
		if !tc.handoff && (gave != 0 || took != 0) {
			t.Fatalf("move cost %g: rank 1 gave %d units", tc.moveCost, gave)
		}
	}
}
