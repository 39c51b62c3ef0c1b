package volume

import (
	"fmt"
	"math"
)

// NIfTI says how its voxel indices map to world coordinates in one of
// three ways (nifti1.h, "3D IMAGE (VOLUME) ORIENTATION AND LOCATION IN
// SPACE"): the sform's affine rows srow_x/y/z when sform_code > 0, else the
// qform's quaternion, offsets and pixdim (with qfac = pixdim[0] flipping
// the third axis) when qform_code > 0, else pixdim alone, which says
// nothing of orientation. The first two give RAS+ world coordinates.
//
// The Volume keeps axis-aligned samples, so ReadNIfTI turns the voxel grid
// into the RAS+ axis each voxel axis runs nearest to (the closest
// canonical orientation, as FSL's fslreorient2std and nibabel's
// as_closest_canonical do): it permutes and flips the voxels so that
// sample (x, y, z) lies toward right, anterior and superior as x, y and z
// grow. A file whose axes are flipped or transposed, with an affine that
// says so, reads as the same volume. An oblique affine is rounded to the
// nearest such orientation: the rotation left over is not applied.

// Orientation is how ReadNIfTI placed a file's voxels in world
// coordinates.
type Orientation struct {
	// By is "sform", "qform" or "pixdim" (no orientation: voxel axes are
	// world axes and the origin is 0, as ANALYZE files are read).
	By string
	// Affine maps a voxel index (i, j, k, 1) to world (x, y, z); under
	// "pixdim" it is diag(pixdim[1..3]).
	Affine [3][4]float64
	// Axis[j] is the world axis (0 x/right, 1 y/anterior, 2 z/superior)
	// that voxel axis j runs along, and Flip[j] whether it runs backwards
	// (toward left, posterior or inferior).
	Axis [3]int
	Flip [3]bool
}

// Identity reports whether the voxel axes already are the world axes,
// running forward: the file needs no permuting or flipping.
func (o Orientation) Identity() bool {
	return o.Axis == [3]int{0, 1, 2} && o.Flip == [3]bool{}
}

// parseOrientation reads qform_code, sform_code, the quaternion and the
// sform rows of header b, and the orientation they give, with an error
// naming the field that cannot give one.
func (h *NIfTIHeader) parseOrientation(b []byte) error {
	bo := h.ByteOrder
	f32 := func(off int) float64 { return float64(math.Float32frombits(bo.Uint32(b[off:]))) }
	h.QformCode, h.SformCode = int16(bo.Uint16(b[252:])), int16(bo.Uint16(b[254:]))
	o := &h.Orientation
	switch {
	case h.SformCode > 0:
		o.By = "sform"
		for r := 0; r < 3; r++ {
			for c := 0; c < 4; c++ {
				o.Affine[r][c] = f32(280 + 16*r + 4*c)
				if x := o.Affine[r][c]; math.IsNaN(x) || math.IsInf(x, 0) {
					return fmt.Errorf("volume: NIfTI: srow_%c[%d] is %v, want finite (sform_code %d)", "xyz"[r], c, x, h.SformCode)
				}
			}
		}
	case h.QformCode > 0:
		o.By = "qform"
		qb, qc, qd := f32(256), f32(260), f32(264)
		for i, x := range []float64{qb, qc, qd, f32(268), f32(272), f32(276)} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				name := []string{"quatern_b", "quatern_c", "quatern_d", "qoffset_x", "qoffset_y", "qoffset_z"}[i]
				return fmt.Errorf("volume: NIfTI: %s is %v, want finite (qform_code %d)", name, x, h.QformCode)
			}
		}
		// nifti1_io.c's quatern_to_mat44: a = √(1 − b² − c² − d²), the
		// quaternion renormalised when that is (nearly) negative.
		qa := 1 - (qb*qb + qc*qc + qd*qd)
		if qa < 1e-7 {
			n := math.Sqrt(qb*qb + qc*qc + qd*qd)
			qa, qb, qc, qd = 0, qb/n, qc/n, qd/n
		} else {
			qa = math.Sqrt(qa)
		}
		rot := [3][3]float64{
			{qa*qa + qb*qb - qc*qc - qd*qd, 2 * (qb*qc - qa*qd), 2 * (qb*qd + qa*qc)},
			{2 * (qb*qc + qa*qd), qa*qa + qc*qc - qb*qb - qd*qd, 2 * (qc*qd - qa*qb)},
			{2 * (qb*qd - qa*qc), 2 * (qc*qd + qa*qb), qa*qa + qd*qd - qc*qc - qb*qb},
		}
		sp := h.spacing()
		scale := [3]float64{float64(sp[0]), float64(sp[1]), float64(sp[2])}
		if h.Pixdim[0] < 0 { // qfac: the third axis is flipped
			scale[2] = -scale[2]
		}
		for r := 0; r < 3; r++ {
			for c := 0; c < 3; c++ {
				o.Affine[r][c] = rot[r][c] * scale[c]
			}
			o.Affine[r][3] = f32(268 + 4*r)
		}
	default:
		o.By = "pixdim"
		sp := h.spacing()
		for a := 0; a < 3; a++ {
			o.Affine[a][a] = float64(sp[a])
		}
		o.Axis = [3]int{0, 1, 2}
		return nil
	}
	return h.placeAxes()
}

// placeAxes finds the world axis nearest each voxel axis of the affine
// (greedily: the largest |entry| of the unclaimed rows and columns first)
// and checks that the voxels' extent and origin fit float32.
func (h *NIfTIHeader) placeAxes() error {
	o := &h.Orientation
	var rowUsed, colUsed [3]bool
	for n := 0; n < 3; n++ {
		br, bc, best := -1, -1, 0.0
		for r := 0; r < 3; r++ {
			for c := 0; c < 3; c++ {
				if !rowUsed[r] && !colUsed[c] && math.Abs(o.Affine[r][c]) > best {
					br, bc, best = r, c, math.Abs(o.Affine[r][c])
				}
			}
		}
		if br < 0 {
			return fmt.Errorf("volume: NIfTI: the %s %v maps the voxel axes onto fewer than 3 world axes: a singular matrix", o.By, o.Affine)
		}
		rowUsed[br], colUsed[bc] = true, true
		o.Axis[bc], o.Flip[bc] = br, o.Affine[br][bc] < 0
	}
	for c := 0; c < 3; c++ {
		size := h.voxelSize(c)
		// As for pixdim: the extent must be a float32 with room for a
		// camera's sums of the bounds.
		if ext := size * float64(h.Dim[c+1]-1); !(size >= 1e-30) || size > math.MaxFloat32/4 || ext > math.MaxFloat32/4 {
			return fmt.Errorf("volume: NIfTI: the %s's voxel axis %d is %.4g long: %d voxels span %.3g, want a size from 1e-30 with the span within %.3g",
				o.By, c, size, h.Dim[c+1], ext, math.MaxFloat32/4)
		}
		if t := o.Affine[c][3]; math.Abs(t) > math.MaxFloat32/4 {
			return fmt.Errorf("volume: NIfTI: the %s's offset along %c is %.4g, beyond float32's range (%.3g)", o.By, "xyz"[c], t, math.MaxFloat32/4)
		}
	}
	return nil
}

// voxelSize is the world length of a step along voxel axis c.
func (h *NIfTIHeader) voxelSize(c int) float64 {
	a := h.Orientation.Affine
	return math.Sqrt(a[0][c]*a[0][c] + a[1][c]*a[1][c] + a[2][c]*a[2][c])
}

// grid is the reoriented volume's dimensions, spacing and origin for a
// file of dims: along world axis Axis[j] lie dims[j] samples, a voxel size
// apart, from the world position of the voxel that comes first (the last
// along a flipped axis), rounded to its component along each world axis.
func (h *NIfTIHeader) grid(dims [3]int) (out [3]int, spacing, origin [3]float32) {
	o := h.Orientation
	if o.By == "pixdim" {
		return dims, h.spacing(), [3]float32{}
	}
	var first [3]float64 // voxel index of the new sample (0, 0, 0)
	for j := 0; j < 3; j++ {
		out[o.Axis[j]] = dims[j]
		spacing[o.Axis[j]] = float32(h.voxelSize(j))
		if o.Flip[j] {
			first[j] = float64(dims[j] - 1)
		}
	}
	for r := 0; r < 3; r++ {
		a := o.Affine[r]
		origin[r] = float32(a[0]*first[0] + a[1]*first[1] + a[2]*first[2] + a[3])
	}
	return out, spacing, origin
}

// scatter is where ReadNIfTI puts file voxel i in the reoriented volume:
// index = base + Σ_j k_j·step[j] for the voxel's file index (k_0, k_1, k_2),
// with step[j] = ±(the stride of world axis Axis[j]), negative along a
// flipped axis, whose voxel 0 lands at (dims[j]−1)·stride.
type scatter struct {
	dims [3]int
	base int
	step [3]int
	k    [3]int // file index of the next voxel
	next int    // its index in the volume
}

func newScatter(h *NIfTIHeader, dims [3]int) *scatter {
	o := h.Orientation
	out, _, _ := h.grid(dims)
	stride := [3]int{1, out[0], out[0] * out[1]}
	s := &scatter{dims: dims}
	for j := 0; j < 3; j++ {
		s.step[j] = stride[o.Axis[j]]
		if o.Flip[j] {
			s.base += (dims[j] - 1) * s.step[j]
			s.step[j] = -s.step[j]
		}
	}
	s.next = s.base
	return s
}

// put stores the file's next len(vals) voxels.
func (s *scatter) put(dst, vals []float32) {
	for _, x := range vals {
		dst[s.next] = x
		// Advance (k_0, k_1, k_2) with carries; next follows by steps.
		s.k[0]++
		s.next += s.step[0]
		if s.k[0] == s.dims[0] {
			s.k[0] = 0
			s.next -= s.dims[0] * s.step[0]
			s.k[1]++
			s.next += s.step[1]
			if s.k[1] == s.dims[1] {
				s.k[1] = 0
				s.next -= s.dims[1] * s.step[1]
				s.k[2]++
				s.next += s.step[2]
			}
		}
	}
}
