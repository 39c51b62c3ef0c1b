package window

import (
	"testing"

	"github.com/dpgl/dpgl/gpu"
)

// TestBlitAndReadDefault blits a texture of known pixels into a window's
// default framebuffer, whole and into a corner, and reads the back buffer
// back with ReadDefault: the pixels arrive unchanged and in place.
func TestBlitAndReadDefault(t *testing.T) {
	needDisplay(t)
	const W, H = 40, 30
	w, err := Open(Options{Title: "test", Width: W, Height: H, Hidden: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	c := w.Ctx
	before := c.Live()
	tex, err := gpu.NewTexture(c, W, H, gpu.RGBA8)
	if err != nil {
		t.Fatal(err)
	}
	px := make([]byte, 4*W*H)
	for i := 0; i < W*H; i++ {
		// Every pixel distinct, alpha opaque: a window without an alpha
		// channel reads alpha as 255.
		px[4*i], px[4*i+1], px[4*i+2], px[4*i+3] = byte(i), byte(i>>8), byte(3*i), 255
	}
	tex.Write(px)
	fb, err := gpu.NewFramebuffer(c, nil, tex)
	if err != nil {
		t.Fatal(err)
	}
	small, _ := gpu.NewTexture(c, 4, 3, gpu.RGBA8)
	spx := make([]byte, 4*4*3)
	for i := range spx {
		spx[i] = 200 + byte(i%4)
		if i%4 == 3 {
			spx[i] = 255
		}
	}
	small.Write(spx)
	sfb, _ := gpu.NewFramebuffer(c, nil, small)

	c.Do(func() {
		c.BindFramebuffer(nil)
		c.BlitToDefault(fb, W, H)
	})
	got, err := c.ReadDefault(W, H)
	if err != nil {
		t.Fatal(err)
	}
	for i := range px {
		if got[i] != px[i] {
			t.Fatalf("after BlitToDefault, byte %d (pixel %d,%d) = %d, want %d", i, i/4%W, i/4/W, got[i], px[i])
		}
	}
	// The small texture into the rectangle at (10, 20): rows 20..22, columns
	// 10..13; everything else keeps the first blit.
	c.Do(func() { c.BlitToDefaultRect(sfb, 10, 20, 4, 3) })
	got, _ = c.ReadDefault(W, H)
	for y := 0; y < H; y++ {
		for x := 0; x < W; x++ {
			want := px[4*(y*W+x) : 4*(y*W+x)+4]
			if x >= 10 && x < 14 && y >= 20 && y < 23 {
				j := 4 * ((y-20)*4 + x - 10)
				want = spx[j : j+4]
			}
			g := got[4*(y*W+x) : 4*(y*W+x)+4]
			if string(g) != string(want) {
				t.Fatalf("after BlitToDefaultRect, pixel (%d,%d) = %v, want %v", x, y, g, want)
			}
		}
	}
	for _, d := range []interface{ Delete() }{sfb, small, fb, tex} {
		d.Delete()
	}
	if after := c.Live(); after != before {
		t.Fatalf("leaked: before %v after %v", before, after)
	}
}
