package overlay

import (
	"image"
	"image/color"
	"strings"
	"testing"
)

var (
	white = color.RGBA{255, 255, 255, 255}
	dark  = color.RGBA{10, 20, 30, 200}
)

// TestGlyphs: every printable character has a glyph within 5 columns, only
// the space is blank, no two characters look alike, and anything else gets
// the box.
func TestGlyphs(t *testing.T) {
	seen := map[[GlyphH]uint8]rune{}
	for r := rune(32); r <= 126; r++ {
		g := Glyph(r)
		blank := true
		for _, row := range g {
			if row&^0x1F != 0 {
				t.Fatalf("%q: row %#x is wider than 5 columns", r, row)
			}
			blank = blank && row == 0
		}
		if blank != (r == ' ') {
			t.Fatalf("%q: blank %v", r, blank)
		}
		if o, ok := seen[g]; ok {
			t.Fatalf("%q and %q have the same glyph", o, r)
		}
		seen[g] = r
		if g == missing {
			t.Fatalf("%q is drawn as the missing-character box", r)
		}
	}
	for _, r := range []rune{0, '\n', 127, 'é', '…', '≤'} {
		if Glyph(r) != missing {
			t.Fatalf("%q: not the box", r)
		}
	}
}

// TestDrawText draws "L" at (x, y) = (2, 1) at scale 2: its vertical bar is
// column 0 of rows 0–6 and its foot row 6, so exactly these font pixels are
// set, each as a 2×2 square.
func TestDrawText(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 20, 20))
	DrawText(img, 2, 1, "L", 2, white)
	want := map[image.Point]bool{}
	for row := 0; row < 7; row++ {
		for col := 0; col < 5; col++ {
			if col == 0 || row == 6 {
				for d := 0; d < 4; d++ {
					want[image.Pt(2+2*col+d%2, 1+2*row+d/2)] = true
				}
			}
		}
	}
	for y := 0; y < 20; y++ {
		for x := 0; x < 20; x++ {
			on := img.RGBAAt(x, y) == white
			if on != want[image.Pt(x, y)] {
				t.Fatalf("pixel (%d,%d) set %v, want %v", x, y, on, want[image.Pt(x, y)])
			}
		}
	}
	// Off the image edges: clipped, no panic.
	DrawText(img, -7, 15, "MW", 3, white)
}

func TestPanel(t *testing.T) {
	if Panel(nil, 1, white, dark) != nil {
		t.Fatal("a panel for no lines")
	}
	lines := []string{"frame 12.5 ms", "", "policy CostEffective"}
	for _, scale := range []int{1, 2} {
		p := Panel(lines, scale, white, dark)
		w := (2*Pad + len(lines[2])*CellW) * scale
		h := (2*Pad + 3*CellH - 2) * scale
		if p.Bounds() != image.Rect(0, 0, w, h) {
			t.Fatalf("scale %d: bounds %v, want %dx%d", scale, p.Bounds(), w, h)
		}
		// The margin is background; some text pixel is set in each
		// non-empty line's band and none in the empty line's.
		for x := 0; x < w; x++ {
			for _, y := range []int{0, h - 1} {
				if p.RGBAAt(x, y) != dark {
					t.Fatalf("scale %d: margin pixel (%d,%d) is %v", scale, x, y, p.RGBAAt(x, y))
				}
			}
		}
		for i, l := range lines {
			set := 0
			for y := (Pad + i*CellH) * scale; y < (Pad+i*CellH+GlyphH)*scale; y++ {
				for x := 0; x < w; x++ {
					if p.RGBAAt(x, y) == white {
						set++
					}
				}
			}
			if (set > 0) != (strings.TrimSpace(l) != "") {
				t.Fatalf("scale %d line %d %q: %d text pixels", scale, i, l, set)
			}
		}
	}
	if TextWidth("ab≤", 2) != 3*CellW*2 {
		t.Fatal("TextWidth counts bytes, not characters")
	}
	if Scale(512, 512) != 1 || Scale(1920, 1080) != 2 {
		t.Fatal("Scale")
	}
}
