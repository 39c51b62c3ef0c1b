package volume

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"math"

	"github.com/dpgl/dpgl/internal/fileio"
)

// A slab of a volume is a run of its sample layers along z: what one rank
// of a distributed renderer holds of a volume that outgrows one host
// (package rasterizer/distributed). The functions here make a slab
// without the whole volume ever being in memory, bit for bit the whole
// volume's own layers: the slab is a *Volume of Dims[2] layers, at the
// whole volume's Origin and Spacing (its sample (x, y, k) is the whole's
// (x, y, first+k)), as isosurface.Layers takes it.

// SampleLayers is sample layers [z0, z1) of SampleGrid(dims) alone: the
// same float64 expression of each sample's whole-grid indices, so the
// samples equal the grid's layers z0 to z1−1 bit for bit, and only
// z1−z0 layers are allocated. It returns SampleGrid's errors for dims,
// and an error naming the layers unless 0 ≤ z0 < z1 ≤ dims[2].
func (f Field) SampleLayers(dims [3]int, z0, z1 int) (*Volume, error) {
	if dims[0] < 2 || dims[1] < 2 || dims[2] < 2 {
		return nil, fmt.Errorf("volume: Field.SampleLayers: %s at %dx%dx%d: every dimension must be at least 2", f.Name, dims[0], dims[1], dims[2])
	}
	if err := CheckGrid(dims); err != nil {
		return nil, fmt.Errorf("volume: Field.SampleLayers: %s: %w", f.Name, err)
	}
	if z0 < 0 || z1 <= z0 || z1 > dims[2] {
		return nil, fmt.Errorf("volume: Field.SampleLayers: %s: sample layers [%d, %d) of %d: want 0 <= z0 < z1 <= %d", f.Name, z0, z1, dims[2], dims[2])
	}
	v := New([3]int{dims[0], dims[1], z1 - z0}, f.spacing(dims), f.origin())
	f.sampleInto(v, dims, z0)
	return v, nil
}

// ReadNIfTILayers is ReadNIfTI keeping sample layers [z0, z1) of the file
// alone. The whole stream is still read (and a gzip stream inflated and
// its checksum checked), every voxel decoded and checked as ReadNIfTI
// checks it, but memory holds only the slab and one 256 KiB chunk. The
// header tells the whole volume's dimensions (Dim[1..3]). The slab keeps
// the file's voxel axes: when they already run RAS+ (the header's
// Orientation.Identity) it is the layers of ReadNIfTI's volume, origin,
// spacing and RAS included; otherwise its spacing is the voxel size and
// its origin the first voxel's world position, and it is not RAS. It returns
// ReadNIfTI's errors, and an error naming the layers unless
// 0 ≤ z0 < z1 ≤ Dim[3].
func ReadNIfTILayers(r io.Reader, z0, z1 int) (*Volume, *NIfTIHeader, error) {
	if z1 < 0 {
		return nil, nil, fmt.Errorf("volume: NIfTI: sample layers [%d, %d): want 0 <= first < end", z0, z1)
	}
	return readNIfTI(r, z0, z1)
}

// LoadNIfTILayers reads sample layers [z0, z1) of a .nii or .nii.gz file
// with ReadNIfTILayers.
func LoadNIfTILayers(path string, z0, z1 int) (*Volume, *NIfTIHeader, error) {
	f, err := fileio.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	v, h, err := ReadNIfTILayers(f, z0, z1)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return v, h, nil
}

// ResampleGrid is the grid Resample(v, n) makes of a volume of dims
// samples at spacing: its dimensions and spacing, or Resample's error.
func ResampleGrid(dims [3]int, spacing [3]float32, n int) ([3]int, [3]float32, error) {
	if n < 2 {
		return dims, spacing, fmt.Errorf("volume: Resample: %d samples along the longest side, want at least 2", n)
	}
	longest := max(dims[0], dims[1], dims[2])
	out, sp := dims, spacing
	if longest > 1 {
		for a := 0; a < 3; a++ {
			if dims[a] == 1 {
				continue
			}
			out[a] = max(2, int(math.Round(float64(dims[a]-1)*float64(n-1)/float64(longest-1)))+1)
			sp[a] = float32(float64(spacing[a]) * float64(dims[a]-1) / float64(out[a]-1))
		}
	}
	if err := CheckGrid(out); err != nil {
		return out, sp, fmt.Errorf("volume: Resample: %dx%dx%d to %d along the longest side: %w", dims[0], dims[1], dims[2], n, err)
	}
	return out, sp, nil
}

// ResampleSources is the source sample layers [s0, s1) that output
// layers [k0, k1) of Resample(v, n) read, for v of dims samples: the box
// filter's footprint along z, which reaches past [k0, k1)'s own span
// when Resample shrinks z (up to half an output spacing, plus the tent's
// one sample, either side). A slab read for ResampleLayers must hold
// them. It panics unless 0 ≤ k0 < k1 ≤ the output's layers.
func ResampleSources(dims [3]int, n, k0, k1 int) (s0, s1 int) {
	out, _, _ := ResampleGrid(dims, [3]float32{1, 1, 1}, n)
	if k0 < 0 || k1 <= k0 || k1 > out[2] {
		panic(fmt.Sprintf("volume: ResampleSources: output layers [%d, %d) of %d", k0, k1, out[2]))
	}
	if out[2] == dims[2] {
		return k0, k1
	}
	taps := axisTaps(dims[2], out[2])
	s0, s1 = math.MaxInt, 0
	for _, t := range taps[k0:k1] {
		for _, tp := range t {
			s0, s1 = min(s0, tp.j), max(s1, tp.j+1)
		}
	}
	return s0, s1
}

// ResampleLayers is output layers [k0, k1) of Resample of a volume of
// dims samples, from the slab src holding its source layers first to
// first+src.Dims[2]−1 (at least ResampleSources(dims, n, k0, k1)): the
// same filter taps summed in the same order, so the layers equal
// Resample's bit for bit. Its memory is the slab's, not the whole
// volume's. The result is a slab too: at src's Origin, Resample's
// spacing.
func ResampleLayers(src *Volume, first int, dims [3]int, n, k0, k1 int) (*Volume, error) {
	if err := src.Validate(); err != nil {
		return nil, fmt.Errorf("volume: ResampleLayers: %w", err)
	}
	if src.Dims[0] != dims[0] || src.Dims[1] != dims[1] || first < 0 || first+src.Dims[2] > dims[2] {
		return nil, fmt.Errorf("volume: ResampleLayers: the slab %dx%dx%d at layer %d is not part of a %dx%dx%d volume",
			src.Dims[0], src.Dims[1], src.Dims[2], first, dims[0], dims[1], dims[2])
	}
	out, spacing, err := ResampleGrid(dims, src.Spacing, n)
	if err != nil {
		return nil, err
	}
	if k0 < 0 || k1 <= k0 || k1 > out[2] {
		return nil, fmt.Errorf("volume: ResampleLayers: output layers [%d, %d) of %d", k0, k1, out[2])
	}
	s0, s1 := ResampleSources(dims, n, k0, k1)
	if s0 < first || s1 > first+src.Dims[2] {
		return nil, fmt.Errorf("volume: ResampleLayers: output layers [%d, %d) read source layers [%d, %d), the slab holds [%d, %d)",
			k0, k1, s0, s1, first, first+src.Dims[2])
	}
	// Resample's stages on the slab: x and y filter each layer alone, so
	// they are the whole's on the slab's layers; z reads the whole's taps
	// of layers [k0, k1), shifted to the slab.
	cur := src.Dims
	val := make([]float64, len(src.Data))
	wt := make([]float64, len(src.Data))
	for i, s := range src.Data {
		if Finite(s) {
			val[i], wt[i] = float64(s), 1
		}
	}
	for a := 0; a < 2; a++ {
		if out[a] == cur[a] {
			continue
		}
		val, wt, cur = filterAxis(val, wt, cur, a, axisTaps(cur[a], out[a]))
	}
	if out[2] == dims[2] {
		// Resample leaves z alone: the layers as they are (a filter of
		// weight 1 would turn −0 into +0).
		layer := cur[0] * cur[1]
		val, wt = val[(k0-first)*layer:(k1-first)*layer], wt[(k0-first)*layer:(k1-first)*layer]
		cur[2] = k1 - k0
	} else {
		var taps [][]tap
		for _, t := range axisTaps(dims[2], out[2])[k0:k1] {
			s := make([]tap, len(t))
			for i, tp := range t {
				s[i] = tap{tp.j - first, tp.w}
			}
			taps = append(taps, s)
		}
		val, wt, cur = filterAxis(val, wt, cur, 2, taps)
	}
	v := New(cur, spacing, src.Origin)
	for i := range v.Data {
		if wt[i] > 0 {
			v.Data[i] = float32(val[i] / wt[i])
		} else {
			v.Data[i] = float32(math.NaN())
		}
	}
	return v, nil
}

// LoadNIfTIHeader reads and checks the header of a .nii or .nii.gz file
// alone: the whole volume's dimensions, for a rank that then reads its
// slab with LoadNIfTILayers.
func LoadNIfTIHeader(path string) (*NIfTIHeader, error) {
	f, err := fileio.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	h := &NIfTIHeader{}
	var src io.Reader = br
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: volume: NIfTI: gzip: %w", path, err)
		}
		defer zr.Close()
		src, h.Gzipped = zr, true
	}
	var raw [niftiHeaderSize]byte
	if n, err := io.ReadFull(src, raw[:]); err != nil {
		return nil, fmt.Errorf("%s: volume: NIfTI: header truncated: %d of %d bytes (%w)", path, n, niftiHeaderSize, noEOF(err))
	}
	if err := h.parse(raw[:]); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return h, nil
}
