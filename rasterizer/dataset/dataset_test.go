package dataset

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/rasterizer/volume"
)

// TestDefaultTable1 is the acceptance test of the default dataset: at
// 512x512 and view (0,0) the balanced set's scan-conversion max/avg is at
// most 3 and the unbalanced set's at least 10.
func TestDefaultTable1(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the 128^3 default dataset")
	}
	p := Default()
	rows := p.Table1(512, 512)
	var out bytes.Buffer
	WriteTable1(&out, rows)
	t.Logf("%s: %d balanced, %d unbalanced triangles\n%s", p.Name, p.Balanced.Len(), p.Unbalanced.Len(), out.String())
	if n := p.Balanced.Len(); n < 50000 {
		t.Fatalf("balanced set has only %d triangles", n)
	}
	if r := p.Unbalanced.Len() * DefaultReduction; r > p.Balanced.Len() || r < p.Balanced.Len()*9/10 {
		t.Fatalf("unbalanced set has %d triangles, balanced %d: want about 1/%d", p.Unbalanced.Len(), p.Balanced.Len(), DefaultReduction)
	}
	r := rows[0]
	if r.View.Name != "(0,0)" {
		t.Fatalf("first row is %s", r.View.Name)
	}
	if x := r.Balanced.ScanRatio(); x > 3 || x < 1 {
		t.Errorf("balanced (0,0) scan max/avg = %d/%.2f = %.2f, want <= 3", r.Balanced.ScanMax, r.Balanced.ScanAvg, x)
	}
	if x := r.Unbalanced.ScanRatio(); x < 10 {
		t.Errorf("unbalanced (0,0) scan max/avg = %d/%.2f = %.2f, want >= 10", r.Unbalanced.ScanMax, r.Unbalanced.ScanAvg, x)
	}
	// Magnification clips: fewer triangles are visible than at (0,0), and
	// some unbalanced triangle is taller than the part of it in view.
	for i, r := range rows {
		mag := r.View.Magnification > 1
		if mag && (r.Balanced.Visible >= rows[i-2].Balanced.Visible || r.Unbalanced.Visible >= rows[i-2].Unbalanced.Visible) {
			t.Errorf("%s: %d/%d visible, no fewer than unmagnified", r.View.Name, r.Balanced.Visible, r.Unbalanced.Visible)
		}
		if r.Balanced.Scanlines == 0 || r.Unbalanced.Pixels == 0 {
			t.Errorf("%s: nothing drawn", r.View.Name)
		}
	}
	if !strings.Contains(out.String(), "M(45,45)") {
		t.Fatalf("table lacks M(45,45):\n%s", out.String())
	}
}

func TestSmallPair(t *testing.T) {
	p := FromField(volume.Sphere(), 20, 4)
	if p.Balanced.Len() == 0 || p.Unbalanced.Len() > p.Balanced.Len()/4 || len(p.Unbalanced.Normals) != len(p.Unbalanced.Positions) {
		t.Fatalf("sphere pair: %d and %d triangles", p.Balanced.Len(), p.Unbalanced.Len())
	}
	if p.Lo[0] > -0.6 || p.Hi[0] < 0.6 || p.Lo[0] < -0.71 {
		t.Fatalf("bounds %v %v", p.Lo, p.Hi)
	}
	same := FromField(volume.Sphere(), 20, 1)
	if same.Unbalanced != same.Balanced {
		t.Fatal("reduction 1 should keep the balanced set")
	}
	// No surface: bounds fall back to the volume's.
	empty := FromVolume("empty", volume.Sphere().SampleCube(5), 5, 2)
	if empty.Balanced.Len() != 0 || empty.Lo != [3]float32{-1, -1, -1} {
		t.Fatalf("empty pair: %d triangles, bounds %v", empty.Balanced.Len(), empty.Lo)
	}
	if rows := empty.Table1(64, 64); len(rows) != 4 || rows[0].Balanced.Triangles != 0 {
		t.Fatalf("empty table: %+v", rows)
	}
}

// TestNewRejects: volumes no surface can come from are errors that name
// the volume, not the isovalue; NaN voxels are skipped and counted.
func TestNewRejects(t *testing.T) {
	nan := float32(math.NaN())
	flat := volume.New([3]int{6, 5, 1}, [3]float32{1, 1, 1}, [3]float32{})
	if _, err := New("flat", flat, 0, 2); err == nil || !strings.Contains(err.Error(), "flat: the 6x5x1 volume is 1 sample thick along z") {
		t.Fatalf("a side of 1: %v", err)
	}
	allNaN := volume.New([3]int{3, 3, 3}, [3]float32{1, 1, 1}, [3]float32{})
	for i := range allNaN.Data {
		allNaN.Data[i] = nan
	}
	if _, err := New("nan", allNaN, 0, 2); err == nil || !strings.Contains(err.Error(), "none of the 27 samples") {
		t.Fatalf("all NaN: %v", err)
	}
	if _, err := New("sphere", volume.Sphere().SampleCube(5), nan, 2); err == nil || !strings.Contains(err.Error(), "isovalue NaN") {
		t.Fatalf("NaN isovalue: %v", err)
	}
	if _, err := Sample(volume.Sphere(), 100000, 2); err == nil || !strings.Contains(err.Error(), "100000x100000x100000") {
		t.Fatalf("100000^3: %v", err)
	}
	// A NaN mask over half the sphere: the other half is extracted and
	// decimated, the masked cells counted.
	v := volume.Sphere().SampleCube(20)
	for z := 0; z < 20; z++ {
		for y := 0; y < 20; y++ {
			for x := 0; x < 8; x++ {
				v.Data[v.Index(x, y, z)] = nan
			}
		}
	}
	p, err := New("masked", v, 0, 4)
	if err != nil {
		t.Fatal(err)
	}
	if p.Extraction.NonFinite != 8*19*19 || p.Balanced.Len() == 0 || p.Unbalanced.Len() == 0 || p.Lo[0] < -0.3 {
		t.Fatalf("masked sphere: %+v, %d and %d triangles, bounds %v", p.Extraction, p.Balanced.Len(), p.Unbalanced.Len(), p.Lo)
	}
}
