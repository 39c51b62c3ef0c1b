// Package overlay draws the viewer's text panels (statistics, key help) into
// images with a tiny embedded bitmap font: 5×7 glyphs of printable ASCII in
// 6×9 cells, scaled by whole pixels so that they stay sharp. The viewer
// uploads a panel to a texture and blits it into a corner of the window.
//
// Panel lays lines of text out in an image just large enough for them;
// DrawText draws one line into an image of the caller's; TextWidth and
// Scale size a panel for a window before drawing it; Glyph is the font
// itself (glyphs.go), one byte a row. A character outside printable ASCII
// draws as a box, never as nothing.
//
// Everything is plain Go on image.RGBA, with no GL and no state: the same
// lines give the same pixels on every run, and any goroutine may draw.
package overlay
