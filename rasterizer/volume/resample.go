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
// It works in float64 on slabs of layers of at most 64 MiB (one layer's at
// least, ResampleLayers), so that its memory beyond v and the result is
// bounded, whatever v's size.
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
	// ResampleLayers filters val = v·finite and wt = finite along each
	// axis in turn, then divides, in float64. It does so here on slabs of
	// output layers whose float64 grids take at most resampleSlabBytes
	// (one layer's at least), so that the float64 copies, 16 bytes a
	// source voxel, never hold the whole volume (which CheckGrid budgets
	// at 4 bytes a voxel): a 640^3 volume would need 4 GiB more. The
	// layers equal a whole-volume pass bit for bit.
	out := New(dims, spacing, v.Origin)
	out.RAS = v.RAS
	layer := v.Dims[0] * v.Dims[1]
	outLayer := dims[0] * dims[1]
	for k0 := 0; k0 < dims[2]; {
		k1 := k0 + 1
		for k1 < dims[2] && slabBytes(v.Dims, dims, n, k0, k1+1) <= resampleSlabBytes {
			k1++
		}
		s0, s1 := ResampleSources(v.Dims, n, k0, k1)
		slab := &Volume{Dims: [3]int{v.Dims[0], v.Dims[1], s1 - s0}, Spacing: v.Spacing, Origin: v.Origin, Data: v.Data[s0*layer : s1*layer]}
		part, err := ResampleLayers(slab, s0, v.Dims, n, k0, k1)
		if err != nil {
			return nil, err
		}
		copy(out.Data[k0*outLayer:k1*outLayer], part.Data)
		k0 = k1
	}
	return out, nil
}

// resampleSlabBytes bounds the float64 grids of one slab of Resample.
var resampleSlabBytes int64 = 64 << 20 // a variable for the tests

// slabBytes is what ResampleLayers' float64 grids (a value and a weight a
// sample) take at most for output layers [k0, k1) of a resampling of dims
// to out: the slab's source layers, after the x pass, after the y pass,
// and the output layers.
func slabBytes(dims, out [3]int, n, k0, k1 int) int64 {
	s0, s1 := ResampleSources(dims, n, k0, k1)
	l := int64(s1 - s0)
	src := l * int64(dims[0]) * int64(dims[1])
	x := l * int64(out[0]) * int64(dims[1])
	xy := l * int64(out[0]) * int64(out[1])
	z := int64(k1-k0) * int64(out[0]) * int64(out[1])
	return 16 * max(src+x, x+xy, xy+z)
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
