// The modes of the scan kernels, named once for GLSL and Go: package scan
// passes these numbers as OUT and MAP, and its modes.go holds the
// same names with the same values (TestModesAgree reads this file).
//
// scan.comp's OUT: what the level-0 scan writes for element e.
#define OUT_VALUES 0         // e's scan value
#define OUT_SEGMENTED_COPY 1 // record e's head's record (MAP_HEAD_INDEX)
#define OUT_COMPACT 2        // a kept record, at the number kept before it
#define OUT_PARTITION 3      // kept records first, then the others, both in order
//
// load.glsl's MAP: what element e is to the scan.
#define MAP_VALUES 0     // src[e] (with its head flag when SEGMENTED)
#define MAP_COUNT 1      // 1 where flags[e] != 0 (or e heads a run of keys), else 0
#define MAP_HEAD_INDEX 2 // e where flags[e] != 0, else 0 (max-scanned)
#define MAP_PREDICATE 3  // 1 where scanPredicate(src[e], e) holds, else 0
//
// The first binding that a user's predicate kernel may use for buffers of
// its own; the scan kernels use 0 .. SCAN_FIRST_FREE_BINDING-1.
#define SCAN_FIRST_FREE_BINDING 10
