package scan

import (
	"fmt"
	"strconv"

	"github.com/dpgl/dpgl/gpu"
)

// The small-input path: Offsets and MarkedIndices, the two scans a caller
// issues many times a frame over arrays of some 10^3 to 10^6 words (the
// renderer's set-up counts, rows and span lengths, and its culling
// marks). Where smallPathPays says so, one work group scans the whole
// array in one dispatch (shaders/scan/small.comp); elsewhere they are
// ExclusiveScan and Compact.

const (
	// SmallMax is the most words the one-group kernel takes: beyond it
	// the multi-group passes over every core win (its loops would also
	// near a CPU driver's 65535-step limit further on).
	SmallMax = 1 << 20
	// smallGroup is small.comp's work group: the invocations that share
	// out an array's quads.
	smallGroup = 64
	// SmallTexelAlign is a multiple of every driver's
	// GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT (at most 256 bytes in GL 4.3), in
	// words: the one-group kernel reads an input that starts at a
	// multiple of it as texels (a CPU driver gathers a texel for a SIMD
	// vector's lanes at once), one elsewhere as a storage block.
	SmallTexelAlign = 64
)

// smallPathPays is the small-input path's tuning policy: the one-group
// kernel runs where the Scanner's scans take shared-memory tiles smaller
// than its group on a CPU driver, which spends about 0.1 ms on a dispatch
// whatever it does, more than one thread takes to scan 10^5 words, while
// reduce-then-scan there takes three (scan/TUNING.md); GPUs run 10^5
// words in one tile or a look-back pass and keep ExclusiveScan.
func smallPathPays(s *Scanner) bool {
	return s.tune.dispatchBound && !s.Subgroups() && s.opt.GroupSize < smallGroup
}

// smallScratch is the small-input path's state in a Scanner, made when
// first used.
type smallScratch struct {
	on bool // smallPathPays, decided when made
	// prog[compact][texels], made when first used; texels only where the
	// driver's texel limit covers a storage block (tex).
	prog          [2][2]*gpu.Program
	tex           bool
	storageBlocks bool // tests: read the input as storage blocks, as where the texel limit is lower
	texels        *gpu.TexelBuffer
	count         *gpu.Buffer[uint32] // MarkedIndices's count
	iota          *gpu.Buffer[uint32] // 0, 1, 2, ...: MarkedIndices's Compact where the kernel does not run
}

// small returns s's small-input state, making it on the GL thread.
func (s *Scanner) small() *smallScratch {
	if s.smallPath != nil {
		return s.smallPath
	}
	k := &smallScratch{on: smallPathPays(s)}
	k.tex = int64(s.c.MaxTexels())*16 >= s.c.Caps().MaxSSBOSize
	s.smallPath = k
	return k
}

// takes says whether the one-group kernel runs an array of n words.
func (k *smallScratch) takes(n int) bool { return k.on && n > 0 && n <= SmallMax }

func (k *smallScratch) delete() {
	if k != nil {
		k.texels.Delete()
		k.count.Delete()
		k.iota.Delete()
	}
}

// program returns small.comp's variant, built when first asked for.
func (s *Scanner) smallProgram(fn string, compact, texels bool) *gpu.Program {
	k := s.small()
	p := &k.prog[b2i(compact)][b2i(texels)]
	if *p == nil {
		prog, err := s.c.Program("scan/small.comp", map[string]string{"WG_SIZE": strconv.Itoa(smallGroup), "TEXELS": b2s(texels), "COMPACT": b2s(compact)})
		if err != nil {
			panic(fmt.Sprintf("scan: %s: %v", fn, err))
		}
		*p = prog
	}
	return *p
}

// Offsets sets dst to the exclusive add-scan of src (dst[i] is the sum of
// src[0..i), wrapping around 2^32), as ExclusiveScan with Add and init 0
// does: the offsets of a list of counts. dst and src have the same
// length; dst may be src (in place), but may not overlap it otherwise.
// Where the Scanner's tuning says so (a CPU driver whose scans run in
// small tiles) and src has at most SmallMax words, one work group scans
// it in one dispatch.
func Offsets(s *Scanner, dst, src gpu.Array[uint32]) {
	const fn = "Offsets"
	s.live(fn)
	n := array(s, fn, "dst", dst)
	sameLen(fn, "dst", n, "src", array(s, fn, "src", src))
	inPlace(fn, dst, src)
	var one bool
	s.c.Do(func() {
		if one = s.small().takes(n); one {
			s.runSmall(fn, false, dst, src)
		}
	})
	if !one {
		ExclusiveScan(s, dst, src, Add, 0)
	}
}

// MarkedIndices writes to the front of dst the indices of the nonzero
// words of marks, in order, and returns how many there are, as Compact of
// the indices 0, 1, 2, ... under marks would. dst has at least as many
// words as marks and may not overlap it. It waits for the GPU. The path
// is Offsets's: one work group in one dispatch where that pays.
func MarkedIndices(s *Scanner, dst, marks gpu.Array[uint32]) int {
	const fn = "MarkedIndices"
	s.live(fn)
	m := array(s, fn, "dst", dst)
	n := array(s, fn, "marks", marks)
	if m < n {
		panic(fmt.Sprintf("scan: %s: dst has %d words, fewer than marks' %d", fn, m, n))
	}
	disjoint(fn, "dst", dst, "marks", marks)
	var count uint32
	var one bool
	s.c.Do(func() {
		k := s.small()
		if one = k.takes(n); one {
			s.runSmall(fn, true, dst, marks)
			count = k.count.Get(0)
			return
		}
		if k.iota == nil || k.iota.Len() < n {
			ids, err := gpu.NewBuffer[uint32](s.c, max(n, 1))
			if err != nil {
				panic(fmt.Sprintf("scan: %s: the indices 0..%d: %v", fn, n, err))
			}
			v := make([]uint32, max(n, 1))
			for i := range v {
				v[i] = uint32(i)
			}
			ids.Write(0, v)
			k.iota.Delete()
			k.iota = ids
		}
	})
	if one {
		return int(count)
	}
	return Compact(s, dst, s.smallPath.iota.Slice(0, n), marks)
}

// runSmall dispatches small.comp over src into dst (compact: the indices
// of src's nonzero words, their count in k.count), on the GL thread.
func (s *Scanner) runSmall(fn string, compact bool, dst, src gpu.Array[uint32]) {
	k := s.small()
	n := src.Len()
	quads := n / 4
	buf, off := src.Base()
	texels := k.tex && !k.storageBlocks && quads > 0 && off%SmallTexelAlign == 0
	p := s.smallProgram(fn, compact, texels)
	s.c.BindStorage(0, src)
	s.c.BindStorage(1, dst)
	if compact {
		if k.count == nil {
			cnt, err := gpu.NewBuffer[uint32](s.c, 1)
			if err != nil {
				panic(fmt.Sprintf("scan: %s: its count: %v", fn, err))
			}
			k.count = cnt
		}
		s.c.BindStorage(2, k.count)
	}
	if texels {
		if k.texels == nil {
			tb, err := gpu.NewTexelBuffer(s.c)
			if err != nil {
				panic(fmt.Sprintf("scan: %s: %v", fn, err))
			}
			k.texels = tb
		}
		// Written as storage by the caller's passes before; the whole
		// quads (the words past them come from the storage block).
		s.c.Barrier(gpu.BarrierTexture)
		s.c.BindTexels(0, k.texels, buf.Slice(off, 4*quads), gpu.TexelRGBA32UI)
	}
	p.SetUint("n", uint32(n))
	p.SetUint("quadsEach", uint32((quads+smallGroup-1)/smallGroup))
	p.Dispatch(1, 1, 1)
	s.c.Barrier(gpu.BarrierStorage)
	s.setPlan(Plan{Path: PathReduceThenScan, Levels: 1, Dispatches: 1})
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func b2s(b bool) string { return strconv.Itoa(b2i(b)) }
