package experiment

import "fmt"

// ImageCheck compares every frame of a set at a view with the first one
// and keeps the first one's image.
type ImageCheck struct {
	ref map[[2]string]imageRef
}

type imageRef struct {
	pixels, prims []uint32
	label         string
}

// Compare compares the image and primitive ids a frame drew with the first
// frame's of the same set and view, and records the result in fr (Same,
// Differ, Captured); the first frame's are kept (first is true then).
func (ic *ImageCheck) Compare(pix, prims []uint32, fr *Frame) (first bool) {
	if ic.ref == nil {
		ic.ref = map[[2]string]imageRef{}
	}
	key := [2]string{SetNames[fr.Set], fr.View.Name}
	fr.Captured = true
	ref, ok := ic.ref[key]
	if !ok {
		ic.ref[key] = imageRef{pix, prims, fmt.Sprintf("%v lanes %s", fr.Policy, LanesLabel(fr.Lanes))}
		fr.Same = true
		return true
	}
	fr.Differ = countDiffer(pix, prims, ref.pixels, ref.prims)
	fr.Same = fr.Differ == 0
	return false
}

// countDiffer counts the pixels whose colour or primitive id differ.
func countDiffer(pix, prims, refPix, refPrims []uint32) int {
	if len(pix) != len(refPix) || len(prims) != len(refPrims) || len(pix) != len(prims) {
		return max(len(pix), len(refPix))
	}
	n := 0
	for i := range pix {
		if pix[i] != refPix[i] || prims[i] != refPrims[i] {
			n++
		}
	}
	return n
}

// Pixels returns the kept image of a set at a view (packed RGBA8, bottom
// row first), or nil.
func (ic *ImageCheck) Pixels(set int, view string) []uint32 {
	return ic.ref[[2]string{SetNames[set], view}].pixels
}
