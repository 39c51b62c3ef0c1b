package isosurface

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// identicalSoup reports the first triangle where a and b differ in any bit of
// a position or normal.
func identicalSoup(a, b *mesh.Mesh) error {
	pa, na := a.Soup()
	pb, nb := b.Soup()
	if len(pa) != len(pb) {
		return fmt.Errorf("%d triangles, want %d", len(pa)/3, len(pb)/3)
	}
	bits := func(v [3]float32) [3]uint32 {
		return [3]uint32{math.Float32bits(v[0]), math.Float32bits(v[1]), math.Float32bits(v[2])}
	}
	for i := range pa {
		if bits(pa[i]) != bits(pb[i]) || bits(na[i]) != bits(nb[i]) {
			return fmt.Errorf("triangle %d, vertex %d: %v %v, want %v %v", i/3, i%3, pa[i], na[i], pb[i], nb[i])
		}
	}
	return nil
}

// TestExtractLayers: slabs cut at every z (and at random cuts into up to
// five slabs), extracted and concatenated in z order, are MarchingCubes of
// the whole volume triangle for triangle, bit for bit, for fields with
// curved surfaces, a NaN mask, a surface cut by the grid's faces, and
// volumes 2 layers deep.
func TestExtractLayers(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 2))
	masked := volume.Sphere().Sample(9, 8, 11)
	for i := range masked.Data {
		if rng.IntN(9) == 0 {
			masked.Data[i] = float32(math.NaN())
		}
	}
	cut := volume.Torus().Sample(10, 7, 9)
	cut.Origin = [3]float32{-3.25, 1e3, 0.1}
	cut.Spacing = [3]float32{0.3, 0.7, 0.123}
	vols := []struct {
		name string
		v    *volume.Volume
		iso  float32
	}{
		{"perforator 12^3", volume.PerforatorJet().SampleCube(12), volume.PerforatorJet().Iso},
		{"Marschner-Lobb 9x10x13", volume.MarschnerLobb().Sample(9, 10, 13), volume.MarschnerLobb().Iso},
		{"sphere with NaNs", masked, volume.Sphere().Iso},
		{"torus, odd origin and spacing", cut, volume.Torus().Iso},
		{"Marschner-Lobb 2 layers deep", volume.MarschnerLobb().Sample(9, 9, 2), 0.3},
	}
	for _, tc := range vols {
		whole := MarchingCubes(tc.v, tc.iso)
		if whole.Len() == 0 {
			t.Fatalf("%s: no surface to test with", tc.name)
		}
		cells := tc.v.Dims[2] - 1
		var splits [][]int
		for k := 0; k <= cells; k++ {
			splits = append(splits, []int{0, k, cells})
		}
		for range 20 {
			s := []int{0, cells}
			for range rng.IntN(5) {
				s = append(s, rng.IntN(cells+1))
			}
			slices.Sort(s)
			splits = append(splits, s)
		}
		for _, s := range splits {
			got := &mesh.Mesh{}
			for k := 0; k+1 < len(s); k++ {
				l := Slab(tc.v, s[k], s[k+1])
				m, st, err := ExtractLayers(l, tc.iso)
				if err != nil {
					t.Fatalf("%s, slabs %v: [%d, %d): %v", tc.name, s, s[k], s[k+1], err)
				}
				if st.Triangles != m.Len() || st.Cells != (tc.v.Dims[0]-1)*(tc.v.Dims[1]-1)*(s[k+1]-s[k]) {
					t.Fatalf("%s, slabs %v: [%d, %d): stats %+v for %d triangles", tc.name, s, s[k], s[k+1], st, m.Len())
				}
				off := uint32(len(got.Positions))
				got.Positions = append(got.Positions, m.Positions...)
				got.Normals = append(got.Normals, m.Normals...)
				for _, f := range m.Faces {
					got.Faces = append(got.Faces, [3]uint32{f[0] + off, f[1] + off, f[2] + off})
				}
			}
			if err := identicalSoup(got, whole); err != nil {
				t.Fatalf("%s, slabs %v: %v", tc.name, s, err)
			}
		}
	}
}

// TestExtractLayersHalo: a slab without the sample layer beyond a face
// is misuse (its normals would differ from the whole's): it panics naming
// the layers; a slab that has them all gives no panic at the volume's
// faces, where there is nothing beyond.
func TestExtractLayersHalo(t *testing.T) {
	v := volume.Sphere().SampleCube(8)
	iso := volume.Sphere().Iso
	l := Slab(v, 2, 5)
	if l.First != 1 || l.Samples.Dims[2] != 6 {
		t.Fatalf("Slab(2, 5): samples from %d, %d layers; want 1 and 6 (layers 1 to 6)", l.First, l.Samples.Dims[2])
	}
	short := func(drop func(l *Layers)) (msg string) {
		defer func() { msg = fmt.Sprint(recover()) }()
		l := Slab(v, 2, 5)
		drop(&l)
		ExtractLayers(l, iso)
		return ""
	}
	below := short(func(l *Layers) {
		l.First++
		l.Samples.Dims[2]--
		l.Samples.Data = l.Samples.Data[8*8:]
	})
	above := short(func(l *Layers) {
		l.Samples.Dims[2]--
		l.Samples.Data = l.Samples.Data[:len(l.Samples.Data)-8*8]
	})
	for _, msg := range []string{below, above} {
		if !strings.Contains(msg, "cell layers [2, 5) need sample layers 1 to 6") {
			t.Fatalf("a slab missing its overlap: panic %q, want one naming the layers", msg)
		}
	}
	if msg := short(func(l *Layers) { l.Z1 = 9 }); !strings.Contains(msg, "cell layers [2, 9) of a volume of 8") {
		t.Fatalf("cell layers past the volume: panic %q", msg)
	}
	for _, s := range [][2]int{{0, 7}, {0, 0}, {7, 7}, {6, 7}} {
		if _, _, err := ExtractLayers(Slab(v, s[0], s[1]), iso); err != nil {
			t.Fatalf("slab %v: %v", s, err)
		}
	}
	if _, _, err := ExtractLayers(Slab(v, 0, 7), float32(math.Inf(1))); err == nil {
		t.Fatal("an infinite isovalue: no error")
	}
}
