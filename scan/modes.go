package scan

// The modes of the scan kernels, as shaders/scan/modes.glsl names them
// (TestModesAgree checks that the values agree).

// scan.comp's OUT: what the level-0 scan writes for element e.
const (
	outValues        = 0 // OUT_VALUES: e's scan value
	outSegmentedCopy = 1 // OUT_SEGMENTED_COPY: record e's head's record
	outCompact       = 2 // OUT_COMPACT: a kept record, at the number kept before it
	outPartition     = 3 // OUT_PARTITION: kept records first, then the others
)

// load.glsl's MAP: what element e is to the scan.
const (
	mapValues    = 0 // MAP_VALUES: src[e]
	mapCount     = 1 // MAP_COUNT: 1 where flags[e] != 0 (or e heads a run of keys)
	mapHeadIndex = 2 // MAP_HEAD_INDEX: e where flags[e] != 0
	mapPredicate = 3 // MAP_PREDICATE: 1 where scanPredicate(src[e], e) holds
)

// FirstFreeBinding is the first shader storage binding that a user's
// predicate kernel (Predicate) may use for buffers of its own; the scan
// kernels use the bindings below it. GLSL knows it as
// SCAN_FIRST_FREE_BINDING.
const FirstFreeBinding = 10

// loadMap is the MAP by which the level-0 kernels of j read its elements.
func (j *scanJob) loadMap() int {
	if j.pred != "" || j.user != nil {
		return mapPredicate
	}
	switch j.out {
	case outValues:
		return mapValues
	case outSegmentedCopy:
		return mapHeadIndex
	}
	return mapCount
}
