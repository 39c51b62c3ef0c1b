package scan

import "fmt"

// SetSpin sets how often a look-back tile polls before it reduces a
// predecessor's input itself; 0 makes every wait a fallback.
func SetSpin(s *Scanner, polls int) { s.spin = polls }

// Fallbacks returns how many times look-back tiles reduced a predecessor
// themselves since the look-back state was made.
func Fallbacks(s *Scanner) uint32 {
	if s.state == nil {
		return 0
	}
	return s.state.Get(1)
}

// SetNoPublish makes look-back tiles publish nothing (and never wait), so
// that each reduces every predecessor itself: the fallback on every step,
// deterministically. Only correct out of place.
func SetNoPublish(s *Scanner) { s.spin, s.nopub = 0, true }

// SetCounters sets the epoch of the last look-back call and the ticket
// counter (on the GPU too), to test their wraparound.
func SetCounters(s *Scanner, epoch, ticket uint32) {
	s.c.Do(func() {
		st := s.grow("SetCounters", &s.state, 8)
		st.Write(0, []uint32{ticket})
		s.epoch, s.ticket = epoch, ticket
	})
}

// MaxEpoch is the number of look-back calls between clears of the state.
const MaxEpoch = maxEpoch

// EmulateSubgroups makes s run its subgroup kernels on any driver, with
// subgroups of size invocations made of shared memory and barriers
// (shaders/scan/sgemu.glsl). Call it before s's first call.
func EmulateSubgroups(s *Scanner, size int) {
	if g := s.opt.GroupSize; size < 4 || g%size != 0 || g > size*size {
		panic(fmt.Sprintf("scan: EmulateSubgroups: size %d does not divide GroupSize %d into at most %d subgroups", size, g, size))
	}
	s.emulate, s.subgroups, s.segSub, s.sgSize = true, true, true, size
	clear(s.progs)
}

// SegmentedSubgroups reports whether s's segmented kernels use subgroups
// (which needs shuffles as well as subgroup arithmetic).
func SegmentedSubgroups(s *Scanner) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.segSub
}

// Modes are the kernel modes of modes.go by their GLSL names.
var Modes = map[string]int{
	"OUT_VALUES": outValues, "OUT_SEGMENTED_COPY": outSegmentedCopy, "OUT_COMPACT": outCompact, "OUT_PARTITION": outPartition,
	"MAP_VALUES": mapValues, "MAP_COUNT": mapCount, "MAP_HEAD_INDEX": mapHeadIndex, "MAP_PREDICATE": mapPredicate,
	"SCAN_FIRST_FREE_BINDING": FirstFreeBinding,
}
