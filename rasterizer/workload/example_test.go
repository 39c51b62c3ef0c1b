package workload_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/dpgl/dpgl/rasterizer/workload"
)

// One triangle in an 8x8 image, with world coordinates in pixels. Its y
// range [0.5, 4.5] holds the centres of rows 0..4 (the range is closed: a
// vertex on a pixel centre counts), and at the bottom row its x range
// [0.5, 6.5] holds the centres of pixels 0..6.
func ExampleMeasure() {
	mvp := [16]float32(mgl32.Ortho(0, 8, 0, 8, -1, 1))
	tri := [][3]float32{{0.5, 0.5, 0}, {6.5, 0.5, 0}, {0.5, 4.5, 0}}
	scanlines, pixels := workload.Workloads(tri, mvp, 8, 8)
	s := workload.Measure(tri, mvp, 8, 8)
	fmt.Println("scanlines per triangle:", scanlines)
	fmt.Println("pixels per span:", pixels)
	fmt.Printf("scan max %d avg %.1f, z-buffer max %d avg %.1f\n", s.ScanMax, s.ScanAvg, s.SpanMax, s.SpanAvg)
	// Output:
	// scanlines per triangle: [5]
	// pixels per span: [7 5 4 2 1]
	// scan max 5 avg 5.0, z-buffer max 7 avg 3.8
}
