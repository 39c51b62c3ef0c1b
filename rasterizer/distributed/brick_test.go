package distributed

import (
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// runLocal runs f on n in-process ranks and returns their errors.
func runLocal(n int, f func(c Comm) error) []error {
	comms := Local(n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for r := range comms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[r] = f(comms[r])
		}()
	}
	wg.Wait()
	return errs
}

// TestBricks: 1 to 6 ranks each extract a brick of the perforator's cell
// layers (6 ranks: some bricks are one layer, on 5 cell layers none); the
// offsets from LayerOffsets place every brick's triangles at their index
// in the whole volume's marching-cubes surface, bit for bit.
func TestBricks(t *testing.T) {
	for _, dims := range [][3]int{{14, 11, 13}, {9, 9, 6}} {
		f := volume.PerforatorJet()
		v := f.Sample(dims[0], dims[1], dims[2])
		whole := isosurface.MarchingCubes(v, f.Iso)
		wp, wn := whole.Soup()
		layers := dims[2] - 1
		for ranks := 1; ranks <= 6; ranks++ {
			bounds := Partition(layers, ranks)
			errs := runLocal(ranks, func(c Comm) error {
				r := c.Rank()
				m, counts, err := ExtractBrick(isosurface.Slab(v, bounds[r], bounds[r+1]), f.Iso)
				if err != nil {
					return err
				}
				first, err := LayerOffsets(c, layers, bounds[r], counts)
				if err != nil {
					return err
				}
				if first[layers] != whole.Len() {
					t.Errorf("%d ranks: rank %d: %d triangles in all, want %d", ranks, r, first[layers], whole.Len())
				}
				if got, want := first[bounds[r+1]]-first[bounds[r]], m.Len(); got != want {
					t.Errorf("%d ranks: rank %d: offsets give %d triangles, the brick has %d", ranks, r, got, want)
				}
				p, n := m.Soup()
				base := 3 * first[bounds[r]]
				for i := range p {
					if base+i >= len(wp) || bitsOf(p[i]) != bitsOf(wp[base+i]) || bitsOf(n[i]) != bitsOf(wn[base+i]) {
						t.Errorf("%d ranks: rank %d: triangle %d (global %d) differs from the whole surface's", ranks, r, i/3, base/3+i/3)
						break
					}
				}
				return nil
			})
			for r, err := range errs {
				if err != nil {
					t.Fatalf("%v, %d ranks: rank %d: %v", dims, ranks, r, err)
				}
			}
		}
	}
}

func bitsOf(v [3]float32) [3]uint32 {
	return [3]uint32{math.Float32bits(v[0]), math.Float32bits(v[1]), math.Float32bits(v[2])}
}

// TestLayerOffsetsMisuse: layers counted twice or by no rank are errors
// naming the layer, on every rank.
func TestLayerOffsetsMisuse(t *testing.T) {
	for _, tc := range []struct {
		los  []int
		want string
	}{
		{[]int{0, 2}, "layer 2 is counted by ranks 0 and 1"},
		{[]int{0, 4}, "layer 3 is counted by no rank"},
	} {
		errs := runLocal(2, func(c Comm) error {
			_, err := LayerOffsets(c, 7, tc.los[c.Rank()], []int{5, 6, 7})
			return err
		})
		for r, err := range errs {
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("rank %d: %v, want %q", r, err, tc.want)
			}
		}
	}
}
