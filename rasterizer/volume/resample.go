package volume

import (
	"fmt"
	"math"
)

// Resample returns v on a grid whose longest side has n samples and whose
// other sides keep their proportion (at least 2 samples each, or 1 where v
// has 1), spanning the same box: the first and the last sample stay where
// they were, and the spacing grows or shrinks to match.
//
// Each output sample is the average, over its footprint, of v's trilinear
// interpolation: a box filter one output spacing wide, centred on the
// sample. Shrinking therefore low-pass filters (point sampling a volume
// several times larger aliases: an MRI scalp shown at a quarter of its
// resolution turns into terraces), and enlarging, where the footprint
// shrinks to a point, is plain trilinear interpolation. The footprint is
// narrowed symmetrically near the grid's faces (on a face it is a point
// along that axis), so that a linear field is kept exactly everywhere.
//
// Samples that are NaN or ±Inf are left out of the averages (a mask's
// outside does not bleed into it); an output sample whose footprint holds
// no finite sample is NaN.
//
// Resample returns an error when n < 2 or the new grid fails CheckGrid.
// It works in float64 on two copies of the grid at its largest stage.
func Resample(v *Volume, n int) (*Volume, error) {
	if err := v.Validate(); err != nil {
		return nil, fmt.Errorf("volume: Resample: %w", err)
	}
	if n < 2 {
		return nil, fmt.Errorf("volume: Resample: %d samples along the longest side, want at least 2", n)
	}
	longest := max(v.Dims[0], v.Dims[1], v.Dims[2])
	dims := v.Dims
	spacing := v.Spacing
	if longest > 1 {
		for a := 0; a < 3; a++ {
			if v.Dims[a] == 1 {
				continue
			}
			dims[a] = max(2, int(math.Round(float64(v.Dims[a]-1)*float64(n-1)/float64(longest-1)))+1)
			spacing[a] = float32(float64(v.Spacing[a]) * float64(v.Dims[a]-1) / float64(dims[a]-1))
		}
	}
	if err := CheckGrid(dims); err != nil {
		return nil, fmt.Errorf("volume: Resample: %dx%dx%d to %d along the longest side: %w", v.Dims[0], v.Dims[1], v.Dims[2], n, err)
	}
	// The filter is separable, and so is leaving non-finite samples out:
	// filter val = v·finite and wt = finite along each axis in turn, then
	// divide.
	cur := v.Dims
	val := make([]float64, len(v.Data))
	wt := make([]float64, len(v.Data))
	for i, s := range v.Data {
		if Finite(s) {
			val[i], wt[i] = float64(s), 1
		}
	}
	for a := 0; a < 3; a++ {
		if dims[a] == cur[a] {
			continue
		}
		val, wt, cur = filterAxis(val, wt, cur, a, axisTaps(cur[a], dims[a]))
	}
	out := New(dims, spacing, v.Origin)
	out.RAS = v.RAS
	for i := range out.Data {
		if wt[i] > 0 {
			out.Data[i] = float32(val[i] / wt[i])
		} else {
			out.Data[i] = float32(math.NaN())
		}
	}
	return out, nil
}

// tap is one source sample's weight in an output sample.
type tap struct {
	j int
	w float64
}

// axisTaps are the weights along one axis from src samples to dst: output
// sample i lies at source coordinate x = i·r, r = (src-1)/(dst-1), and
// averages the linear interpolation of the source over [x-h, x+h], h =
// r/2 when shrinking (0 when enlarging), narrowed to stay inside [0,
// src-1]. Source sample j's weight is the average of its tent function
// hat(t-j) = max(0, 1-|t-j|) over that interval.
func axisTaps(src, dst int) [][]tap {
	taps := make([][]tap, dst)
	if dst == 1 {
		taps[0] = []tap{{0, 1}}
		return taps
	}
	r := float64(src-1) / float64(dst-1)
	for i := range taps {
		x := float64(i) * r
		if i == dst-1 {
			x = float64(src - 1) // exactly, whatever r's rounding
		}
		h := 0.0
		if r > 1 {
			h = min(r/2, x, float64(src-1)-x)
		}
		for j := max(int(math.Floor(x-h)), 0); j <= min(int(math.Ceil(x+h)), src-1); j++ {
			var w float64
			if h == 0 {
				w = max(0, 1-math.Abs(x-float64(j)))
			} else {
				w = (tentIntegral(x+h-float64(j)) - tentIntegral(x-h-float64(j))) / (2 * h)
			}
			if w > 0 {
				taps[i] = append(taps[i], tap{j, w})
			}
		}
	}
	return taps
}

// tentIntegral is the integral of max(0, 1-|s|) from -∞ to u.
func tentIntegral(u float64) float64 {
	switch {
	case u <= -1:
		return 0
	case u <= 0:
		return (u + 1) * (u + 1) / 2
	case u <= 1:
		return 1 - (1-u)*(1-u)/2
	}
	return 1
}

// filterAxis applies taps along axis a of the grids val and wt (dims),
// returning grids whose side a has len(taps) samples.
func filterAxis(val, wt []float64, dims [3]int, a int, taps [][]tap) (nval, nwt []float64, ndims [3]int) {
	ndims = dims
	ndims[a] = len(taps)
	stride := [3]int{1, dims[0], dims[0] * dims[1]}
	n := ndims[0] * ndims[1] * ndims[2]
	nval, nwt = make([]float64, n), make([]float64, n)
	o := 0
	for z := 0; z < ndims[2]; z++ {
		for y := 0; y < ndims[1]; y++ {
			for x := 0; x < ndims[0]; x++ {
				p := [3]int{x, y, z}
				base := p[0]*stride[0] + p[1]*stride[1] + p[2]*stride[2] - p[a]*stride[a]
				var sv, sw float64
				for _, t := range taps[p[a]] {
					k := base + t.j*stride[a]
					sv += t.w * val[k]
					sw += t.w * wt[k]
				}
				nval[o], nwt[o] = sv, sw
				o++
			}
		}
	}
	return nval, nwt, ndims
}
