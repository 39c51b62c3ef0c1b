package volume

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"
)

// sameLayers fails unless slab holds whole's sample layers [z0, z0+slab
// layers) bit for bit (NaN payloads and the sign of 0 included), and no
// more samples than those layers.
func sameLayers(t *testing.T, what string, whole, slab *Volume, z0 int) {
	t.Helper()
	layer := whole.Dims[0] * whole.Dims[1]
	if slab.Dims[0] != whole.Dims[0] || slab.Dims[1] != whole.Dims[1] || len(slab.Data) != layer*slab.Dims[2] {
		t.Fatalf("%s: slab dims %v with %d samples, whole %v", what, slab.Dims, len(slab.Data), whole.Dims)
	}
	if slab.Spacing != whole.Spacing || slab.Origin != whole.Origin {
		t.Fatalf("%s: slab spacing %v origin %v, whole %v %v", what, slab.Spacing, slab.Origin, whole.Spacing, whole.Origin)
	}
	for i, s := range slab.Data {
		if w := whole.Data[z0*layer+i]; math.Float32bits(s) != math.Float32bits(w) {
			t.Fatalf("%s: sample %d of the slab (layer %d) is %v (%#x), the whole's %v (%#x)",
				what, i, z0+i/layer, s, math.Float32bits(s), w, math.Float32bits(w))
		}
	}
}

// TestSampleLayers: every slab of every field, at every cut (edges and
// one-layer slabs included), is the whole grid's layers bit for bit and
// holds only its own layers.
func TestSampleLayers(t *testing.T) {
	for _, dims := range [][3]int{{2, 2, 2}, {5, 3, 9}, {6, 7, 4}} {
		for _, f := range Fields() {
			whole := f.Sample(dims[0], dims[1], dims[2])
			for z0 := 0; z0 < dims[2]; z0++ {
				for z1 := z0 + 1; z1 <= dims[2]; z1++ {
					s, err := f.SampleLayers(dims, z0, z1)
					if err != nil {
						t.Fatal(err)
					}
					if s.Dims[2] != z1-z0 {
						t.Fatalf("%s %v [%d, %d): %d layers", f.Name, dims, z0, z1, s.Dims[2])
					}
					sameLayers(t, f.Name, whole, s, z0)
				}
			}
		}
	}
	f := Default()
	for _, c := range [][3]int{{-1, 1, 0}, {2, 2, 0}, {3, 2, 0}, {0, 10, 0}, {0, 1, 1}} {
		dims := [3]int{4, 4, 9}
		if c[2] == 1 {
			dims[2] = 1
		}
		if _, err := f.SampleLayers(dims, c[0], c[1]); err == nil {
			t.Errorf("SampleLayers(%v, %d, %d) gave no error", dims, c[0], c[1])
		}
	}
}

// randomNIfTI is a float32 volume of dims with NaN, ±Inf and −0 among
// its voxels, encoded as the datatype dt (integer types get integers).
func randomNIfTI(dims [3]int, dt int16, gz bool, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 1))
	vox := make([]float64, dims[0]*dims[1]*dims[2])
	for i := range vox {
		switch {
		case dt != NIfTIFloat32 && dt != NIfTIFloat64:
			vox[i] = float64(rng.IntN(100))
		case rng.IntN(17) == 0:
			vox[i] = []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1)}[rng.IntN(4)]
		default:
			vox[i] = rng.NormFloat64() * 100
		}
	}
	return encodeNIfTI(niiSpec{dim: [8]int16{3, int16(dims[0]), int16(dims[1]), int16(dims[2]), 1, 1, 1, 1},
		datatype: dt, voxels: vox, gzip: gz, pixdim: [8]float32{1, 0.5, 2, 3}, order: binary.BigEndian, slope: 2, inter: -1})
}

// TestReadNIfTILayers: a slab read is the whole read's layers bit for
// bit at every cut, for chunks that hold several layers and layers that
// span several chunks.
func TestReadNIfTILayers(t *testing.T) {
	cases := []struct {
		dims [3]int
		dt   int16
		gz   bool
		all  bool // every cut, else a sample of them
	}{
		{[3]int{3, 2, 5}, NIfTIFloat32, false, true},
		{[3]int{3, 4, 7}, NIfTIInt16, true, true},
		{[3]int{4, 3, 1}, NIfTIUint8, true, true},
		// 2^16 float32 voxels a chunk: 16 layers of 64x64, 1/4 of a
		// 256x256 layer.
		{[3]int{64, 64, 37}, NIfTIFloat32, true, false},
		{[3]int{256, 256, 5}, NIfTIFloat64, false, false},
	}
	for ci, c := range cases {
		file := randomNIfTI(c.dims, c.dt, c.gz, uint64(ci))
		whole, _, err := ReadNIfTI(bytes.NewReader(file))
		if err != nil {
			t.Fatal(err)
		}
		nz := c.dims[2]
		for z0 := 0; z0 < nz; z0++ {
			for z1 := z0 + 1; z1 <= nz; z1++ {
				if !c.all && !(z0 < 2 || z1 > nz-2 || z1-z0 == 1 || z0%15 == 0 || z1%16 == 1) {
					continue
				}
				s, h, err := ReadNIfTILayers(bytes.NewReader(file), z0, z1)
				if err != nil {
					t.Fatalf("%v [%d, %d): %v", c.dims, z0, z1, err)
				}
				if h.Dim[3] != int16(nz) || s.Dims[2] != z1-z0 {
					t.Fatalf("%v [%d, %d): header dim %v, slab %v", c.dims, z0, z1, h.Dim, s.Dims)
				}
				sameLayers(t, "NIfTI", whole, s, z0)
				if w := whole.Summary(); h.Finite != int64(w.Finite) || (w.Finite > 0 && (h.Min != w.Min || h.Max != w.Max)) {
					t.Fatalf("%v [%d, %d): the header's range [%v, %v] of %d finite voxels, the whole volume's [%v, %v] of %d",
						c.dims, z0, z1, h.Min, h.Max, h.Finite, w.Min, w.Max, w.Finite)
				}
			}
		}
		for _, bad := range [][2]int{{-1, 1}, {0, 0}, {2, 1}, {0, nz + 1}, {nz, nz + 1}} {
			if _, _, err := ReadNIfTILayers(bytes.NewReader(file), bad[0], bad[1]); err == nil {
				t.Errorf("%v: layers %v gave no error", c.dims, bad)
			}
		}
	}
	// A damaged voxel outside the slab fails the slab read as it fails
	// the whole read: every voxel is decoded.
	file := encodeNIfTI(niiSpec{dim: [8]int16{3, 2, 2, 3, 1, 1, 1, 1}, datatype: NIfTIFloat64, slope: 1e30,
		voxels: []float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1e300}})
	if _, _, err := ReadNIfTILayers(bytes.NewReader(file), 0, 1); err == nil {
		t.Error("a voxel beyond float32 in layer 2 passed a read of layer 0")
	}
}

// TestNIfTILayersMemory: a slab read allocates the slab and the chunk,
// not the whole volume (the whole read's TestNIfTIPeakMemory, on a
// slab).
func TestNIfTILayersMemory(t *testing.T) {
	const n = 160
	file := encodeNIfTI(niiSpec{dim: [8]int16{3, n, n, n, 1, 1, 1, 1}, datatype: NIfTIFloat64, voxels: make([]float64, n*n*n), gzip: true})
	path := t.TempDir() + "/zeros.nii.gz"
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	file = nil
	for _, z := range [][2]int{{0, 1}, {70, 80}, {159, 160}} {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		v, _, err := LoadNIfTILayers(path, z[0], z[1])
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		slab, whole := uint64(4*v.Len()), uint64(4*n*n*n)
		// The chunk (256 KiB), its decoded scratch (128 KiB), gzip's
		// and bufio's buffers: under 1 MiB beside the slab.
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > slab+1<<20 {
			t.Fatalf("reading layers %v (%d bytes) of a %d-byte volume allocated %d bytes", z, slab, whole, alloc)
		}
	}
}

// TestNIfTILayersch2 cuts the MRI template that Debian's mricron-data
// installs.
func TestNIfTILayersch2(t *testing.T) {
	const path = "/usr/share/mricron/templates/ch2.nii.gz"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s not installed (apt-get install mricron-data)", path)
	}
	whole, _, err := LoadNIfTI(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, z := range [][2]int{{0, 1}, {0, 46}, {45, 91}, {90, 181}, {180, 181}} {
		s, _, err := LoadNIfTILayers(path, z[0], z[1])
		if err != nil {
			t.Fatal(err)
		}
		sameLayers(t, "ch2", whole, s, z[0])
	}
}

// TestResampleLayers: output layers of Resample made from the slab of
// source layers ResampleSources names equal Resample's of the whole
// volume bit for bit, at every cut, shrinking, enlarging and keeping z;
// a slab one layer short of the footprint is refused.
func TestResampleLayers(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		dims [3]int
		n    int
	}{
		{[3]int{9, 7, 23}, 8},  // shrink z 22:7, the footprint ±1.6 layers
		{[3]int{9, 7, 23}, 5},  // shrink z to 5
		{[3]int{5, 4, 6}, 11},  // enlarge: trilinear
		{[3]int{30, 7, 5}, 13}, // z shrinks 5 to 3
		{[3]int{30, 7, 4}, 30}, // z kept: the layers as they are
		{[3]int{12, 1, 9}, 4},  // a side of 1
	} {
		v := New(c.dims, [3]float32{0.5, 1, 2}, [3]float32{1, -2, 3})
		for i := range v.Data {
			switch rng.IntN(13) {
			case 0:
				v.Data[i] = float32(math.NaN())
			case 1:
				v.Data[i] = float32(math.Copysign(0, -1))
			default:
				v.Data[i] = float32(rng.NormFloat64())
			}
		}
		whole, err := Resample(v, c.n)
		if err != nil {
			t.Fatal(err)
		}
		layer := c.dims[0] * c.dims[1]
		nz := whole.Dims[2]
		for k0 := 0; k0 < nz; k0++ {
			for k1 := k0 + 1; k1 <= nz; k1++ {
				s0, s1 := ResampleSources(c.dims, c.n, k0, k1)
				src := &Volume{Dims: [3]int{c.dims[0], c.dims[1], s1 - s0}, Spacing: v.Spacing, Origin: v.Origin,
					Data: v.Data[s0*layer : s1*layer]}
				got, err := ResampleLayers(src, s0, c.dims, c.n, k0, k1)
				if err != nil {
					t.Fatalf("%v to %d, layers [%d, %d) from [%d, %d): %v", c.dims, c.n, k0, k1, s0, s1, err)
				}
				sameLayers(t, "ResampleLayers", whole, got, k0)
				if s1-s0 > 1 {
					short := &Volume{Dims: [3]int{c.dims[0], c.dims[1], s1 - s0 - 1}, Spacing: v.Spacing, Origin: v.Origin}
					for _, first := range []int{s0, s0 + 1} {
						short.Data = v.Data[first*layer : (first+s1-s0-1)*layer]
						if _, err := ResampleLayers(short, first, c.dims, c.n, k0, k1); err == nil {
							t.Fatalf("%v to %d, layers [%d, %d): a slab of [%d, %d) passed, they read [%d, %d)", c.dims, c.n, k0, k1, first, first+s1-s0-1, s0, s1)
						}
					}
				}
			}
		}
	}
}
