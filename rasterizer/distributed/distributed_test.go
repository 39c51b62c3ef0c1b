package distributed

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/raster"
)

func TestPartition(t *testing.T) {
	for _, n := range []int{0, 1, 2, 5, 255, 256, 257, 10007} {
		for ranks := 1; ranks <= 9; ranks++ {
			b := Partition(n, ranks)
			if len(b) != ranks+1 || b[0] != 0 || b[ranks] != n {
				t.Fatalf("Partition(%d, %d) = %v", n, ranks, b)
			}
			for r := 0; r < ranks; r++ {
				if c := b[r+1] - b[r]; c != n/ranks && c != n/ranks+1 {
					t.Fatalf("Partition(%d, %d) = %v: share %d has %d", n, ranks, b, r, c)
				}
			}
		}
	}
}

func TestGlobalize(t *testing.T) {
	w := []uint64{rasterizer.EmptyVisibility, 5<<32 | 0, 7<<32 | 9, 1<<32 | uint64(raster.NoPrimitive)}
	Globalize(w, 100)
	want := []uint64{rasterizer.EmptyVisibility, 5<<32 | 100, 7<<32 | 109, 1<<32 | uint64(raster.NoPrimitive)}
	for i := range w {
		if w[i] != want[i] {
			t.Fatalf("word %d: %#x, want %#x", i, w[i], want[i])
		}
	}
}

// TestCompositeLocal runs Composite on 1 to 6 in-process ranks for images
// whose pixel count is 0, 1, below, at and above a multiple of the ranks,
// against a plain minimum; the root's dst has guard words either side.
func TestCompositeLocal(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 1))
	for ranks := 1; ranks <= 6; ranks++ {
		for _, pixels := range []int{0, 1, ranks - 1, ranks, ranks + 1, 7 * ranks, 1000} {
			words := make([][]uint64, ranks)
			want := make([]uint64, pixels)
			for i := range want {
				want[i] = rasterizer.EmptyVisibility
			}
			for r := range words {
				words[r] = make([]uint64, pixels)
				for i := range words[r] {
					switch rng.IntN(3) {
					case 0:
						words[r][i] = rasterizer.EmptyVisibility
					case 1: // ties in depth, ids decide
						words[r][i] = 42<<32 | uint64(rng.IntN(ranks))
					default:
						words[r][i] = rng.Uint64N(1<<56) | uint64(rng.IntN(1000))
					}
					want[i] = min(want[i], words[r][i])
				}
			}
			for root := 0; root < ranks; root += max(1, ranks-1) {
				const guard = 0xdeadbeefdeadbeef
				buf := make([]uint64, pixels+2)
				buf[0], buf[pixels+1] = guard, guard
				comms := Local(ranks)
				errs := make([]error, ranks)
				var wg sync.WaitGroup
				for r := range comms {
					wg.Add(1)
					go func() {
						defer wg.Done()
						var dst []uint64
						if r == root {
							dst = buf[1 : pixels+1]
						}
						st, err := Composite(comms[r], dst, words[r], root)
						if err == nil && st.Block != (pixels+ranks-1)/ranks {
							err = fmt.Errorf("block %d", st.Block)
						}
						errs[r] = err
					}()
				}
				wg.Wait()
				for r, err := range errs {
					if err != nil {
						t.Fatalf("%d ranks, %d pixels: rank %d: %v", ranks, pixels, r, err)
					}
				}
				if buf[0] != guard || buf[pixels+1] != guard {
					t.Fatalf("%d ranks, %d pixels: guard words overwritten", ranks, pixels)
				}
				for i := range want {
					if buf[i+1] != want[i] {
						t.Fatalf("%d ranks, %d pixels, root %d: pixel %d is %#x, want %#x", ranks, pixels, root, i, buf[i+1], want[i])
					}
				}
			}
		}
	}
}

// simulate runs frames of a mesh whose triangle i costs costs[i] on ranks
// shares under p, and returns the imbalance of the first and last frame,
// the handoffs, and the final bounds.
func simulate(t *testing.T, p Policy, costs []float64, ranks, frames int, moveCost float64) (first, last float64, handoffs int, bounds []int) {
	bounds = Partition(len(costs), ranks)
	b := &Balancer{Policy: p, MoveCost: moveCost}
	for f := 0; f < frames; f++ {
		times := make([]float64, ranks)
		for r := range times {
			for i := bounds[r]; i < bounds[r+1]; i++ {
				times[r] += costs[i]
			}
		}
		if f == 0 {
			first = Imbalance(times)
		}
		last = Imbalance(times)
		next, h := b.Next(bounds, times)
		if next[0] != 0 || next[ranks] != len(costs) {
			t.Fatalf("%v frame %d: bounds %v do not span the mesh", p, f, next)
		}
		for r := 0; r < ranks; r++ {
			if next[r] > next[r+1] {
				t.Fatalf("%v frame %d: bounds %v decrease", p, f, next)
			}
		}
		handoffs += h
		bounds = next
	}
	return first, last, handoffs, bounds
}

func TestBalancers(t *testing.T) {
	// Cost grows along the mesh (the near side of a view), with noise.
	rng := rand.New(rand.NewPCG(3, 4))
	costs := make([]float64, 4000)
	for i := range costs {
		costs[i] = 1 + 9*float64(i)/float64(len(costs)) + rng.Float64()
	}
	for _, ranks := range []int{1, 2, 3, 4, 7} {
		for _, p := range []Policy{Static, CostEffective} {
			first, last, handoffs, _ := simulate(t, p, costs, ranks, 60, 0)
			switch {
			case p == Static && (handoffs != 0 || last != first):
				t.Fatalf("%d ranks: Static moved %d boundaries (imbalance %.3f → %.3f)", ranks, handoffs, first, last)
			case p != Static && ranks > 1 && !(last < 1.05 && last < first):
				t.Fatalf("%d ranks: %v left imbalance %.3f (from %.3f) after %d handoffs", ranks, p, last, first, handoffs)
			case ranks == 1 && handoffs != 0:
				t.Fatalf("1 rank: %v made %d handoffs", p, handoffs)
			}
			// A move dearer than any saving is never made.
			if _, _, h, _ := simulate(t, p, costs, ranks, 4, 1e9); h != 0 {
				t.Fatalf("%d ranks: %v made %d handoffs at a prohibitive move cost", ranks, p, h)
			}
		}
	}
}

func TestParsePolicy(t *testing.T) {
	for _, p := range Policies {
		if q, err := ParsePolicy(p.String()); err != nil || q != p {
			t.Fatalf("ParsePolicy(%q) = %v, %v", p.String(), q, err)
		}
	}
	if p, err := ParsePolicy("lrh"); err != nil || p != LeftRightHandoff {
		t.Fatalf("ParsePolicy(lrh) = %v, %v", p, err)
	}
	if _, err := ParsePolicy("fair"); err == nil {
		t.Fatal("ParsePolicy(fair): no error")
	}
}

// TestCompositeAllLocal: every rank's dst receives the composited words,
// for pixel counts below, at and above a multiple of the ranks.
func TestCompositeAllLocal(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 3))
	for ranks := 1; ranks <= 5; ranks++ {
		for _, pixels := range []int{0, 1, ranks + 1, 9 * ranks, 777} {
			words := make([][]uint64, ranks)
			want := make([]uint64, pixels)
			for i := range want {
				want[i] = rasterizer.EmptyVisibility
			}
			for r := range words {
				words[r] = make([]uint64, pixels)
				for i := range words[r] {
					words[r][i] = rng.Uint64N(1<<40) | rasterizer.EmptyVisibility&^(1<<63)
					want[i] = min(want[i], words[r][i])
				}
			}
			dst := make([][]uint64, ranks)
			errs := runLocal(ranks, func(c Comm) error {
				dst[c.Rank()] = make([]uint64, pixels)
				_, err := CompositeAll(c, dst[c.Rank()], words[c.Rank()])
				return err
			})
			for r := range errs {
				if errs[r] != nil {
					t.Fatalf("%d ranks, %d pixels: rank %d: %v", ranks, pixels, r, errs[r])
				}
				for i := range want {
					if dst[r][i] != want[i] {
						t.Fatalf("%d ranks, %d pixels: rank %d's pixel %d is %#x, want %#x", ranks, pixels, r, i, dst[r][i], want[i])
					}
				}
			}
		}
	}
}

func TestReduceOrLocal(t *testing.T) {
	for ranks := 1; ranks <= 4; ranks++ {
		root := ranks - 1
		got := make([]uint32, 33)
		errs := runLocal(ranks, func(c Comm) error {
			send := make([]uint32, 33)
			for i := range send {
				send[i] = 1 << ((i + c.Rank()) % 32)
			}
			var recv []uint32
			if c.Rank() == root {
				recv = got
			}
			return c.ReduceOr(send, recv, root)
		})
		for r, err := range errs {
			if err != nil {
				t.Fatalf("rank %d: %v", r, err)
			}
		}
		for i, v := range got {
			want := uint32(0)
			for r := 0; r < ranks; r++ {
				want |= 1 << ((i + r) % 32)
			}
			if v != want {
				t.Fatalf("%d ranks: word %d is %#x, want %#x", ranks, i, v, want)
			}
		}
	}
}
