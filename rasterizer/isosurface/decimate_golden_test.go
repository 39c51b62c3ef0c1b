package isosurface

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// meshHash is an FNV-1a hash of m's positions and normals (bits) and faces.
func meshHash(m *mesh.Mesh) uint64 {
	h := fnv.New64a()
	var b [4]byte
	put := func(u uint32) {
		b[0], b[1], b[2], b[3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
		h.Write(b[:])
	}
	for i, p := range m.Positions {
		for k := 0; k < 3; k++ {
			put(math.Float32bits(p[k]))
			if m.Normals != nil {
				put(math.Float32bits(m.Normals[i][k]))
			}
		}
	}
	for _, f := range m.Faces {
		put(f[0])
		put(f[1])
		put(f[2])
	}
	return h.Sum64()
}

type decimateCase struct {
	name string
	m    *mesh.Mesh
	opts DecimateOptions
}

// decimateGoldenCases are the meshes whose decimations the golden hashes
// fix: the paper's perforator (its unbalanced set is this decimation),
// closed and open surfaces, flat regions full of ties in cost, a random
// field's many small components, and an error bound instead of a target.
func decimateGoldenCases() []decimateCase {
	perf := volume.PerforatorJet()
	pm := MarchingCubes(perf.SampleCube(64), perf.Iso)
	sphere := MarchingCubes(volume.Sphere().SampleCube(33), 0)
	torus := MarchingCubes(volume.Torus().SampleCube(30), 0)
	// A box cut by the grid: flat faces (ties) and an open border.
	box := volume.New([3]int{20, 20, 12}, [3]float32{1, 1, 1}, [3]float32{})
	for z := 0; z < 12; z++ {
		for y := 0; y < 20; y++ {
			for x := 0; x < 20; x++ {
				if x > 3 && x < 16 && y > 2 && y < 17 {
					box.Data[box.Index(x, y, z)] = 1
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(11, 12))
	noise := volume.New([3]int{14, 13, 12}, [3]float32{1, 1, 1}, [3]float32{})
	for i := range noise.Data {
		noise.Data[i] = rng.Float32()*2 - 1
	}
	nm := MarchingCubes(noise, 0)
	return []decimateCase{
		{"perforator 64^3 to 1/5", pm, DecimateOptions{TargetFaces: pm.Len() / 5}},
		{"sphere to 1/10", sphere, DecimateOptions{TargetFaces: sphere.Len() / 10}},
		{"sphere max error", sphere, DecimateOptions{MaxError: 0.01}},
		{"torus to 100", torus, DecimateOptions{TargetFaces: 100}},
		{"open box to 1/8", MarchingCubes(box, 0.5), DecimateOptions{TargetFaces: 60}},
		{"noise to 1/3", nm, DecimateOptions{TargetFaces: nm.Len() / 3}},
	}
}

// TestDecimateGolden: Decimate's output, hashed bit for bit, is what it
// was before its queue and adjacency were made fast (commit 2be082b's
// Decimate gave these hashes): the paper's unbalanced sets, and so its
// images, are unchanged.
func TestDecimateGolden(t *testing.T) {
	want := map[string]struct {
		faces int
		hash  uint64
	}{
		"perforator 64^3 to 1/5": {5466, 0xd019a1ec744df44d},
		"sphere to 1/10":         {480, 0x796355aeb7d971a9},
		"sphere max error":       {206, 0xe3f2731c7a8e8932},
		"torus to 100":           {100, 0xb16fffc3623df5c0},
		"open box to 1/8":        {108, 0x34c2be6d4cb86a00},
		"noise to 1/3":           {1817, 0x092b1e7b41e672e6},
	}
	for _, c := range decimateGoldenCases() {
		d := Decimate(c.m, c.opts)
		w := want[c.name]
		if got := meshHash(d); d.Len() != w.faces || got != w.hash {
			t.Errorf("%s: %d faces, hash %#016x; want %d, %#016x", c.name, d.Len(), got, w.faces, w.hash)
		}
	}
}
