package picture

import (
	"bytes"
	"encoding/binary"
	"image"
	"math"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// head is a stand-in for a head in RAS+: an ellipsoid taller (superior,
// z) than wide, with a nose toward anterior (+y) and an ear on the
// patient's right (+x), on a 24x26x34 grid at 1 mm.
func head() *volume.Volume {
	v := volume.New([3]int{24, 26, 34}, [3]float32{1, 1, 1}, [3]float32{-12, -13, -17})
	for z := 0; z < 34; z++ {
		for y := 0; y < 26; y++ {
			for x := 0; x < 24; x++ {
				p := v.Position(x, y, z)
				px, py, pz := float64(p[0]), float64(p[1]), float64(p[2])
				s := 1 - math.Sqrt(px*px/64+py*py/81+pz*pz/196)
				nose := 0.5 - math.Sqrt(px*px+(py-9)*(py-9)+(pz-1)*(pz-1))/6
				ear := 0.5 - math.Sqrt((px-8)*(px-8)+py*py+(pz-2)*(pz-2))/6
				v.Data[v.Index(x, y, z)] = float32(max(s, nose, ear))
			}
		}
	}
	v.RAS = true
	return v
}

// niftiOf encodes v as a float32 NIfTI-1 file whose voxel axis j runs
// along world axis perm[j] (backwards where flip[j]), with the sform that
// says so; oriented false leaves sform_code and qform_code 0.
func niftiOf(v *volume.Volume, perm [3]int, flip [3]bool, oriented bool) []byte {
	var fd [3]int
	for j := range fd {
		fd[j] = v.Dims[perm[j]]
	}
	h := make([]byte, 352)
	le := binary.LittleEndian
	le.PutUint32(h[0:], 348)
	for i, d := range []int{3, fd[0], fd[1], fd[2], 1, 1, 1, 1} {
		le.PutUint16(h[40+2*i:], uint16(d))
	}
	le.PutUint16(h[70:], volume.NIfTIFloat32)
	le.PutUint16(h[72:], 32)
	le.PutUint32(h[108:], math.Float32bits(352))
	copy(h[344:], "n+1\x00")
	var srow [3][4]float32
	var n0 [3]int
	for j := 0; j < 3; j++ {
		a, sp := perm[j], v.Spacing[perm[j]]
		le.PutUint32(h[80+4*j:], math.Float32bits(sp))
		if flip[j] {
			n0[a], sp = fd[j]-1, -sp
		}
		srow[a][j] = sp
	}
	p := v.Position(n0[0], n0[1], n0[2])
	for a := 0; a < 3; a++ {
		srow[a][3] = p[a]
		for c := 0; c < 4; c++ {
			le.PutUint32(h[280+16*a+4*c:], math.Float32bits(srow[a][c]))
		}
	}
	if oriented {
		le.PutUint16(h[254:], 1)
	}
	var b bytes.Buffer
	b.Write(h)
	for k2 := 0; k2 < fd[2]; k2++ {
		for k1 := 0; k1 < fd[1]; k1++ {
			for k0 := 0; k0 < fd[0]; k0++ {
				k, n := [3]int{k0, k1, k2}, [3]int{}
				for j := 0; j < 3; j++ {
					n[perm[j]] = k[j]
					if flip[j] {
						n[perm[j]] = fd[j] - 1 - k[j]
					}
				}
				binary.Write(&b, le, v.At(n[0], n[1], n[2]))
			}
		}
	}
	return b.Bytes()
}

// extent is the bounding box of the pixels that are not background, and
// the surface pixels in its leftmost and rightmost tenth: a small feature
// that sticks out (an ear, a nose) leaves few pixels at its side's edge,
// where the ellipsoid's side on the other leaves many.
func extent(img *image.RGBA, bg [4]uint8) (box image.Rectangle, left, right int) {
	surface := func(x, y int) bool {
		o := img.PixOffset(x, y)
		return [4]uint8(img.Pix[o:o+4]) != bg
	}
	x0, y0, x1, y1 := img.Rect.Dx(), img.Rect.Dy(), 0, 0
	for y := 0; y < img.Rect.Dy(); y++ {
		for x := 0; x < img.Rect.Dx(); x++ {
			if surface(x, y) {
				x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x+1), max(y1, y+1)
			}
		}
	}
	box = image.Rect(x0, y0, x1, y1)
	edge := max(box.Dx()/10, 1)
	for y := y0; y < y1; y++ {
		for d := 0; d < edge; d++ {
			if surface(x0+d, y) {
				left++
			}
			if surface(x1-1-d, y) {
				right++
			}
		}
	}
	return box, left, right
}

// TestUprightHead: a volume in RAS+ stands upright at (0,0) (facing it:
// the right ear on the image's left) and at (90,0) (its left side: the
// nose on the image's left); a file with its axes flipped and transposed,
// whose sform says so, draws the same pictures byte for byte, and the
// same file read without its orientation does not.
func TestUprightHead(t *testing.T) {
	c := gputest.Context(t)
	views, err := view.ParseList("(0,0) (90,0) (30,15)x2.5")
	if err != nil {
		t.Fatal(err)
	}
	o := DefaultOptions()
	o.Width, o.Height = 96, 80
	bg := rasterizer.DefaultMaterial.Background
	bgPix := [4]uint8{bg.R, bg.G, bg.B, bg.A}
	ref, err := Volume(c, head(), 0, views, o)
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"(0,0)", "(90,0)"} {
		box, left, right := extent(ref[i], bgPix)
		if box.Dy() <= box.Dx() {
			t.Errorf("%s: the head covers %v: not upright (taller than wide)", name, box)
		}
		if left*2 > right {
			t.Errorf("%s: %d surface pixels at the left edge, %d at the right: want the ear or nose sticking out on the left", name, left, right)
		}
	}
	// Zoomed, the head is cut by the image's top and bottom, which
	// hold it whole at (0,0).
	if whole, _, _ := extent(ref[0], bgPix); whole.Dy() >= o.Height {
		t.Errorf("(0,0) covers %v: the whole head should fit the %dx%d image", whole, o.Width, o.Height)
	}
	if box, _, _ := extent(ref[2], bgPix); box.Dy() != o.Height {
		t.Errorf("(30,15)x2.5 covers %v, want the image's whole height, %d", box, o.Height)
	}
	for _, c2 := range []struct {
		perm [3]int
		flip [3]bool
	}{{[3]int{0, 1, 2}, [3]bool{}}, {[3]int{0, 1, 2}, [3]bool{true, false, false}}, {[3]int{2, 0, 1}, [3]bool{false, true, true}}} {
		file := niftiOf(head(), c2.perm, c2.flip, true)
		v, _, err := volume.ReadNIfTI(bytes.NewReader(file))
		if err != nil {
			t.Fatal(err)
		}
		got, err := Volume(c, v, 0, views, o)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if !bytes.Equal(got[i].Pix, ref[i].Pix) {
				t.Fatalf("axes %v flipped %v: %s differs from the RAS volume's picture", c2.perm, c2.flip, views[i].Name)
			}
		}
	}
	plain, _, err := volume.ReadNIfTI(bytes.NewReader(niftiOf(head(), [3]int{2, 0, 1}, [3]bool{false, true, true}, false)))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Volume(c, plain, 0, views[:1], o)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(got[0].Pix, ref[0].Pix) {
		t.Fatal("a turned file read without its orientation drew the upright picture: the test cannot tell")
	}
}

// TestErrors: what cannot make a picture is an error naming why.
func TestErrors(t *testing.T) {
	c := gputest.Context(t)
	views := view.Paper()[:1]
	o := DefaultOptions()
	o.Width, o.Height = 16, 16
	for _, e := range []struct {
		v    *volume.Volume
		iso  float32
		want string
	}{
		{head(), float32(math.NaN()), "picture: isovalue NaN: want a finite number"},
		{head(), 5, "picture: the surface is empty at isovalue 5 (the samples run from"},
		{volume.New([3]int{4, 1, 4}, [3]float32{1, 1, 1}, [3]float32{}), 0, "picture: a 4x1x4 volume has a side of 1 sample"},
	} {
		if _, err := Volume(c, e.v, e.iso, views, o); err == nil || !strings.HasPrefix(err.Error(), e.want) {
			t.Errorf("got %v, want an error beginning %q", err, e.want)
		}
	}
	if _, err := Mesh(c, &mesh.Mesh{}, views, o); err == nil || !strings.Contains(err.Error(), "no triangles") {
		t.Errorf("empty mesh: %v", err)
	}
	o.Width = 0
	if _, err := Mesh(c, &mesh.Mesh{}, views, o); err == nil || !strings.Contains(err.Error(), "image size 0x16") {
		t.Errorf("width 0: %v", err)
	}
}
