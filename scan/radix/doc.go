// Package radix sorts arrays on the GPU: a stable least-significant-digit
// radix sort of uint32, int32 and float32 keys, alone or with values of
// any record type, ascending or descending, by all 32 bits or a range of
// them, for arrays of any length the driver allows.
//
// # Passes
//
// A pass orders the keys stably by one digit of DigitBits bits (8 on
// llvmpipe, 4 on GPUs), the lowest first: after the pass over the top
// digit, keys are in order, and keys that compare equal are in their
// input order. 32 bits of 8-bit digits take 4 passes, each moving keys
// (and values) from one array to the other and back: keys to tmp, tmp to
// keys. An odd number of passes ends with a copy back.
//
// # Layers
//
//	invocation  Items consecutive keys: it counts their digits in its own
//	            column of a shared counter matrix, then walks them again in
//	            order, giving each key the next rank of its digit
//	work group  one tile of GroupSize*Items keys: the matrix rows (one per
//	            digit) are scanned across the columns, so a key's rank is
//	            (keys of its digit in earlier columns) + (earlier in its
//	            own): stable by construction
//	device      where each tile's keys of each digit start, by one of two
//	            paths:
//	  one-sweep  one read of the keys counts the digits of every pass
//	             (each tile counted in shared memory); then each pass
//	             is one dispatch whose tiles take tickets as they start,
//	             publish their digit counts, and add up the counts of the
//	             tiles before them (a decoupled look-back per digit): 2+P
//	             dispatches for P passes
//	  counts     each pass counts every tile's digits into a digit-major
//	             array, scans it with package scan's reduce-then-scan (the
//	             scan of entry (digit, tile) is where that tile's keys of
//	             that digit go), then ranks and scatters with the counter
//	             matrix the count left: no tile ever waits for another
//
// The one-sweep look-back assumes nothing about scheduling, as the scans'
// does: a tile only waits for tiles whose groups started before it, and
// only for a bounded number of polls; then it counts the late
// predecessor's keys itself (they are the pass's input, which no tile
// writes). Each published word carries its flag and its count together,
// so no ordering of memory operations is assumed either. Still, a tile
// that waits burns time its predecessor may need where threads share
// cores, so a Sorter runs the one-sweep path on GPUs and the counts path
// on CPU drivers such as llvmpipe, unless Options.Path says otherwise;
// LastPlan tells which path ran. Both paths give the same result.
//
// # Order
//
// Integers sort by value. Floats sort by a total order: -Inf, negative
// numbers, -0, +0, positive numbers, +Inf, then every NaN, whatever its
// sign and payload (NaNs compare equal among themselves, so they keep
// their input order, each with its own bits). Descending is the exact
// reverse (NaNs first, +0 before -0), except that equal keys still keep
// their input order: the order of slices.SortStableFunc with the
// comparison reversed.
//
// The sort compares the ordered key, a uint32 whose unsigned order is the
// order above: a uint32 key itself, an int32 with its sign bit flipped, a
// float with its sign bit flipped when positive and all bits flipped when
// negative, every NaN 0xFFFFFFFF; descending inverts every bit. An Order's
// bit range [Begin, End) selects bits of the ordered key: keys equal in
// those bits count as equal (and keep their input order), and the sort
// takes ceil((End-Begin)/DigitBits) passes instead of ceil(32/DigitBits).
// Keys whose high bits are known to be zero sort faster with End set.
//
// # The worked example
//
// Keys 3 1 2 1 with values a b c d sort ascending to 1 1 2 3 with values
// b d c a: the two 1s keep their input order (b before d). Descending they
// sort to 3 2 1 1 with values a c b d. See Example.
//
// # Determinism and memory
//
// A sort is a permutation fixed by the keys and the Order alone: stable
// sorting has one answer, whatever the path, tile shape or scheduling, so
// every run gives the same bits. Keys and values are moved, never
// converted: a float key keeps its bits (NaN payloads, the sign of zero).
//
// The caller passes scratch arrays of the keys' and values' length (tmp,
// tmpKeys, tmpVals); the sort is otherwise in place, and their contents
// are lost. The Sorter's own scratch grows to the largest size used and is
// reused: 4*RADIX*P bytes of histograms and 4*(64+RADIX*tiles) bytes of
// look-back state (one-sweep), or 4*RADIX*tiles bytes of counts, package
// scan's levels and 2*RADIX*GroupSize*tiles bytes of each tile's counter
// matrix, which the scatter takes instead of counting its tile again
// (counts; an eighth of the keys' bytes at llvmpipe's defaults), where
// RADIX = 2^DigitBits and tiles is the number of tiles of the longest
// array sorted. After the first call at a
// size, sorts allocate nothing on the GPU.
//
// # Top-k and segmented sorts
//
// TopK keeps the k largest (or smallest) keys and their indices, ties to
// the lowest index, so its result depends on the input alone: a stable
// sort of (key, index) pairs cut at k. SegmentedSortKeys and
// SegmentedSortPairs sort each segment of CUB-style offsets on its own
// without a work group a segment, however many and small the segments
// are: a stable sort by key, a stable sort of the resulting order by
// segment (on just the bits segment numbers need), then a gather. Both
// allocate their per-call scratch and return an error if they cannot.
//
// # Calls
//
// Arrays are gpu.Array values: a *gpu.Buffer or a gpu.Range of one (whose
// byte offset must be a multiple of Caps.SSBOOffsetAlignment). Every call
// issues the barriers it needs and ends with gpu.BarrierStorage, so its
// output is ready for the next dispatch; a caller whose shader wrote an
// input issues gpu.BarrierStorage before the call. Sorts do not wait for
// the GPU. A Sorter may be used from any goroutine; calls run one at a
// time on the context's GL thread.
//
// Misuse panics with a message naming the function and the argument
// ("radix: SortKeys: tmp has 5 elements but keys has 6"): nil or deleted
// arrays, arrays of another context, mismatched lengths, overlapping
// arrays, value types whose size is not a multiple of 4 bytes, bit ranges
// outside 0..32, invalid Options. Scratch that cannot be allocated is an
// error. Wrong key types do not compile.
package radix
