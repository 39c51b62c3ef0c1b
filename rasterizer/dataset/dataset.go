package dataset

import (
	"fmt"
	"io"

	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
	"github.com/dpgl/dpgl/rasterizer/workload"
)

const (
	// DefaultResolution is the default dataset's grid size per axis.
	DefaultResolution = 128
	// DefaultReduction is the factor by which decimation reduces the
	// balanced set's triangle count to make the unbalanced set.
	DefaultReduction = 5
)

// Pair is one isosurface as a balanced and an unbalanced polygon set.
type Pair struct {
	Name   string
	Volume *volume.Volume
	Iso    float32
	// Balanced is the marching-cubes surface: triangles about the size
	// of a grid cell.
	Balanced *mesh.Mesh
	// Unbalanced is Balanced decimated by quadric error to 1/Reduction of
	// its triangles, with normals from the field's gradient.
	Unbalanced *mesh.Mesh
	// Lo and Hi bound the balanced set; views of both sets are fitted to
	// them, so that the two are seen alike.
	Lo, Hi [3]float32
	// Extraction counts the cells of the marching-cubes run, those
	// skipped for a NaN or ±Inf corner among them.
	Extraction isosurface.Stats
	// Frame maps a mesh pair's positions back to the file's coordinates
	// (FromMesh moves them into the unit box); zero for a volume's pair.
	Frame mesh.Frame
	// Orbit orients the views of the pair (view.View.In): view.RAS for a
	// volume in anatomy's RAS+ coordinates (volume.Volume.RAS), so that
	// (0,0) faces a head upright; the zero Frame, the paper's, otherwise.
	Orbit view.Frame
}

// Default is the embedded default dataset: PerforatorJet at
// DefaultResolution^3, reduced by DefaultReduction. It takes about a second
// to make.
func Default() *Pair {
	return FromField(volume.Default(), DefaultResolution, DefaultReduction)
}

// FromField samples f at n^3 and extracts its surface at f.Iso. It panics
// where Sample would fail: a program taking n from its user calls Sample.
func FromField(f volume.Field, n, reduction int) *Pair {
	p, err := Sample(f, n, reduction)
	if err != nil {
		panic("dataset: FromField: " + err.Error())
	}
	return p
}

// FromVolume is New for volumes known to be good (the built-in fields,
// tests): it panics where New returns an error.
func FromVolume(name string, v *volume.Volume, iso float32, reduction int) *Pair {
	p, err := New(name, v, iso, reduction)
	if err != nil {
		panic("dataset: FromVolume: " + err.Error())
	}
	return p
}

// Sample samples f at n^3 (volume.Field.SampleGrid, which refuses sizes
// beyond volume.CheckGrid's limits before allocating) and makes the pair
// of its surface at f.Iso with New.
func Sample(f volume.Field, n, reduction int) (*Pair, error) {
	v, err := f.SampleGrid([3]int{n, n, n})
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	return New(fmt.Sprintf("%s %d^3", f.Name, n), v, f.Iso, reduction)
}

// New extracts v's surface at iso with marching cubes (isosurface.Extract:
// cells with a NaN or ±Inf corner are skipped and counted in
// Pair.Extraction) and decimates it to 1/reduction of its triangles
// (reduction >= 1; 1 keeps them all). It returns an error, naming the
// volume and the value, for a volume no surface can come from (a side of
// 1 sample, no finite sample), a non-finite isovalue, or a surface beyond
// the memory limit (volume.MemoryLimit). An isovalue that no sample
// crosses gives an empty pair, not an error: the caller knows which
// isovalue its user chose.
func New(name string, v *volume.Volume, iso float32, reduction int) (*Pair, error) {
	if reduction < 1 {
		panic(fmt.Sprintf("dataset: New: reduction %d, want >= 1", reduction))
	}
	if err := v.Validate(); err != nil {
		return nil, fmt.Errorf("dataset: %s: %w", name, err)
	}
	for a, d := range v.Dims {
		if d < 2 {
			return nil, fmt.Errorf("dataset: %s: the %dx%dx%d volume is 1 sample thick along %c: it has no cells to extract a surface from",
				name, v.Dims[0], v.Dims[1], v.Dims[2], "xyz"[a])
		}
	}
	p := &Pair{Name: name, Volume: v, Iso: iso}
	if v.RAS {
		p.Orbit = view.RAS
	}
	var err error
	if p.Balanced, p.Extraction, err = isosurface.Extract(v, iso); err != nil {
		return nil, fmt.Errorf("dataset: %s: %w", name, err)
	}
	p.Unbalanced = Unbalance(p.Balanced, v, reduction)
	var ok bool
	if p.Lo, p.Hi, ok = p.Balanced.Bounds(); !ok {
		p.Lo, p.Hi = v.Bounds()
	}
	return p, nil
}

// Unbalance makes the unbalanced set of a balanced one, as New and
// FromMesh do: its quadric-error decimation to 1/reduction of its
// triangles, with normals from v's gradient when v is not nil (a mesh's
// pair has no field and keeps the decimation's normals). With reduction 1,
// or fewer triangles than reduction, it is the balanced set itself.
func Unbalance(balanced *mesh.Mesh, v *volume.Volume, reduction int) *mesh.Mesh {
	if reduction < 1 {
		panic(fmt.Sprintf("dataset: Unbalance: reduction %d, want >= 1", reduction))
	}
	if reduction == 1 || balanced.Len() < reduction {
		return balanced
	}
	m := isosurface.Decimate(balanced, isosurface.DecimateOptions{TargetFaces: balanced.Len() / reduction})
	if v != nil {
		isosurface.SetFieldNormals(m, v)
	}
	return m
}

// Camera is the view, in the pair's Orbit unless it has a frame of its
// own, fitted to the pair's bounds for a w×h image.
func (p *Pair) Camera(v view.View, w, h int) view.Camera { return v.In(p.Orbit).Fit(p.Lo, p.Hi, w, h) }

// Row is one line of Table 1: both sets' workloads at one view.
type Row struct {
	View                 view.View
	Balanced, Unbalanced workload.Stats
}

// Table1 measures both sets at the paper's four views in a w×h image.
func (p *Pair) Table1(w, h int) []Row {
	bal, _ := p.Balanced.Soup()
	unb, _ := p.Unbalanced.Soup()
	var rows []Row
	for _, v := range view.Paper() {
		mvp := p.Camera(v, w, h).MVP()
		rows = append(rows, Row{View: v, Balanced: workload.Measure(bal, mvp, w, h), Unbalanced: workload.Measure(unb, mvp, w, h)})
	}
	return rows
}

// WriteTable1 prints rows in the layout of the paper's Table 1 (max and
// average workload of the scan-conversion and z-buffer loops, balanced and
// unbalanced), with the max/avg ratios.
func WriteTable1(w io.Writer, rows []Row) {
	fmt.Fprintf(w, "%-10s %-34s %-34s\n", "", "balanced: scan | z-buffer", "unbalanced: scan | z-buffer")
	fmt.Fprintf(w, "%-10s %-34s %-34s\n", "view", "max   avg  (x)  | max   avg  (x)", "max   avg  (x)  | max   avg  (x)")
	cell := func(s workload.Stats) string {
		return fmt.Sprintf("%-4d %5.2f %4.1f | %-4d %5.2f %4.1f", s.ScanMax, s.ScanAvg, s.ScanRatio(), s.SpanMax, s.SpanAvg, s.SpanRatio())
	}
	for _, r := range rows {
		fmt.Fprintf(w, "%-10s %-34s %-34s\n", r.View.Name, cell(r.Balanced), cell(r.Unbalanced))
	}
}
