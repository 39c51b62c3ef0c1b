package rasterizer

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
)

// randomSoup makes n triangles of widely varying size around the origin,
// some degenerate, some with NaN and Inf, some behind the eye.
func randomSoup(r *rand.Rand, n int) [][3]float32 {
	var soup [][3]float32
	for i := 0; i < n; i++ {
		s := float32(math.Pow(10, r.Float64()*4-2.5))
		c := [3]float32{(r.Float32() - 0.5) * 4, (r.Float32() - 0.5) * 4, (r.Float32() - 0.5) * 8}
		for k := 0; k < 3; k++ {
			soup = append(soup, [3]float32{c[0] + (r.Float32()-0.5)*s, c[1] + (r.Float32()-0.5)*s, c[2] + (r.Float32()-0.5)*s})
		}
		switch i % 50 {
		case 7:
			soup[len(soup)-1] = soup[len(soup)-2] // zero area
		case 13:
			soup[len(soup)-1][1] = float32(math.NaN())
		case 17:
			soup[len(soup)-2][0] = float32(math.Inf(-1))
		}
	}
	return soup
}

func testCamera(w, h int) [16]float32 {
	p := mgl32.Perspective(mgl32.DegToRad(50), float32(w)/float32(h), 0.5, 20)
	v := mgl32.LookAtV(mgl32.Vec3{0.3, 0.2, 3}, mgl32.Vec3{0, 0, 0}, mgl32.Vec3{0, 1, 0})
	return [16]float32(p.Mul4(v))
}

func toVec4(soup [][3]float32) []mesh.Vec4 {
	out := make([]mesh.Vec4, len(soup))
	for i, p := range soup {
		out[i] = mesh.Vec4{p[0], p[1], p[2], 1}
	}
	return out
}

// gpuSetup runs both setup passes with the scan of counts done on the host.
func gpuSetup(t *testing.T, c *gpu.Context, soup [][3]float32, mvp *[16]float32, w, h int) ([]raster.Triangle, []uint32, raster.SetupStats) {
	s, err := newSetupStage(c, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.delete()
	pos, _ := gpu.NewBufferFrom(c, toVec4(soup))
	defer pos.Delete()
	n := len(soup) / 3
	b := &setupBatch{pos: pos, n: n, mvp: mvp, width: w, height: h}
	// The inputs' set-up triangles, then the clipped ones': at most 7 an
	// input triangle.
	tb, _ := gpu.NewBuffer[gpuTri](c, 8*n+1)
	defer tb.Delete()
	if err := s.countPass(b, tb, nil); err != nil {
		t.Fatal(err)
	}
	counts := make([]uint32, n)
	s.counts.Read(0, counts)
	total := uint32(0)
	for i, k := range counts {
		counts[i] = total
		total += k
	}
	s.counts.Write(0, counts)
	sl, _ := gpu.NewBuffer[uint32](c, max(int(total), 1))
	rb, _ := gpu.NewBuffer[uint32](c, int(total)+1) // and the zero the emitting pass writes past the rows
	defer sl.Delete()
	defer rb.Delete()
	s.emitPass(b, int(total), tb, sl, rb)
	all := tb.Download()
	out := make([]raster.Triangle, total)
	for k, slot := range sl.Download()[:total] {
		out[k] = all[slot].triangle()
	}
	st, _, _ := s.readStats(n, int(total))
	return out, rb.Download()[:total], st
}

func TestSetupMatchesCPUBitForBit(t *testing.T) {
	c := gputest.Context(t)
	r := gputest.Rand(t)
	for _, size := range [][2]int{{512, 512}, {97, 61}, {1, 1}} {
		w, h := size[0], size[1]
		mvp := testCamera(w, h)
		soup := randomSoup(r, 3000)
		got, rows, gst := gpuSetup(t, c, soup, &mvp, w, h)
		want, cst := raster.SetupMesh(&mvp, soup, w, h)
		if gst != cst {
			t.Fatalf("%dx%d: GPU stats %+v, CPU %+v", w, h, gst, cst)
		}
		if cst.Clipped == 0 || cst.Outside == 0 || cst.NonFinite == 0 || cst.ZeroArea == 0 {
			t.Fatalf("the random soup does not exercise every case: %+v", cst)
		}
		if len(got) != len(want) {
			t.Fatalf("%dx%d: %d triangles on the GPU, %d on the CPU", w, h, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%dx%d: triangle %d\nGPU %+v\nCPU %+v", w, h, i, got[i], want[i])
			}
			if int(rows[i]) != want[i].Rows() {
				t.Fatalf("triangle %d: workload %d rows, want %d", i, rows[i], want[i].Rows())
			}
		}
		t.Logf("%dx%d: %+v", w, h, cst)
	}
}
