package volume

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"math"
	"os"
	"runtime"
	"strings"
	"testing"
)

// niiSpec describes a NIfTI-1 file for encodeNIfTI; zero fields take
// defaults that make a valid file.
type niiSpec struct {
	order     binary.ByteOrder // default little-endian
	dim       [8]int16         // default {3, 3, 2, 2, 1, ...}
	datatype  int16            // default float32
	bitpix    int16            // default: the datatype's
	pixdim    [8]float32
	voxOffset float32 // default 352
	slope     float32
	inter     float32
	magic     string // default "n+1\x00"
	sizeof    int32  // default 348
	voxels    []float64
	extra     []byte // appended after the voxels
	gzip      bool
	// qform and sform are qform_code and sform_code; quatern holds
	// quatern_b, c, d and qoffset_x, y, z; srow the rows srow_x, y, z.
	qform, sform int16
	quatern      [6]float32
	srow         [3][4]float32
}

func encodeNIfTI(s niiSpec) []byte {
	if s.order == nil {
		s.order = binary.LittleEndian
	}
	if s.dim[0] == 0 {
		s.dim = [8]int16{3, 3, 2, 2, 1, 1, 1, 1}
	}
	if s.datatype == 0 {
		s.datatype = NIfTIFloat32
	}
	if s.bitpix == 0 {
		s.bitpix = niftiTypes[s.datatype].bits
	}
	if s.voxOffset == 0 {
		s.voxOffset = 352
	}
	if s.magic == "" {
		s.magic = "n+1\x00"
	}
	if s.sizeof == 0 {
		s.sizeof = 348
	}
	h := make([]byte, int(s.voxOffset))
	bo := s.order
	bo.PutUint32(h[0:], uint32(s.sizeof))
	for i, d := range s.dim {
		bo.PutUint16(h[40+2*i:], uint16(d))
	}
	bo.PutUint16(h[70:], uint16(s.datatype))
	bo.PutUint16(h[72:], uint16(s.bitpix))
	for i, p := range s.pixdim {
		bo.PutUint32(h[76+4*i:], math.Float32bits(p))
	}
	bo.PutUint32(h[108:], math.Float32bits(s.voxOffset))
	bo.PutUint32(h[112:], math.Float32bits(s.slope))
	bo.PutUint32(h[116:], math.Float32bits(s.inter))
	copy(h[148:], "dpgl test volume")
	bo.PutUint16(h[252:], uint16(s.qform))
	bo.PutUint16(h[254:], uint16(s.sform))
	for i, q := range s.quatern {
		bo.PutUint32(h[256+4*i:], math.Float32bits(q))
	}
	for r, row := range s.srow {
		for c, x := range row {
			bo.PutUint32(h[280+16*r+4*c:], math.Float32bits(x))
		}
	}
	copy(h[344:], s.magic)
	var buf bytes.Buffer
	buf.Write(h)
	for _, v := range s.voxels {
		var b [8]byte
		switch s.datatype {
		case NIfTIUint8, NIfTIInt8:
			buf.WriteByte(byte(int64(v)))
			continue
		case NIfTIInt16, NIfTIUint16:
			bo.PutUint16(b[:], uint16(int64(v)))
			buf.Write(b[:2])
		case NIfTIInt32, NIfTIUint32:
			bo.PutUint32(b[:], uint32(int64(v)))
			buf.Write(b[:4])
		case NIfTIFloat32:
			bo.PutUint32(b[:], math.Float32bits(float32(v)))
			buf.Write(b[:4])
		case NIfTIFloat64:
			bo.PutUint64(b[:], math.Float64bits(v))
			buf.Write(b[:8])
		}
	}
	buf.Write(s.extra)
	if !s.gzip {
		return buf.Bytes()
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(buf.Bytes())
	zw.Close()
	return z.Bytes()
}

// sampleValues are 12 voxels (3x2x2) representable in every datatype's
// range: signed types get the negatives.
func sampleValues(signed bool) []float64 {
	v := []float64{0, 1, 2, 7, 100, 127, 3, 5, 8, 13, 21, 34}
	if signed {
		v[2], v[7] = -2, -128
	}
	return v
}

func TestNIfTIRoundTrip(t *testing.T) {
	types := []int16{NIfTIUint8, NIfTIInt8, NIfTIInt16, NIfTIUint16, NIfTIInt32, NIfTIUint32, NIfTIFloat32, NIfTIFloat64}
	for _, dt := range types {
		for _, bo := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
			for _, gz := range []bool{false, true} {
				for _, scaled := range []bool{false, true} {
					signed := dt != NIfTIUint8 && dt != NIfTIUint16 && dt != NIfTIUint32
					s := niiSpec{order: bo, datatype: dt, voxels: sampleValues(signed), gzip: gz,
						pixdim: [8]float32{1, 0.5, 2, 3}}
					slope, inter := 1.0, 0.0
					if scaled {
						s.slope, s.inter = 0.25, -10
						slope, inter = 0.25, -10
					}
					name := niftiTypes[dt].name + "/" + bo.String()
					v, h, err := ReadNIfTI(bytes.NewReader(encodeNIfTI(s)))
					if err != nil {
						t.Fatalf("%s gz=%v scaled=%v: %v", name, gz, scaled, err)
					}
					if v.Dims != [3]int{3, 2, 2} || v.Spacing != [3]float32{0.5, 2, 3} || h.Gzipped != gz || h.ByteOrder != bo {
						t.Fatalf("%s: dims %v spacing %v gz %v order %v", name, v.Dims, v.Spacing, h.Gzipped, h.ByteOrder)
					}
					if h.Descrip != "dpgl test volume" || h.DatatypeName() != niftiTypes[dt].name {
						t.Fatalf("%s: descrip %q type %q", name, h.Descrip, h.DatatypeName())
					}
					for i, want := range s.voxels {
						if got := v.Data[i]; got != float32(slope*want+inter) {
							t.Fatalf("%s gz=%v scaled=%v: voxel %d = %v, want %v", name, gz, scaled, i, got, slope*want+inter)
						}
					}
				}
			}
		}
	}
}

func TestNIfTILowerDimensions(t *testing.T) {
	// A 2-D image: dim[3] and pixdim[3] are unused and may hold anything.
	s := niiSpec{dim: [8]int16{2, 4, 3, 0, 0, 0, 0, 0}, voxels: make([]float64, 12), pixdim: [8]float32{0, 2, 2, float32(math.NaN())}}
	v, _, err := ReadNIfTI(bytes.NewReader(encodeNIfTI(s)))
	if err != nil {
		t.Fatal(err)
	}
	if v.Dims != [3]int{4, 3, 1} || v.Spacing != [3]float32{2, 2, 1} || v.Cells() != 0 {
		t.Fatalf("2-D image: dims %v spacing %v cells %d", v.Dims, v.Spacing, v.Cells())
	}
	// pixdim 0 on a used axis reads as 1; extensions before vox_offset are skipped.
	s = niiSpec{voxels: make([]float64, 12), voxOffset: 368, pixdim: [8]float32{1, 0, 1, 1}}
	v, _, err = ReadNIfTI(bytes.NewReader(encodeNIfTI(s)))
	if err != nil || v.Spacing != [3]float32{1, 1, 1} {
		t.Fatalf("pixdim 0 / extension: %v %v", v, err)
	}
}

func TestNIfTIRejects(t *testing.T) {
	ok := func() niiSpec { return niiSpec{voxels: sampleValues(true)} }
	valid := encodeNIfTI(ok())
	cases := []struct {
		name string
		file []byte
		want string
	}{
		{"empty", nil, "header truncated: 0 of 348"},
		{"truncated header", valid[:200], "header truncated: 200 of 348"},
		{"truncated gzip header", encodeNIfTI(niiSpec{gzip: true})[:30], "header truncated"},
		{"truncated data", valid[:len(valid)-3], "data truncated"},
		{"truncated before vox_offset", valid[:350], "vox_offset"},
		{"long data", encodeNIfTI(niiSpec{voxels: sampleValues(true), extra: []byte{1, 2, 3, 4}}), "wrong size"},
		{"long gzip data", encodeNIfTI(niiSpec{voxels: sampleValues(true), extra: []byte{1}, gzip: true}), "wrong size"},
		{"sizeof_hdr", encodeNIfTI(niiSpec{sizeof: 349, voxels: sampleValues(true)}), "sizeof_hdr is 349"},
		{"nifti-2", encodeNIfTI(niiSpec{sizeof: 540}), "NIfTI-2"},
		{"magic", encodeNIfTI(niiSpec{magic: "n+2\x00", voxels: sampleValues(true)}), "magic"},
		{"pair", encodeNIfTI(niiSpec{magic: "ni1\x00"}), "magic is \"ni1\""},
		{"dim0", encodeNIfTI(niiSpec{dim: [8]int16{9, 3, 2, 2}}), "dim[0] is 9"},
		{"dim0 negative", encodeNIfTI(niiSpec{dim: [8]int16{-3, 3, 2, 2}}), "dim[0] is -3"},
		{"dim zero", encodeNIfTI(niiSpec{dim: [8]int16{3, 3, 0, 2}}), "dim[2] is 0"},
		{"dim negative", encodeNIfTI(niiSpec{dim: [8]int16{3, -1, 2, 2}}), "dim[1] is -1"},
		{"dim huge", encodeNIfTI(niiSpec{dim: [8]int16{3, 32767, 32767, 32767}}), "more than the"},
		{"4-D", encodeNIfTI(niiSpec{dim: [8]int16{4, 3, 2, 2, 5}}), "dim[4] is 5"},
		{"datatype", encodeNIfTI(niiSpec{datatype: 32, bitpix: 64}), "datatype 32"},
		{"bitpix", encodeNIfTI(niiSpec{datatype: NIfTIInt16, bitpix: 8}), "bitpix is 8"},
		{"pixdim NaN", encodeNIfTI(niiSpec{pixdim: [8]float32{1, 1, float32(math.NaN()), 1}}), "pixdim[2]"},
		{"pixdim negative", encodeNIfTI(niiSpec{pixdim: [8]float32{1, 1, 1, -2}}), "pixdim[3]"},
		{"vox_offset small", encodeNIfTI(niiSpec{voxOffset: 348}), "vox_offset is 348"},
		{"vox_offset fraction", encodeNIfTI(niiSpec{voxOffset: 352.5}), "vox_offset is 352.5"},
		{"vox_offset huge", nil, "vox_offset is 1e+09"},
		{"scl_slope", encodeNIfTI(niiSpec{slope: float32(math.Inf(1))}), "scl_slope"},
		{"scl_inter", encodeNIfTI(niiSpec{slope: 1, inter: float32(math.NaN())}), "scl_inter"},
		{"scl_slope NaN", encodeNIfTI(niiSpec{slope: float32(math.NaN())}), "scl_slope is NaN"},
		{"scl_slope overflows", encodeNIfTI(niiSpec{datatype: NIfTIInt16, slope: 1e37, voxels: sampleValues(true)}),
			"voxel 4: scl_slope 1e+37 × stored 100 + scl_inter 0 is 1e+39, beyond float32's ±3.403e+38"},
		{"pixdim Inf", encodeNIfTI(niiSpec{pixdim: [8]float32{1, float32(math.Inf(1)), 1, 1}}), "pixdim[1] is +Inf"},
		{"pixdim overflows", encodeNIfTI(niiSpec{pixdim: [8]float32{1, 1, 3e38, 1}, voxels: sampleValues(true)}), "pixdim[2] is 3e+38: 2 voxels span 3e+38, beyond float32's range"},
		{"pixdim tiny", encodeNIfTI(niiSpec{pixdim: [8]float32{1, 1, 1e-35, 1}}), "pixdim[2] is 1e-35"},
		{"dims claim more than the file", encodeNIfTI(niiSpec{dim: [8]int16{3, 512, 512, 512}, voxels: sampleValues(true)}),
			"data truncated: dim [512 512 512] of float32 need 536870912 bytes after vox_offset 352, file has 48"},
		{"dims claim more than the gzip stream can hold", encodeNIfTI(niiSpec{dim: [8]int16{3, 512, 512, 512}, voxels: sampleValues(true), gzip: true}),
			"more than a"},
		{"truncated gzip data", func() []byte { b := encodeNIfTI(niiSpec{voxels: sampleValues(true), gzip: true}); return b[:len(b)-12] }(), "volume: NIfTI: data"},
	}
	// A corrupt gzip stream: flip a byte of the compressed voxel data.
	gz := encodeNIfTI(niiSpec{voxels: sampleValues(true), gzip: true})
	bad := append([]byte(nil), gz...)
	bad[len(bad)-9] ^= 0xff // inside the deflate stream's last bytes
	cases = append(cases, struct {
		name string
		file []byte
		want string
	}{"gzip corrupt", bad, "gzip"})
	crc := append([]byte(nil), gz...)
	crc[len(crc)-6] ^= 0xff // the CRC-32 in the trailer
	cases = append(cases, struct {
		name string
		file []byte
		want string
	}{"gzip checksum", crc, "gzip: gzip: invalid checksum"})
	for _, c := range cases {
		if c.name == "vox_offset huge" {
			// encodeNIfTI cannot make a 1 GB header; write the field by hand.
			c.file = append([]byte(nil), valid...)
			binary.LittleEndian.PutUint32(c.file[108:], math.Float32bits(1e9))
		}
		_, _, err := ReadNIfTI(bytes.NewReader(c.file))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		} else if !strings.HasPrefix(err.Error(), "volume: NIfTI: ") {
			t.Errorf("%s: error %q lacks the package prefix", c.name, err)
		}
	}
}

// TestNIfTIHostileButValid: files that look odd but hold a volume read as
// one: NaN and ±Inf voxels (masks), sides of 1, and a huge but finite voxel
// spacing, which stays float32-finite for the mesh (the renderer brings it
// into range).
func TestNIfTIHostileButValid(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, dt := range []int16{NIfTIFloat32, NIfTIFloat64} {
		vox := []float64{nan, 1, -inf, inf, 2, nan, 0, 0, 5, nan, 3, 4}
		v, _, err := ReadNIfTI(bytes.NewReader(encodeNIfTI(niiSpec{datatype: dt, voxels: vox, slope: 2, inter: 1, order: binary.BigEndian})))
		if err != nil {
			t.Fatalf("%s with NaN voxels: %v", niftiTypes[dt].name, err)
		}
		for i, want := range vox {
			got := float64(v.Data[i])
			if !(got == 2*want+1 || math.IsNaN(got) && math.IsNaN(want)) {
				t.Fatalf("%s voxel %d: %v, want %v", niftiTypes[dt].name, i, got, 2*want+1)
			}
		}
		if s := v.Summary(); s.Finite != 7 || s.NonFinite != 5 || s.Min != 1 || s.Max != 11 {
			t.Fatalf("summary %+v", s)
		}
	}
	v, _, err := ReadNIfTI(bytes.NewReader(encodeNIfTI(niiSpec{dim: [8]int16{3, 1, 1, 12}, voxels: sampleValues(true)})))
	if err != nil || v.Dims != [3]int{1, 1, 12} || v.Cells() != 0 {
		t.Fatalf("1x1x12: %v %v", v, err)
	}
	v, _, err = ReadNIfTI(bytes.NewReader(encodeNIfTI(niiSpec{pixdim: [8]float32{1, 1e30, 1e30, 2e30}, voxels: sampleValues(true)})))
	if err != nil {
		t.Fatal(err)
	}
	if _, hi := v.Bounds(); !Finite(hi[0]) || hi[2] != 2e30 {
		t.Fatalf("pixdim 1e30: bounds to %v", hi)
	}
}

// TestNIfTIPeakMemory: a gzip-compressed volume is decoded straight into
// the voxel array, so that reading it allocates not much more than the
// array (the issue: 9.4 MB of gzip made 5.7 GB of RSS through io.ReadAll
// and a copy). 160^3 float64 zeros: 32 MiB of voxels as float64, 16 MiB as
// float32, 40 KB of gzip.
func TestNIfTIPeakMemory(t *testing.T) {
	const n = 160
	file := encodeNIfTI(niiSpec{dim: [8]int16{3, n, n, n, 1, 1, 1, 1}, datatype: NIfTIFloat64, voxels: make([]float64, n*n*n), gzip: true})
	path := t.TempDir() + "/zeros.nii.gz"
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	file = nil
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	v, _, err := LoadNIfTI(path)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	final := uint64(4 * v.Len())
	// TotalAlloc counts every byte allocated, freed or not: a bound on
	// the peak that no garbage collection's timing can change.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > final*3/2 {
		t.Fatalf("reading a %d-byte array allocated %d bytes (%.2fx), want at most 1.5x", final, alloc, float64(alloc)/float64(final))
	}
}

// TestNIfTIch2 reads the MRI template that Debian's mricron-data installs.
func TestNIfTIch2(t *testing.T) {
	const path = "/usr/share/mricron/templates/ch2.nii.gz"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s not installed (apt-get install mricron-data)", path)
	}
	v, h, err := LoadNIfTI(path)
	if err != nil {
		t.Fatal(err)
	}
	if v.Dims != [3]int{181, 217, 181} || h.Datatype != NIfTIUint8 || !h.Gzipped {
		t.Fatalf("ch2: dims %v datatype %s gzipped %v", v.Dims, h.DatatypeName(), h.Gzipped)
	}
	for i, s := range v.Spacing {
		if math.Abs(float64(s)-1) > 1e-3 {
			t.Fatalf("ch2: spacing[%d] = %v, want 1 mm", i, s)
		}
	}
	lo, hi := v.Range()
	if lo < 0 || hi > 255 || hi-lo < 100 {
		t.Fatalf("ch2: value range [%v, %v]", lo, hi)
	}
	// The brain sits in the middle: the centre is brighter than a corner.
	if c, k := v.At(90, 108, 90), v.At(0, 0, 0); c <= k {
		t.Fatalf("ch2: centre %v not brighter than corner %v", c, k)
	}
	// MNI space: the sform places voxel (90, 125, 71) at the anterior
	// commissure, the world origin, and the axes already run RAS+.
	if o := h.Orientation; o.By != "sform" || !o.Identity() || !v.RAS || v.Origin != [3]float32{-90, -125, -71} {
		t.Fatalf("ch2: orientation %+v, RAS %v, origin %v", o, v.RAS, v.Origin)
	}
}

// FuzzReadNIfTI feeds ReadNIfTI damaged files. It must never panic or
// allocate beyond the input; whatever it accepts must be self-consistent
// and survive a float32 re-encoding unchanged.
func FuzzReadNIfTI(f *testing.F) {
	for _, dt := range []int16{NIfTIUint8, NIfTIInt16, NIfTIUint16, NIfTIInt32, NIfTIFloat32, NIfTIFloat64} {
		f.Add(encodeNIfTI(niiSpec{datatype: dt, voxels: sampleValues(false)}))
		f.Add(encodeNIfTI(niiSpec{datatype: dt, order: binary.BigEndian, voxels: sampleValues(false), slope: 2, inter: 1}))
	}
	f.Add(encodeNIfTI(niiSpec{voxels: sampleValues(true), gzip: true}))
	f.Add(encodeNIfTI(niiSpec{dim: [8]int16{1, 12}, voxels: sampleValues(true)}))
	// The hostile cases of TestNIfTIRejects and TestNIfTIHostileButValid.
	nan := math.NaN()
	f.Add(encodeNIfTI(niiSpec{datatype: NIfTIFloat64, voxels: []float64{nan, 1, math.Inf(-1), 0, 2, nan, 0, 0, 5, nan, 3, 4}}))
	f.Add(encodeNIfTI(niiSpec{dim: [8]int16{3, 1, 1, 12}, voxels: sampleValues(true)}))
	f.Add(encodeNIfTI(niiSpec{pixdim: [8]float32{1, 1e30, 1, 3e38}, voxels: sampleValues(true)}))
	f.Add(encodeNIfTI(niiSpec{datatype: NIfTIInt16, slope: 1e36, voxels: sampleValues(true)}))
	f.Add(encodeNIfTI(niiSpec{dim: [8]int16{3, 512, 512, 512}, voxels: sampleValues(true), gzip: true}))
	f.Add(encodeNIfTI(niiSpec{dim: [8]int16{4, 3, 2, 2, 5}, voxels: sampleValues(true)}))
	f.Add(encodeNIfTI(niiSpec{dim: [8]int16{3, -3, 2, 2}, voxels: sampleValues(true)}))
	// Oriented files (orient_test.go): turned sforms, a qform, a singular sform.
	f.Add(orientedFile(rasVolume(), [3]int{2, 0, 1}, [3]bool{true, false, true}))
	f.Add(orientedFile(rasVolume(), [3]int{1, 2, 0}, [3]bool{false, true, false}))
	f.Add(encodeNIfTI(niiSpec{qform: 1, quatern: [6]float32{0.5, 0.5, 0.5, 1, 2, 3}, pixdim: [8]float32{-1, 1, 2, 3}, voxels: sampleValues(true)}))
	f.Add(encodeNIfTI(niiSpec{sform: 1, srow: [3][4]float32{{1, 1, 0, 0}, {1, 1, 0, 0}, {0, 0, 1, 0}}, voxels: sampleValues(true)}))
	f.Fuzz(func(t *testing.T, file []byte) {
		v, h, err := ReadNIfTI(bytes.NewReader(file))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "volume: NIfTI: ") {
				t.Fatalf("error without the package prefix: %v", err)
			}
			return
		}
		if err := v.Validate(); err != nil {
			t.Fatalf("accepted an inconsistent volume: %v (header %+v)", err, h)
		}
		if !h.Gzipped && int64(len(file)) != int64(h.VoxOffset)+int64(v.Len())*int64(h.Bitpix/8) {
			t.Fatalf("accepted %d bytes for %d voxels of %d bits at offset %v", len(file), v.Len(), h.Bitpix, h.VoxOffset)
		}
		vox := make([]float64, v.Len())
		for i, s := range v.Data {
			vox[i] = float64(s)
		}
		dim := [8]int16{3, int16(v.Dims[0]), int16(v.Dims[1]), int16(v.Dims[2]), 1, 1, 1, 1}
		w, _, err := ReadNIfTI(bytes.NewReader(encodeNIfTI(niiSpec{dim: dim, voxels: vox,
			pixdim: [8]float32{1, v.Spacing[0], v.Spacing[1], v.Spacing[2]}})))
		if err != nil {
			t.Fatalf("re-encoding what was accepted fails: %v", err)
		}
		for i := range v.Data {
			if a, b := v.Data[i], w.Data[i]; a != b && !(a != a && b != b) {
				t.Fatalf("voxel %d: %v, re-read as %v", i, a, b)
			}
		}
	})
}
