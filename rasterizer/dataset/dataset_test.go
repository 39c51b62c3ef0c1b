package dataset

import (
	"bytes"
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
