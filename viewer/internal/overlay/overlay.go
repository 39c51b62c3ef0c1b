package overlay

import (
	"image"
	"image/color"
)

// Glyph and cell sizes in font pixels: a glyph, then one column and two rows
// of spacing.
const (
	GlyphW, GlyphH = 5, 7
	CellW, CellH   = GlyphW + 1, GlyphH + 2
	// Pad is the panel's margin around its text, in font pixels.
	Pad = 3
)

// Glyph returns the bitmap of r: one byte a row, top row first, bit 4 the
// leftmost column. Characters outside printable ASCII get a box.
func Glyph(r rune) [GlyphH]uint8 {
	if r < 32 || r > 126 {
		return missing
	}
	return glyphs[r-32]
}

// TextWidth is the width in pixels of s drawn at scale: one cell a
// character (rune).
func TextWidth(s string, scale int) int {
	n := 0
	for range s {
		n++
	}
	return n * CellW * scale
}

// DrawText draws s into dst with the top-left corner of its first cell at
// (x, y), each font pixel a scale×scale square of colour c. Pixels outside
// dst are skipped.
func DrawText(dst *image.RGBA, x, y int, s string, scale int, c color.RGBA) {
	b := dst.Bounds()
	for _, r := range s {
		g := Glyph(r)
		for row := 0; row < GlyphH; row++ {
			for col := 0; col < GlyphW; col++ {
				if g[row]&(0x10>>col) == 0 {
					continue
				}
				for dy := 0; dy < scale; dy++ {
					for dx := 0; dx < scale; dx++ {
						px, py := x+col*scale+dx, y+row*scale+dy
						if image.Pt(px, py).In(b) {
							dst.SetRGBA(px, py, c)
						}
					}
				}
			}
		}
		x += CellW * scale
	}
}

// Panel draws lines of text in colour fg on a background bg, with a margin
// of Pad font pixels, in an image just large enough: width 2·Pad + the
// longest line's cells, height 2·Pad + one cell a line (less the last
// line's spacing), all times scale. It returns nil for no lines.
func Panel(lines []string, scale int, fg, bg color.RGBA) *image.RGBA {
	if len(lines) == 0 {
		return nil
	}
	if scale < 1 {
		scale = 1
	}
	w := 0
	for _, l := range lines {
		w = max(w, TextWidth(l, scale))
	}
	w += 2 * Pad * scale
	h := (2*Pad + len(lines)*CellH - (CellH - GlyphH)) * scale
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = bg.R, bg.G, bg.B, bg.A
	}
	for i, l := range lines {
		DrawText(img, Pad*scale, (Pad+i*CellH)*scale, l, scale, fg)
	}
	return img
}

// Scale is the font scale for a window of w×h pixels: 2 from 900 pixels
// across the shorter side, 1 below.
func Scale(w, h int) int {
	if min(w, h) >= 900 {
		return 2
	}
	return 1
}
