package volume

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/dpgl/dpgl/internal/fileio"
)

// MaxNIfTIVoxels is the largest volume ReadNIfTI accepts (2^28 voxels, 1 GiB
// as float32): a header asking for more is taken to be damaged.
const MaxNIfTIVoxels = 1 << 28

// maxNIfTIExtension bounds the bytes between the header and the voxel data.
const maxNIfTIExtension = 64 << 20

const niftiHeaderSize = 348

// NIfTI datatype codes (the header's datatype field) that ReadNIfTI reads.
const (
	NIfTIUint8   = 2
	NIfTIInt16   = 4
	NIfTIInt32   = 8
	NIfTIFloat32 = 16
	NIfTIFloat64 = 64
	NIfTIInt8    = 256
	NIfTIUint16  = 512
	NIfTIUint32  = 768
)

var niftiTypes = map[int16]struct {
	name string
	bits int16
}{
	NIfTIUint8: {"uint8", 8}, NIfTIInt16: {"int16", 16}, NIfTIInt32: {"int32", 32},
	NIfTIFloat32: {"float32", 32}, NIfTIFloat64: {"float64", 64}, NIfTIInt8: {"int8", 8},
	NIfTIUint16: {"uint16", 16}, NIfTIUint32: {"uint32", 32},
}

// NIfTIHeader holds the fields of a NIfTI-1 header that ReadNIfTI uses or
// reports.
type NIfTIHeader struct {
	ByteOrder          binary.ByteOrder // of the header and the voxel data
	Dim                [8]int16         // Dim[0] is the number of dimensions, Dim[1..3] the sizes
	Datatype           int16            // one of the NIfTI* codes
	Bitpix             int16
	Pixdim             [8]float32 // Pixdim[1..3] are the voxel spacing in XYZTUnits
	VoxOffset          float32    // byte offset of the voxel data
	SclSlope, SclInter float32    // voxel value = SclSlope*stored + SclInter (when SclSlope != 0)
	XYZTUnits          uint8
	Descrip            string
	// QformCode and SformCode say which of the file's orientations hold
	// (0: none); Orientation is the one ReadNIfTI applied.
	QformCode, SformCode int16
	Orientation          Orientation
	Gzipped              bool
	// Finite counts the finite voxels of the whole file (after scaling),
	// Min and Max bound them: ReadNIfTILayers tells them though it keeps
	// only a slab, so that a rank finds the whole volume's default
	// isovalue (the middle of Min and Max, as DefaultIso takes it).
	Finite   int64
	Min, Max float32
}

// DatatypeName is the Go name of the header's voxel type, e.g. "int16".
func (h *NIfTIHeader) DatatypeName() string {
	if t, ok := niftiTypes[h.Datatype]; ok {
		return t.name
	}
	return fmt.Sprintf("datatype %d", h.Datatype)
}

// LoadNIfTI reads a .nii or .nii.gz file with ReadNIfTI.
func LoadNIfTI(path string) (*Volume, *NIfTIHeader, error) {
	f, err := fileio.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	v, h, err := ReadNIfTI(f)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return v, h, nil
}

// ReadNIfTI reads a single-file NIfTI-1 volume (magic "n+1"), gzip-compressed
// or not (told apart by the gzip magic, not the name), little- or big-endian
// (told by sizeof_hdr). The voxels become float32 after the scaling
// scl_slope·stored + scl_inter (none when scl_slope is 0).
//
// The volume is placed in RAS+ world coordinates (x toward the patient's
// right, y anterior, z superior, in the file's units) by the sform when
// sform_code is set, else by the qform when qform_code is set: its voxels
// are permuted and flipped so that the grid's axes run right, anterior
// and superior, its spacing is the voxel size and its origin the world
// position of its first sample, and Volume.RAS is set (orient.go tells how
// an oblique affine is rounded). A file with neither keeps today's
// reading: voxel axes are world axes, the spacing is pixdim[1..3] (a 0
// read as 1, as the common tools do) and the origin is 0.
// NIfTIHeader.Orientation says which was applied.
//
// It is strict: a header that is truncated, has the wrong sizeof_hdr or
// magic, an unsupported or inconsistent datatype and bitpix, a non-finite
// or singular sform or qform, absurd
// dimensions (below 1, above 3-D, more than MaxNIfTIVoxels), a vox_offset
// inside the header, non-finite scaling or scaling that takes a voxel beyond
// float32, a pixdim whose extent float32 cannot hold, or voxel data that is
// shorter or longer than the dimensions say is rejected with an error naming
// the field and its value. NaN and ±Inf voxels are kept (they mark masks;
// marching cubes skips them). A side of 1 is a volume without cells.
//
// The voxels are decoded straight from the stream into the volume: reading
// allocates the volume and 256 KiB more. The volume must pass CheckGrid,
// and when r tells its size (a file, a bytes.Reader) a header asking for
// more voxels than the input can hold is refused before anything is
// allocated.
func ReadNIfTI(r io.Reader) (*Volume, *NIfTIHeader, error) {
	return readNIfTI(r, 0, -1)
}

// readNIfTI reads r keeping sample layers [z0, z1) alone (z1 < 0: all of
// them).
func readNIfTI(r io.Reader, z0, z1 int) (*Volume, *NIfTIHeader, error) {
	whole := z1 < 0
	size, sized := inputSize(r)
	br := bufio.NewReader(r)
	h := &NIfTIHeader{}
	var src io.Reader = br
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, fmt.Errorf("volume: NIfTI: gzip: %w", err)
		}
		defer zr.Close()
		src, h.Gzipped = zr, true
	}
	var raw [niftiHeaderSize]byte
	if n, err := io.ReadFull(src, raw[:]); err != nil {
		return nil, nil, fmt.Errorf("volume: NIfTI: header truncated: %d of %d bytes (%w)", n, niftiHeaderSize, noEOF(err))
	}
	if err := h.parse(raw[:]); err != nil {
		return nil, nil, err
	}
	dims := [3]int{int(h.Dim[1]), int(h.Dim[2]), int(h.Dim[3])}
	nvox := dims[0] * dims[1] * dims[2]
	bytesPer := int(h.Bitpix) / 8
	need := int64(nvox) * int64(bytesPer)
	end := int64(h.VoxOffset) + need // the file's size, uncompressed

	// The voxels are decoded straight into the volume, which is therefore
	// allocated before they are read: when the input's size is known, a
	// header that asks for more than it holds is refused first, so that a
	// few hundred damaged bytes cannot make us allocate a gigabyte.
	if sized && !h.Gzipped && size < end {
		return nil, nil, fmt.Errorf("volume: NIfTI: data truncated: dim %v of %s need %d bytes after vox_offset %d, file has %d",
			h.Dim[1:4], h.DatatypeName(), need, int64(h.VoxOffset), max(size-int64(h.VoxOffset), 0))
	}
	if sized && !h.Gzipped && size > end {
		return nil, nil, fmt.Errorf("volume: NIfTI: data: file is longer than dim %v of %s (%d bytes after vox_offset %d): wrong size",
			h.Dim[1:4], h.DatatypeName(), need, int64(h.VoxOffset))
	}
	if sized && h.Gzipped && end > maxDeflateRatio*size+1024 {
		return nil, nil, fmt.Errorf("volume: NIfTI: data truncated: dim %v of %s need %d bytes, more than a %d-byte gzip stream can hold",
			h.Dim[1:4], h.DatatypeName(), end, size)
	}
	if err := CheckGrid(dims); err != nil {
		return nil, nil, fmt.Errorf("volume: NIfTI: dim %v: %w", h.Dim[1:4], err)
	}
	if z1 < 0 {
		z1 = dims[2]
	}
	if z0 < 0 || z1 <= z0 || z1 > dims[2] {
		return nil, nil, fmt.Errorf("volume: NIfTI: sample layers [%d, %d) of dim %v: want 0 <= first < end <= %d", z0, z1, h.Dim[1:4], dims[2])
	}

	// Skip the 4-byte extension flag and any extensions up to vox_offset.
	skip := int64(h.VoxOffset) - niftiHeaderSize
	if n, err := io.CopyN(io.Discard, src, skip); err != nil {
		return nil, nil, fmt.Errorf("volume: NIfTI: vox_offset: file ends %d bytes into the %d bytes before the voxel data (%w)", n, skip, h.streamErr(err))
	}
	// A whole read turns the voxels to RAS+ (orient.go) as they are
	// decoded; a slab keeps the file's axes, which are the same when the
	// file's already are RAS+ (Identity).
	var v *Volume
	var turn *scatter
	if o := h.Orientation; whole && !o.Identity() {
		out, spacing, origin := h.grid(dims)
		v, turn = New(out, spacing, origin), newScatter(h, dims)
	} else {
		_, spacing, origin := h.grid(dims)
		if !o.Identity() {
			for j := range spacing {
				spacing[j], origin[j] = float32(h.voxelSize(j)), float32(o.Affine[j][3])
			}
		}
		v = New([3]int{dims[0], dims[1], z1 - z0}, spacing, origin)
	}
	v.RAS = h.Orientation.By != "pixdim" && (whole || h.Orientation.Identity())
	// Decode a chunk at a time: the peak memory is the volume (or the
	// layers kept) and one chunk, not the file's bytes as well. Voxels
	// outside the layers kept are decoded all the same, into scratch, so
	// that a slab read fails where the whole read fails.
	chunk := make([]byte, min(need, 1<<18))
	keep0, keep1 := z0*dims[0]*dims[1], z1*dims[0]*dims[1] // voxels kept
	var scratch []float32
	for i := 0; i < nvox; {
		k := min(len(chunk)/bytesPer, nvox-i)
		n, err := io.ReadFull(src, chunk[:k*bytesPer])
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, nil, fmt.Errorf("volume: NIfTI: data truncated: dim %v of %s need %d bytes after vox_offset %d, file has %d",
				h.Dim[1:4], h.DatatypeName(), need, int64(h.VoxOffset), int64(i*bytesPer+n))
		}
		if err != nil {
			return nil, nil, fmt.Errorf("volume: NIfTI: data: %w", h.streamErr(err))
		}
		if turn != nil {
			if scratch == nil {
				scratch = make([]float32, len(chunk)/bytesPer)
			}
			if err := h.decode(scratch[:k], chunk[:k*bytesPer], i); err != nil {
				return nil, nil, err
			}
			h.tally(scratch[:k])
			turn.put(v.Data, scratch[:k])
		} else if i >= keep0 && i+k <= keep1 {
			if err := h.decode(v.Data[i-keep0:i-keep0+k], chunk[:k*bytesPer], i); err != nil {
				return nil, nil, err
			}
			h.tally(v.Data[i-keep0 : i-keep0+k])
		} else {
			if scratch == nil {
				scratch = make([]float32, len(chunk)/bytesPer)
			}
			if err := h.decode(scratch[:k], chunk[:k*bytesPer], i); err != nil {
				return nil, nil, err
			}
			h.tally(scratch[:k])
			if a, b := max(i, keep0), min(i+k, keep1); a < b {
				copy(v.Data[a-keep0:b-keep0], scratch[a-i:b-i])
			}
		}
		i += k
	}
	// Reading to the end makes gzip check its CRC and length.
	var one [1]byte
	switch n, err := io.ReadFull(src, one[:]); {
	case n > 0:
		return nil, nil, fmt.Errorf("volume: NIfTI: data: file is longer than dim %v of %s (%d bytes after vox_offset %d): wrong size",
			h.Dim[1:4], h.DatatypeName(), need, int64(h.VoxOffset))
	case err != io.EOF:
		return nil, nil, fmt.Errorf("volume: NIfTI: data: %w", h.streamErr(err))
	}
	return v, h, nil
}

// maxDeflateRatio bounds what deflate can expand a byte to: a 258-byte
// match costs at least two bits, so no stream expands more than 1032 times.
const maxDeflateRatio = 1032

// inputSize is the number of bytes left in r when r can tell (a file, a
// bytes.Reader): ReadNIfTI checks the header against it before it
// allocates.
func inputSize(r io.Reader) (int64, bool) {
	switch r := r.(type) {
	case interface{ Len() int }:
		return int64(r.Len()), true
	case *os.File:
		fi, err := r.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			return 0, false
		}
		off, err := r.Seek(0, io.SeekCurrent)
		if err != nil {
			return 0, false
		}
		return fi.Size() - off, true
	}
	return 0, false
}

// tally counts the finite voxels of vals into h's Finite, Min and Max.
func (h *NIfTIHeader) tally(vals []float32) {
	for _, x := range vals {
		if !Finite(x) {
			continue
		}
		if h.Finite == 0 {
			h.Min, h.Max = x, x
		}
		h.Min, h.Max = min(h.Min, x), max(h.Max, x)
		h.Finite++
	}
}

// streamErr labels an error of the compressed stream as gzip's.
func (h *NIfTIHeader) streamErr(err error) error {
	err = noEOF(err)
	if h.Gzipped {
		return fmt.Errorf("gzip: %w", err)
	}
	return err
}

// spacing is pixdim[1..3], with a 0 (or an unused axis) read as 1.
func (h *NIfTIHeader) spacing() [3]float32 {
	var spacing [3]float32
	for i := range spacing {
		spacing[i] = h.Pixdim[i+1]
		if spacing[i] == 0 || int(h.Dim[0]) <= i {
			spacing[i] = 1
		}
	}
	return spacing
}

func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// parse fills h from the 348 header bytes and checks every field ReadNIfTI
// relies on.
func (h *NIfTIHeader) parse(b []byte) error {
	if err := h.byteOrder(b); err != nil {
		return err
	}
	bo := h.ByteOrder
	i16 := func(off int) int16 { return int16(bo.Uint16(b[off:])) }
	f32 := func(off int) float32 { return math.Float32frombits(bo.Uint32(b[off:])) }

	switch m := string(b[344:348]); m {
	case "n+1\x00":
	case "ni1\x00":
		return errors.New(`volume: NIfTI: magic is "ni1": header/image pairs (.hdr/.img) are not supported, only single .nii files`)
	default:
		return fmt.Errorf("volume: NIfTI: magic is %q, want \"n+1\\x00\"", m)
	}
	for i := range h.Dim {
		h.Dim[i] = i16(40 + 2*i)
	}
	if h.Dim[0] < 1 || h.Dim[0] > 7 {
		return fmt.Errorf("volume: NIfTI: dim[0] is %d, want 1..7 dimensions", h.Dim[0])
	}
	for i := int16(1); i <= h.Dim[0]; i++ {
		if h.Dim[i] < 1 {
			return fmt.Errorf("volume: NIfTI: dim[%d] is %d, want >= 1", i, h.Dim[i])
		}
		if i > 3 && h.Dim[i] != 1 {
			return fmt.Errorf("volume: NIfTI: dim[%d] is %d: only 3-D volumes are supported (dim[4..7] must be 1)", i, h.Dim[i])
		}
	}
	for i := h.Dim[0] + 1; i < 8; i++ {
		h.Dim[i] = 1 // unused dimensions; writers leave anything there
	}
	if n := int64(h.Dim[1]) * int64(h.Dim[2]) * int64(h.Dim[3]); n > MaxNIfTIVoxels {
		return fmt.Errorf("volume: NIfTI: dim %v is %d voxels, more than the %d this reader accepts", h.Dim[1:4], n, MaxNIfTIVoxels)
	}
	h.Datatype, h.Bitpix = i16(70), i16(72)
	t, ok := niftiTypes[h.Datatype]
	if !ok {
		return fmt.Errorf("volume: NIfTI: datatype %d is not supported (uint8, int8, int16, uint16, int32, uint32, float32, float64 are)", h.Datatype)
	}
	if h.Bitpix != t.bits {
		return fmt.Errorf("volume: NIfTI: bitpix is %d, but datatype %s has %d bits", h.Bitpix, t.name, t.bits)
	}
	for i := range h.Pixdim {
		h.Pixdim[i] = f32(76 + 4*i)
	}
	for i := 1; i <= min(3, int(h.Dim[0])); i++ {
		if p := float64(h.Pixdim[i]); math.IsNaN(p) || math.IsInf(p, 0) || p < 0 || (p > 0 && p < 1e-30) {
			return fmt.Errorf("volume: NIfTI: pixdim[%d] is %v, want a positive voxel spacing", i, h.Pixdim[i])
		}
	}
	for i := 1; i <= min(3, int(h.Dim[0])); i++ {
		// Positions are float32 downstream: the volume's extent must be
		// one, with room for the sums a camera fit makes of the bounds
		// ((lo+hi)/2, hi-lo), hence a quarter of the range.
		if ext := float64(h.Pixdim[i]) * float64(h.Dim[i]-1); ext > math.MaxFloat32/4 {
			return fmt.Errorf("volume: NIfTI: pixdim[%d] is %v: %d voxels span %.3g, beyond float32's range (%.3g)",
				i, h.Pixdim[i], h.Dim[i], ext, math.MaxFloat32/4)
		}
	}
	h.VoxOffset = f32(108)
	if vo := float64(h.VoxOffset); !(vo >= niftiHeaderSize+4) || vo != math.Trunc(vo) || vo > niftiHeaderSize+maxNIfTIExtension {
		return fmt.Errorf("volume: NIfTI: vox_offset is %v, want a whole number from 352 to %d", h.VoxOffset, niftiHeaderSize+maxNIfTIExtension)
	}
	h.SclSlope, h.SclInter = f32(112), f32(116)
	if s := float64(h.SclSlope); math.IsNaN(s) || math.IsInf(s, 0) {
		return fmt.Errorf("volume: NIfTI: scl_slope is %v, want finite", h.SclSlope)
	}
	if s := float64(h.SclInter); math.IsNaN(s) || math.IsInf(s, 0) {
		return fmt.Errorf("volume: NIfTI: scl_inter is %v, want finite", h.SclInter)
	}
	h.XYZTUnits = b[123]
	h.Descrip = strings.TrimRight(string(b[148:228]), "\x00 ")
	return h.parseOrientation(b)
}

// decode converts the stored voxels b, the first of which is voxel first,
// to float32 in dst and applies the scaling. A stored NaN or ±Inf stays one
// (float volumes mark masked voxels so); a finite value that the scaling
// takes beyond float32 is an error naming the fields.
func (h *NIfTIHeader) decode(dst []float32, b []byte, first int) error {
	bo := h.ByteOrder
	var get func(i int) float64
	switch h.Datatype {
	case NIfTIUint8:
		get = func(i int) float64 { return float64(b[i]) }
	case NIfTIInt8:
		get = func(i int) float64 { return float64(int8(b[i])) }
	case NIfTIInt16:
		get = func(i int) float64 { return float64(int16(bo.Uint16(b[2*i:]))) }
	case NIfTIUint16:
		get = func(i int) float64 { return float64(bo.Uint16(b[2*i:])) }
	case NIfTIInt32:
		get = func(i int) float64 { return float64(int32(bo.Uint32(b[4*i:]))) }
	case NIfTIUint32:
		get = func(i int) float64 { return float64(bo.Uint32(b[4*i:])) }
	case NIfTIFloat32:
		get = func(i int) float64 { return float64(math.Float32frombits(bo.Uint32(b[4*i:]))) }
	case NIfTIFloat64:
		get = func(i int) float64 { return math.Float64frombits(bo.Uint64(b[8*i:])) }
	}
	slope, inter := float64(h.SclSlope), float64(h.SclInter)
	if slope == 0 {
		slope, inter = 1, 0 // the standard's "no scaling"
	}
	for i := range dst {
		stored := get(i)
		f := float32(slope*stored + inter)
		if !Finite(f) && !math.IsNaN(stored) && !math.IsInf(stored, 0) {
			return fmt.Errorf("volume: NIfTI: voxel %d: scl_slope %v × stored %v + scl_inter %v is %.4g, beyond float32's ±%.4g",
				first+i, h.SclSlope, stored, h.SclInter, slope*stored+inter, math.MaxFloat32)
		}
		dst[i] = f
	}
	return nil
}

// byteOrder finds the header's byte order from sizeof_hdr, which is 348 in
// a NIfTI-1 file read in the right order.
func (h *NIfTIHeader) byteOrder(b []byte) error {
	switch {
	case binary.LittleEndian.Uint32(b) == niftiHeaderSize:
		h.ByteOrder = binary.LittleEndian
	case binary.BigEndian.Uint32(b) == niftiHeaderSize:
		h.ByteOrder = binary.BigEndian
	case binary.LittleEndian.Uint32(b) == 540 || binary.BigEndian.Uint32(b) == 540:
		return errors.New("volume: NIfTI: sizeof_hdr is 540: NIfTI-2 files are not supported")
	default:
		return fmt.Errorf("volume: NIfTI: sizeof_hdr is %d, want 348 in either byte order: not a NIfTI-1 file", int32(binary.LittleEndian.Uint32(b)))
	}
	return nil
}
