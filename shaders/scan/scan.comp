#version 450
// scan: one level of a device-wide scan, one tile per work group; the
// kernel is scankernel.glsl (which a user's predicate kernel includes too,
// through select.glsl). Each group loads its tile (load.glsl), scans it in
// the group (tile.glsl), gets the op of everything before the tile
// (CARRY), and writes (OUT, named in modes.glsl).
//   CARRY 0  the tile is the whole array: the prefix is the init value.
//   CARRY 1  reduce-then-scan: carry[tile] holds the prefix, written by
//            the scan of the level above (partials of reduce.comp);
//            with LANE_CARRY (unsegmented scans, compactions,
//            partitions) one per invocation, not per tile
//            (scankernel.glsl's mainLanes).
//   CARRY 2  single pass: decoupled look-back (lookback.glsl).
//   OUT_VALUES          dst[e] = the exclusive or inclusive scan value of
//                       e (values of T); with resetAtHeads, exclusive
//                       values restart at heads.
//   OUT_SEGMENTED_COPY  records of RECORD_WORDS words: dst[e] =
//                       src[head of e], the head index found by a max-scan
//                       (MAP_HEAD_INDEX).
//   OUT_COMPACT         record e goes to dst[exclusive count before e]
//                       when it counts (MAP_COUNT, MAP_PREDICATE) and that
//                       position < dstLen.
//   OUT_PARTITION       as OUT_COMPACT for counted records; the others go
//                       to dst[selected + e - exclusive count], selected
//                       (the count of all n) read from count[countAt].
//   SEGMENTED           (head flag, value) pairs, OUT_VALUES only.
//   TOTAL    also write the op of all n elements (bits) to total[totalAt].
//
// lint: TYPE=1 OP=1 CARRY=1
// lint: TYPE=0 OP=3 CARRY=2 SUBGROUP=1 SG_SIZE=32
// lint: TYPE=1 OP=5 SEGMENTED=1 CARRY=1
// lint: TYPE=2 OP=2 CARRY=2 WG_SIZE=64 VEC=2
// lint: TYPE=2 OP=0 SEGMENTED=1 CARRY=2 SPIN=0 PUBLISH=0 WG_SIZE=8 WINDOW=8
// lint: TYPE=0 OP=1 SEGMENTED=1 CARRY=1 WG_SIZE=8 VEC=1
// lint: OP=1 OUT=1 CARRY=2 RECORD_WORDS=1
// lint: OP=1 OUT=1 CARRY=1 RECORD_WORDS=3
// lint: OP=0 OUT=2 CARRY=2 RECORD_WORDS=2 TOTAL=1
// lint: OP=0 OUT=2 CARRY=0 RECORD_WORDS=1 TOTAL=1
// lint: OP=0 OUT=2 MAP=3 PRED_TYPE=2 PRED_EXPR=x>0.5 CARRY=2 RECORD_WORDS=1 TOTAL=1
// lint: OP=0 OUT=2 CARRY=2 RECORD_WORDS=2 KEY_WORDS=2 TOTAL=1
// lint: OP=0 OUT=3 CARRY=2 RECORD_WORDS=3
// lint: OP=0 OUT=3 MAP=3 PRED_TYPE=1 PRED_EXPR=(x&1)==0 CARRY=1 RECORD_WORDS=1
// lint: OP=0 OUT=2 CARRY=2 RECORD_WORDS=1 KEY_WORDS=1 RECORDS_LOADED=1 TOTAL=1
// lint: OP=0 OUT=2 CARRY=1 LANE_CARRY=1 RECORD_WORDS=1 TOTAL=1 WG_SIZE=8 VEC=16
// lint: TYPE=2 OP=0 CARRY=1 LANE_CARRY=1
// lint: TYPE=1 OP=2 CARRY=1 LANE_CARRY=1 TOTAL=1 WG_SIZE=8 VEC=16
// lint: OP=0 OUT=2 CARRY=1 LANE_CARRY=1 RECORD_WORDS=3 TOTAL=1
// lint: OP=0 OUT=2 MAP=3 PRED_TYPE=2 PRED_EXPR=x>0.5 CARRY=1 LANE_CARRY=1 RECORD_WORDS=1 RECORDS_LOADED=1 TOTAL=1
// lint: OP=0 OUT=2 CARRY=1 LANE_CARRY=1 RECORD_WORDS=1 KEY_WORDS=1 RECORDS_LOADED=1 TOTAL=1
// lint: OP=0 OUT=3 CARRY=1 LANE_CARRY=1 RECORD_WORDS=1
// lint: OP=0 OUT=3 CARRY=1 LANE_CARRY=1 RECORD_WORDS=2
// lint: OP=0 OUT=3 MAP=3 PRED_TYPE=1 PRED_EXPR=(x&1)==0 CARRY=1 LANE_CARRY=1 RECORD_WORDS=1 RECORDS_LOADED=1
// lint: OP=0 OUT=2 CARRY=1 RECORD_WORDS=2 KEY_WORDS=2 TOTAL=1
// lint: TYPE=1 OP=2 SEGMENTED=1 CARRY=0
// lint: SUBGROUP=1 SG_SIZE=32 CARRY=2
// lint: SUBGROUP=1 SG_SIZE=32 CARRY=1 TYPE=2 OP=1 WG_SIZE=1024 VEC=1
// lint: SUBGROUP=1 SG_SIZE=16 CARRY=2 TYPE=1 OP=2 WG_SIZE=128 WINDOW=16
// lint: SUBGROUP=1 SG_SIZE=32 CARRY=2 OP=1 OUT=1 RECORD_WORDS=1
// lint: SUBGROUP=1 SG_SIZE=64 CARRY=2 OP=0 OUT=2 RECORD_WORDS=1 TOTAL=1 WINDOW=64
// lint: SUBGROUP=1 SG_SIZE=32 CARRY=2 OP=0 OUT=2 RECORD_WORDS=1 KEY_WORDS=1 RECORDS_LOADED=1 TOTAL=1
// lint: SUBGROUP=1 SUBGROUP_EMULATE=1 SG_SIZE=32 WG_SIZE=32 CARRY=2 TYPE=2 OP=2 WINDOW=32
// lint: SUBGROUP=1 SUBGROUP_EMULATE=1 SG_SIZE=8 WG_SIZE=8 CARRY=1 TYPE=1 OP=1
// lint: SUBGROUP=1 SG_SIZE=32 SEGMENTED=1 CARRY=2 TYPE=2 OP=0
// lint: SUBGROUP=1 SG_SIZE=32 SEGMENTED=1 CARRY=1 TYPE=1 OP=2 WG_SIZE=1024 VEC=1
// lint: SUBGROUP=1 SUBGROUP_EMULATE=1 SG_SIZE=8 WG_SIZE=8 SEGMENTED=1 CARRY=2 OP=1 WINDOW=8
// lint: SUBGROUP=1 SUBGROUP_EMULATE=1 SG_SIZE=8 WG_SIZE=32 SEGMENTED=1 CARRY=2 TYPE=2 OP=0 WINDOW=8
// lint: SUBGROUP=1 SUBGROUP_EMULATE=1 SG_SIZE=8 WG_SIZE=32 CARRY=2 OP=1 OUT=1 RECORD_WORDS=1 WINDOW=8

#include "scankernel.glsl"
