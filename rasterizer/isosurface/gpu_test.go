package isosurface

import (
	"fmt"
	"math"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/volume"
	"github.com/dpgl/dpgl/scan"
)

// sameSoup fails unless the GPU soup equals the CPU mesh triangle for
// triangle, in order: positions to 1e-5 of the grid's extent, normals to
// 1e-3 (GLSL division is not correctly rounded).
func sameSoup(t *testing.T, what string, v *volume.Volume, cpu *mesh.Mesh, pos, nrm [][3]float32) {
	t.Helper()
	want, wantN := cpu.Soup()
	if len(pos) != len(want) {
		t.Fatalf("%s: GPU made %d triangles, CPU %d", what, len(pos)/3, len(want)/3)
	}
	lo, hi := v.Bounds()
	extent := math.Max(float64(hi[0]-lo[0]), math.Max(float64(hi[1]-lo[1]), float64(hi[2]-lo[2])))
	for i := range pos {
		for a := 0; a < 3; a++ {
			if d := math.Abs(float64(pos[i][a] - want[i][a])); d > 1e-5*extent {
				t.Fatalf("%s: triangle %d vertex %d at %v, CPU %v", what, i/3, i%3, pos[i], want[i])
			}
			if d := math.Abs(float64(nrm[i][a] - wantN[i][a])); d > 1e-3 {
				t.Fatalf("%s: triangle %d vertex %d normal %v, CPU %v", what, i/3, i%3, nrm[i], wantN[i])
			}
		}
	}
}

func extract(t *testing.T, c *gpu.Context, e *Extractor, dst *mesh.GPU, v *volume.Volume, iso float32) *mesh.GPU {
	t.Helper()
	gv, err := volume.Upload(c, v)
	if err != nil {
		t.Fatal(err)
	}
	defer gv.Delete()
	dst, err = e.Extract(dst, gv, iso)
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestGPUMatchesCPU runs both extractions on every built-in field at several
// resolutions (including grids of size 2 along an axis) and at every
// isovalue the field names (one of which gives no surface).
func TestGPUMatchesCPU(t *testing.T) {
	c := gputest.Context(t)
	before := c.Live()
	e, err := NewExtractor(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	dst, err := mesh.NewGPU(c, 16)
	if err != nil {
		t.Fatal(err)
	}
	sizes := [][3]int{{2, 2, 2}, {2, 9, 5}, {7, 2, 3}, {5, 6, 2}, {17, 17, 17}, {33, 20, 26}}
	for _, f := range volume.Fields() {
		for _, dims := range sizes {
			v := f.Sample(dims[0], dims[1], dims[2])
			for _, iso := range append([]float32{f.Iso}, f.Isovalues...) {
				what := fmt.Sprintf("%s %v iso %v", f.Name, dims, iso)
				dst = extract(t, c, e, dst, v, iso)
				cpu := MarchingCubes(v, iso)
				pos, nrm := dst.DownloadSoup()
				sameSoup(t, what, v, cpu, pos, nrm)
				// The bounds, known without the download: the grid's box.
				lo, hi, ok := dst.Bounds()
				vlo, vhi := v.Bounds()
				if ok != (dst.N > 0) || ok && (lo != vlo || hi != vhi) {
					t.Fatalf("%s: bounds %v %v %v, want the grid's %v %v", what, lo, hi, ok, vlo, vhi)
				}
				for _, p := range pos {
					for a := 0; a < 3; a++ {
						if p[a] < lo[a] || p[a] > hi[a] {
							t.Fatalf("%s: vertex %v outside the bounds %v %v", what, p, lo, hi)
						}
					}
				}
				if dst.N > dst.Cap() {
					t.Fatalf("%s: N %d > Cap %d", what, dst.N, dst.Cap())
				}
			}
		}
	}
	// The default field at a size where many work groups run.
	f := volume.Default()
	v := f.SampleCube(64)
	dst = extract(t, c, e, dst, v, f.Iso)
	pos, nrm := dst.DownloadSoup()
	sameSoup(t, "perforator 64^3", v, MarchingCubes(v, f.Iso), pos, nrm)
	dst.Delete()
	e.Delete()
	// Programs belong to the Context's cache; every buffer must be gone.
	if after := c.Live(); after[gpu.KindBuffer] != before[gpu.KindBuffer] || after[gpu.KindQuery] != before[gpu.KindQuery] {
		t.Fatalf("GL objects leaked: %v before, %v after", before, after)
	}
}

// TestGPURandomFields compares on random fields, where samples equal to
// the isovalue make degenerate triangles and every case occurs.
func TestGPURandomFields(t *testing.T) {
	c := gputest.Context(t)
	e, err := NewExtractor(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Delete()
	rng := gputest.Rand(t)
	var dst *mesh.GPU
	for trial := 0; trial < 12; trial++ {
		dims := [3]int{2 + rng.IntN(12), 2 + rng.IntN(12), 2 + rng.IntN(12)}
		v := volume.New(dims, [3]float32{0.5, 0.25, 1}, [3]float32{3, -2, 0})
		for i := range v.Data {
			if trial%2 == 0 {
				v.Data[i] = float32(rng.IntN(3))
			} else {
				v.Data[i] = rng.Float32()
			}
		}
		iso := float32(1)
		if trial%2 == 1 {
			iso = 0.5
		}
		dst = extract(t, c, e, dst, v, iso)
		pos, nrm := dst.DownloadSoup()
		sameSoup(t, fmt.Sprintf("trial %d dims %v", trial, dims), v, MarchingCubes(v, iso), pos, nrm)
	}
	dst.Delete()
}

// TestGPUCapacity dispatches into a mesh too small for the surface: the
// kernel must stop at its capacity, Count must still say the total, and
// Extract must grow the mesh and finish the job.
func TestGPUCapacity(t *testing.T) {
	c := gputest.Context(t)
	e, err := NewExtractor(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Delete()
	v := volume.Sphere().SampleCube(12)
	cpu := MarchingCubes(v, 0)
	gv, err := volume.Upload(c, v)
	if err != nil {
		t.Fatal(err)
	}
	defer gv.Delete()
	small, err := mesh.NewGPU(c, 10)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Dispatch(small, gv, 0); err != nil {
		t.Fatal(err)
	}
	if n := e.Count(); n != cpu.Len() {
		t.Fatalf("Count %d, CPU %d", n, cpu.Len())
	}
	small.N = 10
	pos, nrm := small.DownloadSoup()
	want, _ := cpu.Soup()
	for i := range pos {
		if math.Abs(float64(pos[i][0]-want[i][0])) > 1e-5 || nrm[i] == ([3]float32{}) {
			t.Fatalf("vertex %d of the first 10 triangles: %v, CPU %v", i, pos[i], want[i])
		}
	}
	grown, err := e.Extract(small, gv, 0)
	if err != nil || grown != small || small.N != cpu.Len() || small.Cap() < cpu.Len() {
		t.Fatalf("Extract into a small mesh: %v, N %d, Cap %d", err, small.N, small.Cap())
	}
	pos, nrm = small.DownloadSoup()
	sameSoup(t, "grown", v, cpu, pos, nrm)
	small.Delete()
}

// TestGPUWatertight checks the GPU's sphere the way the CPU's is checked:
// welded by position, every edge has two triangles, one each way.
func TestGPUWatertight(t *testing.T) {
	c := gputest.Context(t)
	e, err := NewExtractor(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Delete()
	v := volume.Sphere().Sample(23, 19, 30)
	dst := extract(t, c, e, nil, v, 0)
	defer dst.Delete()
	pos, _ := dst.DownloadSoup()
	m := mesh.FromSoup(pos, nil) // weld by exact position: shared edges must agree bit for bit
	if border, euler := topology(t, "GPU sphere", v, m); border != 0 || euler != 2 {
		t.Fatalf("GPU sphere: %d border edges, Euler characteristic %d", border, euler)
	}
}

// TestGPUOnMRI extracts the skin of the MRI template that Debian's
// mricron-data installs, when present: real data, with plateaus of equal
// samples and a surface cut open by the grid's faces. Every second sample
// is used (91x109x91), which keeps the test to a second on llvmpipe.
func TestGPUOnMRI(t *testing.T) {
	const path = "/usr/share/mricron/templates/ch2.nii.gz"
	full, _, err := volume.LoadNIfTI(path)
	if err != nil {
		t.Skipf("%s: %v", path, err)
	}
	v := volume.New([3]int{91, 109, 91}, [3]float32{2, 2, 2}, [3]float32{})
	for z := 0; z < 91; z++ {
		for y := 0; y < 109; y++ {
			for x := 0; x < 91; x++ {
				v.Data[v.Index(x, y, z)] = full.At(2*x, 2*y, 2*z)
			}
		}
	}
	c := gputest.Context(t)
	e, err := NewExtractor(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Delete()
	const iso = 60
	cpu := MarchingCubes(v, iso)
	if cpu.Len() < 200000 {
		t.Fatalf("ch2 at %v: only %d triangles", iso, cpu.Len())
	}
	topology(t, "ch2", v, cpu)
	dst := extract(t, c, e, nil, v, iso)
	defer dst.Delete()
	pos, nrm := dst.DownloadSoup()
	sameSoup(t, "ch2", v, cpu, pos, nrm)
}

// TestGPUNoCells extracts from a grid one sample thick, which has no cells,
// with a caller's scanner.
func TestGPUNoCells(t *testing.T) {
	c := gputest.Context(t)
	s, err := scan.New(c)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Delete()
	e, err := NewExtractor(c, s)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Delete()
	v := volume.New([3]int{5, 1, 5}, [3]float32{1, 1, 1}, [3]float32{})
	dst := extract(t, c, e, nil, v, -1)
	defer dst.Delete()
	if dst.N != 0 || e.Count() != 0 {
		t.Fatalf("a flat grid gave %d triangles", dst.N)
	}
}
