package rasterizer

import (
	"testing"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
)

// TestImageBufferToTexture: the image copied into a texture on the GPU is
// the image Pixels downloads, before and after SetOptions changes the size.
func TestImageBufferToTexture(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	m := uploadSoup(t, c, sphereSoup(8, 16))
	o := DefaultOptions()
	o.ScanConversion = quiet(balancer.Config{Policy: balancer.CostEffective})
	o.ZBuffer = quiet(balancer.Config{Policy: balancer.CostEffective})
	o.Width, o.Height = 37, 23
	rd, err := New(s, o)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Delete()
	for _, size := range [][2]int{{37, 23}, {16, 40}} {
		o.Width, o.Height = size[0], size[1]
		if err := rd.SetOptions(o); err != nil {
			t.Fatal(err)
		}
		if _, err := rd.Render(m, testViewCamera(o.Width, o.Height)); err != nil {
			t.Fatal(err)
		}
		buf := rd.ImageBuffer()
		if buf.Len() != o.Width*o.Height {
			t.Fatalf("%dx%d: ImageBuffer has %d pixels", o.Width, o.Height, buf.Len())
		}
		tex, err := gpu.NewTexture(c, o.Width, o.Height, gpu.RGBA8)
		if err != nil {
			t.Fatal(err)
		}
		tex.CopyFromBuffer(buf)
		got, want := tex.ReadUint32(), rd.Pixels()
		covered := 0
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%dx%d: texture pixel %d = %#x, Pixels %#x", o.Width, o.Height, i, got[i], want[i])
			}
			if want[i] != want[0] {
				covered++
			}
		}
		if covered == 0 {
			t.Fatalf("%dx%d: the sphere covers nothing; the test checks nothing", o.Width, o.Height)
		}
		tex.Delete()
	}
}
