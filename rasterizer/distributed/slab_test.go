package distributed

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// sameBrick fails unless l, made from s without the whole volume, is
// isosurface.Slab of the whole volume bit for bit, and holds only the
// slab's samples.
func sameBrick(t *testing.T, s Samples, whole *volume.Volume, z0, z1 int) {
	t.Helper()
	l, err := s.Brick(z0, z1)
	if err != nil {
		t.Fatalf("%s: cell layers [%d, %d): %v", s.Name, z0, z1, err)
	}
	want := isosurface.Slab(whole, z0, z1)
	if l.First != want.First || l.Depth != want.Depth || l.Z0 != z0 || l.Z1 != z1 || l.Samples.Dims != want.Samples.Dims {
		t.Fatalf("%s: cell layers [%d, %d): first %d depth %d dims %v, Slab's %d %d %v", s.Name, z0, z1,
			l.First, l.Depth, l.Samples.Dims, want.First, want.Depth, want.Samples.Dims)
	}
	// The rank's memory for the volume: the cells' sample layers and one
	// beyond each face, not the whole grid.
	layer := whole.Dims[0] * whole.Dims[1]
	if n := len(l.Samples.Data); n != layer*(min(z1+1, whole.Dims[2]-1)-max(z0-1, 0)+1) {
		t.Fatalf("%s: cell layers [%d, %d) hold %d samples, the whole grid %d", s.Name, z0, z1, n, whole.Len())
	}
	if l.Samples.Spacing != whole.Spacing || l.Samples.Origin != whole.Origin {
		t.Fatalf("%s: spacing %v origin %v, whole %v %v", s.Name, l.Samples.Spacing, l.Samples.Origin, whole.Spacing, whole.Origin)
	}
	for i, v := range l.Samples.Data {
		if w := want.Samples.Data[i]; math.Float32bits(v) != math.Float32bits(w) {
			t.Fatalf("%s: cell layers [%d, %d): sample %d is %v, the whole volume's %v", s.Name, z0, z1, i, v, w)
		}
	}
}

// TestFieldBricks: every brick of every built-in field, at every cut
// (edges, one-layer bricks, the whole), sampled alone, is the whole
// grid's Slab bit for bit.
func TestFieldBricks(t *testing.T) {
	for _, dims := range [][3]int{{7, 6, 9}, {4, 5, 2}, {5, 4, 3}} {
		for _, f := range volume.Fields() {
			s, err := FieldSamples(f, dims)
			if err != nil {
				t.Fatal(err)
			}
			whole := f.Sample(dims[0], dims[1], dims[2])
			for z0 := 0; z0 < dims[2]; z0++ {
				for z1 := z0; z1 < dims[2]; z1++ {
					sameBrick(t, s, whole, z0, z1)
				}
			}
		}
	}
	s, _ := FieldSamples(volume.Default(), [3]int{4, 4, 6})
	for _, c := range [][2]int{{-1, 2}, {3, 2}, {0, 6}} {
		if _, err := s.Brick(c[0], c[1]); err == nil {
			t.Errorf("Brick(%d, %d) of 5 cell layers gave no error", c[0], c[1])
		}
	}
	if _, err := FieldSamples(volume.Default(), [3]int{4, 1, 6}); err == nil {
		t.Error("FieldSamples of a 4x1x6 grid gave no error")
	}
}

// writeNIfTI writes v as a gzipped little-endian float32 NIfTI-1 file.
func writeNIfTI(t *testing.T, v *volume.Volume) string {
	t.Helper()
	h := make([]byte, 352)
	le := binary.LittleEndian
	le.PutUint32(h[0:], 348)
	for i, d := range []int{3, v.Dims[0], v.Dims[1], v.Dims[2], 1, 1, 1, 1} {
		le.PutUint16(h[40+2*i:], uint16(d))
	}
	le.PutUint16(h[70:], volume.NIfTIFloat32)
	le.PutUint16(h[72:], 32)
	for i, p := range []float32{1, v.Spacing[0], v.Spacing[1], v.Spacing[2]} {
		le.PutUint32(h[76+4*i:], math.Float32bits(p))
	}
	le.PutUint32(h[108:], math.Float32bits(352))
	copy(h[344:], "n+1\x00")
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(h)
	for _, s := range v.Data {
		binary.Write(zw, le, s)
	}
	zw.Close()
	path := filepath.Join(t.TempDir(), "v.nii.gz")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestNIfTIBricks: bricks read from a file a slab at a time, as they are
// and resampled (shrinking: the filter reads source layers beyond the
// brick's; enlarging), are the whole volume's Slab bit for bit at every
// cut.
func TestNIfTIBricks(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	v := volume.New([3]int{11, 9, 21}, [3]float32{1, 0.5, 2}, [3]float32{})
	for i := range v.Data {
		v.Data[i] = float32(rng.NormFloat64())
		if rng.IntN(19) == 0 {
			v.Data[i] = float32(math.NaN())
		}
	}
	path := writeNIfTI(t, v)
	for _, res := range []int{0, 21, 8, 13, 30} {
		whole := v
		if res > 0 && res < 21 {
			var err error
			if whole, err = volume.Resample(v, res); err != nil {
				t.Fatal(err)
			}
		}
		s, err := NIfTISamples(path, res)
		if err != nil {
			t.Fatal(err)
		}
		if s.Dims != whole.Dims {
			t.Fatalf("-res %d: dims %v, Resample's %v", res, s.Dims, whole.Dims)
		}
		for z0 := 0; z0 < whole.Dims[2]; z0++ {
			for z1 := z0; z1 < whole.Dims[2]; z1++ {
				sameBrick(t, s, whole, z0, z1)
			}
		}
	}
	if _, err := NIfTISamples(filepath.Join(t.TempDir(), "none.nii"), 0); err == nil {
		t.Error("a missing file gave no error")
	}
}

// TestNIfTIBricksch2 cuts the MRI template Debian's mricron-data
// installs, resampled as bench distributed -volume -res 24 does, at the
// bricks of 1 to 4 ranks and every one-layer brick.
func TestNIfTIBricksch2(t *testing.T) {
	const path = "/usr/share/mricron/templates/ch2.nii.gz"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s not installed (apt-get install mricron-data)", path)
	}
	const res = 24
	v, _, err := volume.LoadNIfTI(path)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := volume.Resample(v, res)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NIfTISamples(path, res)
	if err != nil {
		t.Fatal(err)
	}
	layers := whole.Dims[2] - 1
	for ranks := 1; ranks <= 4; ranks++ {
		b := Partition(layers, ranks)
		for r := 0; r < ranks; r++ {
			sameBrick(t, s, whole, b[r], b[r+1])
		}
	}
	for z := 0; z < layers; z += 3 {
		sameBrick(t, s, whole, z, z+1)
	}
	sameBrick(t, s, whole, layers-1, layers)
}

// TestSampledBricks: ranks that each sample only their own brick
// (FieldSamples) join their layer counts and make the whole volume's
// surface, triangle for triangle, with its global ids.
func TestSampledBricks(t *testing.T) {
	f := volume.PerforatorJet()
	dims := [3]int{14, 11, 13}
	whole := isosurface.MarchingCubes(f.Sample(dims[0], dims[1], dims[2]), f.Iso)
	wp, wn := whole.Soup()
	s, err := FieldSamples(f, dims)
	if err != nil {
		t.Fatal(err)
	}
	layers := dims[2] - 1
	for ranks := 1; ranks <= 5; ranks++ {
		bounds := Partition(layers, ranks)
		errs := runLocal(ranks, func(c Comm) error {
			r := c.Rank()
			l, err := s.Brick(bounds[r], bounds[r+1])
			if err != nil {
				return err
			}
			m, counts, err := ExtractBrick(l, f.Iso)
			if err != nil {
				return err
			}
			first, err := LayerOffsets(c, layers, bounds[r], counts)
			if err != nil {
				return err
			}
			p, n := m.Soup()
			base := 3 * first[bounds[r]]
			if first[layers] != whole.Len() || len(p) != 3*(first[bounds[r+1]]-first[bounds[r]]) {
				t.Errorf("%d ranks: rank %d: %d of %d triangles, brick %d", ranks, r, first[bounds[r+1]]-first[bounds[r]], first[layers], m.Len())
			}
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
				t.Fatalf("%d ranks: rank %d: %v", ranks, r, err)
			}
		}
	}
}
