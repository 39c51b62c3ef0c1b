#version 450
// reduce: the op of each tile's elements (load.glsl's MAP), as bits, to
// partial[partialAt + tile]; for SEGMENTED also whether the tile holds a
// head, to partialHeads[partialAt + tile]. With LANE_CARRY the op of each
// invocation's, and the identity after the last (scankernel.glsl). The first level of a multi-level
// reduction or of reduce-then-scan; a single tile (numTiles = 1) writes a
// final result straight into the caller's buffer at partialAt. The kernel
// is scankernel.glsl with SCAN_KERNEL 1 (a user's predicate kernel builds
// it through select.glsl).
//
// lint: TYPE=2 OP=2 WG_SIZE=64 VEC=2
// lint: TYPE=1 OP=0 SEGMENTED=1 WG_SIZE=8 VEC=1
// lint: MAP=1 LANE_CARRY=1 WG_SIZE=8 VEC=16
// lint: TYPE=2 OP=0 LANE_CARRY=1
// lint: TYPE=1 OP=2 LANE_CARRY=1 WG_SIZE=8 VEC=16
// lint: MAP=3 PRED_TYPE=2 PRED_EXPR=x>0.5 LANE_CARRY=1
// lint: MAP=1 KEY_WORDS=2 LANE_CARRY=1
// lint: MAP=1
// lint: MAP=2 OP=1
// lint: TYPE=1 OP=4 SUBGROUP=1 SG_SIZE=32
// lint: MAP=3 PRED_TYPE=2 PRED_EXPR=x<0.25
// lint: MAP=1 KEY_WORDS=2
// lint: MAP=1 KEY_WORDS=1
// lint: SUBGROUP=1 SG_SIZE=32 TYPE=2 OP=0
// lint: SUBGROUP=1 SG_SIZE=32 MAP=1 WG_SIZE=1024 VEC=1
// lint: SUBGROUP=1 SUBGROUP_EMULATE=1 SG_SIZE=64 WG_SIZE=64 TYPE=2 OP=0
// lint: SUBGROUP=1 SG_SIZE=32 SEGMENTED=1 TYPE=0 OP=1
// lint: SUBGROUP=1 SUBGROUP_EMULATE=1 SG_SIZE=8 WG_SIZE=8 SEGMENTED=1 TYPE=2 OP=0
// lint: SUBGROUP=1 SUBGROUP_EMULATE=1 SG_SIZE=8 WG_SIZE=32 TYPE=1 OP=2 VEC=2

#define SCAN_KERNEL 1
#include "scankernel.glsl"
