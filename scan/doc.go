// Package scan holds the data-parallel primitives that the balancer and the
// renderer are written in: scans (prefix sums) with add, max and min (and
// on integers the bitwise and, or and xor),
// segmented scans, segmented copy, reductions, compaction, and the general
// send and gather, for arrays on the GPU of any length the driver allows;
// and the primitives that GPU libraries build on them (see Primitives):
// histograms, select and partition, transform, unique, run-length
// encoding, reduce-by-key, segmented reduce, and the load-balancing search
// with interval expand.
//
// # Layers
//
// Data takes one path through three layers (as in CUB):
//
//	invocation  4*Vectors consecutive elements, loaded 16 bytes at a time
//	work group  one tile of 4*Vectors*GroupSize elements: a Blelloch
//	            up-sweep/down-sweep in shared memory over the invocations'
//	            totals (groups of up to 32: one barrier, after which each
//	            invocation folds all the totals), or subgroup arithmetic
//	            (GL_KHR_shader_subgroup) where the driver has it (NVIDIA)
//	device      the tiles of the whole array, by one of two paths:
//	  reduce-then-scan  reduce every tile to a total, scan the totals
//	                    (recursively, until they fit one tile), then scan
//	                    every tile starting from its scanned total: 2L+1
//	                    dispatches for L levels, the input read twice
//	  look-back         one dispatch, the input read once: groups take
//	                    tile numbers from a ticket counter as they start,
//	                    publish their tile's total, and combine the totals
//	                    their predecessors published
//
// Subgroup arithmetic has no segmented operator, so segmented scans scan
// their (head flag, value) pairs within a subgroup by Hillis and Steele's
// log2(subgroup size) shuffles up (GL_KHR_shader_subgroup_shuffle_relative);
// a driver without shuffles runs them on the shared-memory code.
//
// The look-back assumes nothing about scheduling: a tile only waits for
// tiles whose groups started before it, and only for a bounded number of
// polls; then it reduces the late predecessor's input itself (llvmpipe,
// for one, stops any loop after 65535 iterations, and its threads share
// the CPU with everything else). Published values carry the call's epoch
// in every word, so no ordering of memory operations is assumed either.
//
// A Scanner picks the path per call: look-back for arrays of more than one
// tile, reduce-then-scan for float add, single tiles, and on CPU drivers
// (see tuning.go): there a look-back tile waits on threads that may be
// descheduled, several times as long as reduce-then-scan takes for
// segmented scans, and longer than it for the small tiles a CPU driver
// without subgroups gets by default (8 invocations of 16 vectors). A CPU
// driver with subgroups (zink over lavapipe) keeps the look-back for plain
// scans.
// Options force a path, the tile shape, or the shared-memory code, and
// LastPlan tells what the last call ran. Integer results and max and min
// are bit-identical on every path.
//
// # The worked example
//
// The paper's assignment 5 1 0 0 0 0 0 (processors per problem) becomes,
// by an exclusive add-scan, the pointers 0 5 6 6 6 6 6: problem i's
// processors start at pointer i. The paper stores the sum of the first i
// elements in location i+1 and an initial value in location 1, which is
// ExclusiveScan with init 1: 1 6 7 7 7 7 7, its 1-based pointers. See
// Example.
//
// # Associativity
//
// Scans and reductions regroup their operands freely (by tile, invocation
// and vector), which gives the same result as a loop from left to right
// only for associative operators. Add on uint32 and int32 wraps around and
// is exactly associative, and so are Max and Min on every type; results on
// these equal the loop's bit for bit, on every path. Float add rounds, so
// regrouping changes the last bits: see Determinism. Max and Min on floats
// have -Inf and +Inf as identities; NaN inputs give unspecified results.
// The segmented operator (head flag, value) is associative but not
// commutative; the kernels never reorder operands, they only regroup.
//
// # Determinism
//
// Every result is a fixed function of the input, the operator, the
// Scanner's tile shape (GroupSize and Vectors) and the device, whatever the
// scheduling: the same call gives the same bits on every run. For float add
// the order of operations is this. Elements come in vectors of four; an
// invocation holds Vectors of them. A vector's sum is ((x0+x1)+x2)+x3, an
// invocation's sum its vectors' sums left to right. An unsegmented scan of
// more than one tile without subgroups scans the invocations' sums as an
// array of their own (by the construction below, one level up), and a scan
// value is
//
//	dst[e] = ((C + x_a) + x_(a+1)) + ... + x_(e-1)
//
// where x_a .. x_(e-1) are the elements of e's invocation before e and C
// the sum of all invocations before e's with the init value in front.
// Otherwise the invocations' sums meet in the work group's Blelloch tree
// (groups of up to 32: summed left to right from 0; with subgroups: the
// driver's subgroup scan within each subgroup, then the subgroups in
// order), and a scan value is
//
//	dst[e] = ((P + Q) + x_a) + ... + x_(e-1)
//
// where x_a .. x_(e-1) are the elements of e's vector before e, Q is the
// sum of the tile before that vector (from the tree), and P the sum of all
// tiles before e's tile with the init value in front (the same
// construction one level up: the tiles' sums are scanned as an array of
// their own). Float add never takes the look-back path, where P would be
// grouped by whichever predecessors had published when the tile looked.
// Float sums therefore differ from a plain loop's by rounding (in tests:
// within 100 ulps of the sum of magnitudes, for millions of elements), and
// between Scanners of different tile shapes, but never between runs.
//
// # In place
//
// ExclusiveScan, InclusiveScan, the segmented scans and SegmentedCopy
// accept dst == src (the very same range): each tile reads its input
// before writing its output, and SegmentedCopy only ever copies heads,
// which keep their values. Any other overlap of dst with an input panics.
// Compact, Send and Gather never run in place. ReduceTo, CountNonzeroTo and
// CompactTo may write their result into the input's buffer (outside the
// input for CompactTo).
//
// # Small inputs
//
// Offsets (ExclusiveScan of u32 counts with Add and init 0) and
// MarkedIndices (the indices of nonzero marks, in order) are for a caller
// that scans many arrays of some 10^3 to 10^6 words a frame, as the
// renderer does: where a dispatch costs more than scanning such an array
// on one thread (a CPU driver whose Scanner runs small shared-memory
// tiles), one work group scans it in one dispatch (SmallMax words at
// most), else they are ExclusiveScan and Compact. Offsets runs in place.
//
// # Send
//
// Send sets dst[index[i]] = src[i]; an index at or past dst.Len() (such as
// 0xFFFFFFFF) sends nothing. When several i send to one element, the
// highest i wins, on every run: a first pass keeps the highest i per
// element with atomicMax, a second copies it. SendDistinct skips that for
// indices known to be distinct (one pass). Gather is the inverse:
// dst[i] = src[index[i]], out-of-range indices leaving dst[i] as it was.
//
// # Primitives
//
// Each is a pass or two of the scan kernel above, or an elementwise
// kernel, in a file of its own. The compactions are fused into the scan:
// the kernel computes what it counts as it loads a tile (a predicate, or
// whether a key differs from the one before it), and moves the tile's
// records once the look-back has told it where they go (OUT and MAP in
// shaders/scan/modes.glsl). On reduce-then-scan in the shared-memory
// layout (CPU drivers) compactions and partitions of more than one tile
// carry a count per invocation instead of per tile: the reduce pass writes
// each invocation's count, their scan gives every invocation where its
// output starts and ends, and the moving pass needs no group scan, no
// barrier and no tile in registers, storing each vector as it loads it:
//
//	HistogramEven,   counts per bin: each work group counts into shared
//	HistogramRange   memory, then adds each nonzero bin to the output with
//	                 one atomic (more than 4096 bins: global atomics).
//	                 NaN and samples outside the bins count nowhere
//	SelectIf,        one pass: the predicate evaluated as the tile loads,
//	SelectIfKernel   the kept elements counted and moved (Compact fused
//	                 with the flags)
//	Partition(If),   selected first, then rejected, both in input order
//	PartitionIf-     (CUB reverses the rejected part; this is stable): a
//	Kernel           reduction counts the selected, then one pass moves
//	                 every element
//	Transform        dst[i] = a GLSL expression of x = src[i] and i
//	Unique           one pass: run heads found by comparing each key with
//	                 the one before, as the tile loads, and compacted
//	ReduceByKey,     SegmentedReduce's walk with the segments found by
//	RunLength-       comparing each key with the one before: a pass
//	Encode           finds each chunk of 64 keys' heads (bits and count),
//	                 the counts' exclusive scan numbers the runs; a pass
//	                 writes each run's key at its head and the op of the
//	                 runs inside a chunk (run lengths: the distances
//	                 between heads); a segmented scan of the chunks' open
//	                 ops and a pass over the chunks finish the runs that
//	                 cross chunks
//	SegmentedReduce  a segment per offsets[j]..offsets[j+1], empty ones
//	                 giving init: one pass in which each invocation walks
//	                 64 consecutive elements and reduces the segments
//	                 inside them in registers; a segmented scan of the
//	                 chunks' open sums finishes the segments that cross
//	LoadBalancing-   each item of segments of given sizes learns its
//	Search,          segment and rank from the sizes' exclusive scan: an
//	IntervalExpand   invocation finds its first item's by binary search
//	                 (shaders/include/lbs.glsl, which package balancer's
//	                 strategies search with too) and walks forward over
//	                 its 32 consecutive items, loading an offset where a
//	                 segment starts
//
// Keys are equal when their bits are (-0 and +0 differ; a NaN equals the
// same NaN). On the look-back path, a tile that reduces a late
// predecessor's input itself evaluates the predicate, or compares the
// keys, again: the predicate must be a function of x and i alone.
//
// Predicates and expressions are the user's GLSL. An expression is passed
// to the kernel as one #define: one line, seeing x (the element, of T's
// GLSL type) and i (its index, a uint). One that does not compile comes
// back as an error that quotes it with the driver's log; nothing else in
// the source is the user's. A Predicate is a function scanPredicate(x, i)
// in a file of the user's own, which includes "scan/select.glsl" and may
// have uniforms and buffers of its own (set by its Bind); its compile
// errors name the user's file and line.
//
// Stable and deterministic: every primitive keeps input order where it
// moves elements (select, partition, unique, run-length encoding,
// reduce-by-key), and gives the same bits on every run. Integer results
// and Max and Min are exact; float Add in ReduceByKey and
// SegmentedReduce rounds as their docs say; the histogram's counts are exact, whatever order its atomics land
// in. Transform alone runs in place; the outputs of the others may not
// overlap their inputs.
// The primitives that return a count (SelectIf, Partition, Unique,
// RunLengthEncode, ReduceByKey) wait for the GPU to read it; each has a
// …To form (SelectIfTo, PartitionTo, UniqueTo, RunLengthEncodeTo,
// ReduceByKeyTo, ...) that leaves the count in an element of a GPU array
// instead, as CompactTo, CountNonzeroTo and ReduceTo do, so that
// primitives chain with no round trip to the host (Example_chain:
// compact, sort, reduce, then one read; gpu.Context.ReadBacks counts
// them). Scratch:
// none to two words per element (each function's doc says how many),
// owned by the Scanner and reused like the scans' own.
//
// # Families by key, searches, merges and multi-channel histograms
//
// These follow the primitives above, each in a file of its own; package
// radix adds TopK and the segmented sorts, which sort:
//
//	InclusiveScanByKey,  the segmented scans with segments given by keys:
//	ExclusiveScanByKey   a pass marks where the key changes
//	                     (shaders/scan/keyheads.comp), then the segmented
//	                     scan. Scratch: one word per key
//	UniqueByKey(To)      the first key of each run and its value: the
//	                     heads pass, then a compaction of the keys and one
//	                     of the values. Scratch: one word per key
//	NonTrivialRuns(To)   where each run of more than one key starts, and
//	                     its length: a pass flags the starts, their
//	                     exclusive scan numbers them, a pass writes each
//	                     run's start and end, a last one the outputs, up
//	                     to the count it reads on the GPU. Scratch: two
//	                     words per key
//	ThreeWayPartitionIf  three parts by two predicates, each in input
//	(To)                 order (CUB reverses its unselected part): three
//	                     selections, one a part
//	AdjacentDifference   dst[i] = src[i] - src[i-1], dst[0] = src[0]: one
//	                     pass of 16-byte vectors, as the copy kernel
//	LowerBound,          a binary search per query in a sorted array
//	UpperBound
//	Merge, MergePairs    moderngpu's merge path: an invocation finds where
//	                     its 8 outputs start by one binary search along its
//	                     diagonal, then merges them serially
//	MultiHistogramEven   up to 4 channels of interleaved pixels, each in
//	                     bins of its own, counted in shared memory (all
//	                     channels' bins together up to 4096), then added
//
// The searches and merges order keys as package radix sorts them: floats
// -Inf, negatives, -0, +0, positives, +Inf, then every NaN (all NaNs
// equal), so that any input has an order and every output is a function
// of it. Merge keeps a's keys before b's among equal keys. The …To forms
// leave their counts in a GPU buffer for the next kernel, as CompactTo.
//
// # Calls
//
// Arrays are gpu.Array values: a *gpu.Buffer or a gpu.Range of one (whose
// byte offset must be a multiple of Caps.SSBOOffsetAlignment). Every call
// issues the barriers it needs and ends with gpu.BarrierStorage, so its
// output is ready for the next dispatch; a caller whose shader wrote an
// input issues gpu.BarrierStorage before the call. Only the calls that
// return a result to the host (Reduce, CountNonzero, Compact and the
// counts above) wait for the GPU; their …To forms do not.
// Scratch memory belongs to the Scanner, grows to the largest size used and
// is reused: after the first call at a size, calls allocate nothing on the
// GPU. Scanner.Reserve allocates it up front for a given size, returning
// an error where the driver has too little memory; a call that must grow
// scratch and cannot panics. A Scanner may be used from any goroutine; calls run one at a time on
// the context's GL thread.
//
// Misuse panics with a message naming the function and the argument
// ("scan: ExclusiveScan: src has 5 elements but dst has 6"): nil or deleted
// arrays, arrays of another context, mismatched lengths, overlapping
// outputs, unknown operators, record types whose size is not a multiple of
// 4 bytes, out-of-range positions. Wrong element types do not compile.
package scan
