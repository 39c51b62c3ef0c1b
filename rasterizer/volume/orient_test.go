package volume

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// rasVolume is the reference of the orientation tests: a 5x4x3 volume
// whose every voxel differs, in RAS+ at spacing (1, 2, 3) from (10, 20, 30).
func rasVolume() *Volume {
	v := New([3]int{5, 4, 3}, [3]float32{1, 2, 3}, [3]float32{10, 20, 30})
	for i := range v.Data {
		v.Data[i] = float32(i*7%60) + 0.5
	}
	v.RAS = true
	return v
}

// orientedFile writes ref's voxels as a file whose voxel axis j runs along
// world axis perm[j], backwards where flip[j], with the sform that says so.
func orientedFile(ref *Volume, perm [3]int, flip [3]bool) []byte {
	var fd [3]int
	for j := range fd {
		fd[j] = ref.Dims[perm[j]]
	}
	s := niiSpec{dim: [8]int16{3, int16(fd[0]), int16(fd[1]), int16(fd[2]), 1, 1, 1, 1}, sform: 2}
	var n0 [3]int // the world sample of file voxel (0, 0, 0)
	for j := 0; j < 3; j++ {
		a, sp := perm[j], ref.Spacing[perm[j]]
		s.pixdim[j+1] = sp
		if flip[j] {
			n0[a] = fd[j] - 1
			sp = -sp
		}
		s.srow[a][j] = sp
	}
	p := ref.Position(n0[0], n0[1], n0[2])
	for a := 0; a < 3; a++ {
		s.srow[a][3] = p[a]
	}
	for k2 := 0; k2 < fd[2]; k2++ {
		for k1 := 0; k1 < fd[1]; k1++ {
			for k0 := 0; k0 < fd[0]; k0++ {
				k := [3]int{k0, k1, k2}
				var n [3]int
				for j := 0; j < 3; j++ {
					n[perm[j]] = k[j]
					if flip[j] {
						n[perm[j]] = fd[j] - 1 - k[j]
					}
				}
				s.voxels = append(s.voxels, float64(ref.At(n[0], n[1], n[2])))
			}
		}
	}
	return encodeNIfTI(s)
}

func sameVolume(t *testing.T, what string, got, want *Volume, tol float32) {
	t.Helper()
	if got.Dims != want.Dims || got.RAS != want.RAS {
		t.Fatalf("%s: dims %v RAS %v, want %v %v", what, got.Dims, got.RAS, want.Dims, want.RAS)
	}
	for a := 0; a < 3; a++ {
		if d := got.Spacing[a] - want.Spacing[a]; d > tol || d < -tol {
			t.Fatalf("%s: spacing %v, want %v", what, got.Spacing, want.Spacing)
		}
		if d := got.Origin[a] - want.Origin[a]; d > tol || d < -tol {
			t.Fatalf("%s: origin %v, want %v", what, got.Origin, want.Origin)
		}
	}
	for i := range want.Data {
		if got.Data[i] != want.Data[i] {
			t.Fatalf("%s: sample %d is %v, want %v", what, i, got.Data[i], want.Data[i])
		}
	}
}

// TestNIfTIOrientation: the same volume written with its axes in every
// order and direction (48 files), each with the sform that says so, reads
// as one volume, bit for bit; so do qform files, and a file without an
// orientation reads as before, voxel axes as world axes.
func TestNIfTIOrientation(t *testing.T) {
	ref := rasVolume()
	perms := [][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	for _, perm := range perms {
		for f := 0; f < 8; f++ {
			flip := [3]bool{f&1 != 0, f&2 != 0, f&4 != 0}
			v, h, err := ReadNIfTI(bytes.NewReader(orientedFile(ref, perm, flip)))
			if err != nil {
				t.Fatalf("axes %v flipped %v: %v", perm, flip, err)
			}
			if h.Orientation.By != "sform" || h.Orientation.Axis != perm || h.Orientation.Flip != flip {
				t.Fatalf("axes %v flipped %v: read as %+v", perm, flip, h.Orientation)
			}
			sameVolume(t, "sform", v, ref, 0)
		}
	}

	// qform: a half turn about z with qfac −1 flips all three axes; a
	// quarter turn about x takes voxel axis 1 to superior and 2 to
	// posterior.
	s2 := float32(math.Sqrt2 / 2)
	for _, c := range []struct {
		quatern [6]float32
		qfac    float32
		perm    [3]int
		flip    [3]bool
	}{
		{[6]float32{0, 0, 1}, -1, [3]int{0, 1, 2}, [3]bool{true, true, true}},
		{[6]float32{s2, 0, 0}, 1, [3]int{0, 2, 1}, [3]bool{false, false, true}},
		{[6]float32{0, 0, 0}, 0, [3]int{0, 1, 2}, [3]bool{}},
	} {
		sf := orientedFile(ref, c.perm, c.flip)
		spec := niiSpec{qform: 1, sform: 0}
		// The sform file's header and voxels, its sform replaced by the qform.
		v0, h0, err := ReadNIfTI(bytes.NewReader(sf))
		if err != nil {
			t.Fatal(err)
		}
		spec.dim = h0.Dim
		spec.pixdim = h0.Pixdim
		spec.pixdim[0] = c.qfac
		q := c.quatern
		for a := 0; a < 3; a++ {
			q[3+a] = float32(h0.Orientation.Affine[a][3])
		}
		spec.quatern = q
		raw := sf[352:]
		for i := 0; i < len(raw); i += 4 {
			spec.voxels = append(spec.voxels, float64(math.Float32frombits(uint32(raw[i])|uint32(raw[i+1])<<8|uint32(raw[i+2])<<16|uint32(raw[i+3])<<24)))
		}
		v, h, err := ReadNIfTI(bytes.NewReader(encodeNIfTI(spec)))
		if err != nil {
			t.Fatalf("qform %v: %v", c.quatern, err)
		}
		if h.Orientation.By != "qform" || h.Orientation.Axis != c.perm || h.Orientation.Flip != c.flip {
			t.Fatalf("qform %v qfac %v: read as %+v", c.quatern, c.qfac, h.Orientation)
		}
		sameVolume(t, "qform", v, v0, 1e-5)
	}

	// No orientation: voxel axes, pixdim spacing, origin 0, not RAS.
	v, h, err := ReadNIfTI(bytes.NewReader(encodeNIfTI(niiSpec{pixdim: [8]float32{0, 2, 3, 4}, voxels: sampleValues(true)})))
	if err != nil {
		t.Fatal(err)
	}
	if h.Orientation.By != "pixdim" || v.RAS || v.Spacing != [3]float32{2, 3, 4} || v.Origin != [3]float32{} || v.Dims != [3]int{3, 2, 2} {
		t.Fatalf("no orientation: %+v, volume %v %v %v RAS %v", h.Orientation, v.Dims, v.Spacing, v.Origin, v.RAS)
	}
}

// TestNIfTIOrientationLayers: a slab of a file already in RAS+ is the
// whole volume's layers at its origin; a slab of a turned file keeps the
// file's axes and does not claim RAS.
func TestNIfTIOrientationLayers(t *testing.T) {
	ref := rasVolume()
	whole, _, err := ReadNIfTI(bytes.NewReader(orientedFile(ref, [3]int{0, 1, 2}, [3]bool{})))
	if err != nil {
		t.Fatal(err)
	}
	slab, _, err := ReadNIfTILayers(bytes.NewReader(orientedFile(ref, [3]int{0, 1, 2}, [3]bool{})), 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !slab.RAS || slab.Origin != whole.Origin || slab.Spacing != whole.Spacing {
		t.Fatalf("RAS file's slab: RAS %v origin %v spacing %v, whole %v %v", slab.RAS, slab.Origin, slab.Spacing, whole.Origin, whole.Spacing)
	}
	sameLayers(t, "RAS file", whole, slab, 1)
	turned, _, err := ReadNIfTILayers(bytes.NewReader(orientedFile(ref, [3]int{2, 0, 1}, [3]bool{true, false, false})), 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	if turned.RAS || turned.Dims != [3]int{3, 5, 2} || turned.Spacing != [3]float32{3, 1, 2} {
		t.Fatalf("turned file's slab: RAS %v dims %v spacing %v", turned.RAS, turned.Dims, turned.Spacing)
	}
}

// TestNIfTIOrientationRejects: orientation fields no volume can come from
// are errors naming the field.
func TestNIfTIOrientationRejects(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	good := [3][4]float32{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}
	with := func(r, c int, x float32) [3][4]float32 { s := good; s[r][c] = x; return s }
	for _, c := range []struct {
		spec niiSpec
		want string
	}{
		{niiSpec{sform: 1, srow: with(1, 3, nan)}, "srow_y[3] is NaN, want finite (sform_code 1)"},
		{niiSpec{sform: 4, srow: with(2, 0, inf)}, "srow_z[0] is +Inf"},
		{niiSpec{sform: 1, srow: with(1, 1, 0)}, "the sform [[1 0 0 0] [0 0 0 0] [0 0 1 0]] maps the voxel axes onto fewer than 3 world axes"},
		{niiSpec{sform: 1, srow: with(0, 3, 1e38)}, "the sform's offset along x is 1e+38"},
		{niiSpec{sform: 1, srow: with(0, 0, 3e38)}, "the sform's voxel axis 0 is 3e+38 long"},
		{niiSpec{sform: 1, srow: with(2, 2, 1e-35)}, "the sform's voxel axis 2 is 1e-35 long"},
		{niiSpec{qform: 1, quatern: [6]float32{0, nan}}, "quatern_c is NaN, want finite (qform_code 1)"},
		{niiSpec{qform: 2, quatern: [6]float32{0, 0, 0, 0, 0, -inf}}, "qoffset_z is -Inf"},
	} {
		c.spec.voxels = sampleValues(true)
		_, _, err := ReadNIfTI(bytes.NewReader(encodeNIfTI(c.spec)))
		if err == nil || !strings.HasPrefix(err.Error(), "volume: NIfTI: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want an error holding %q", err, c.want)
		}
	}
	// An sform wins over a qform, whatever the qform holds.
	v, h, err := ReadNIfTI(bytes.NewReader(encodeNIfTI(niiSpec{sform: 1, srow: good, qform: 1, quatern: [6]float32{0, 0, 1}, voxels: sampleValues(true)})))
	if err != nil || h.Orientation.By != "sform" || !h.Orientation.Identity() || !v.RAS {
		t.Fatalf("sform and qform: %v %+v", err, h)
	}
}
