#version 450
// reduce: the op of each tile's elements (load.glsl's MAP), as bits, to
// partial[partialAt + tile]; for SEGMENTED also whether the tile holds a
// head, to partialHeads[partialAt + tile]. The first level of a multi-level
// reduction or of reduce-then-scan; a single tile (numTiles = 1) writes a
// final result straight into the caller's buffer at partialAt.
//
// lint: TYPE=2 OP=2 WG_SIZE=64 VEC=2
// lint: TYPE=1 OP=0 SEGMENTED=1 WG_SIZE=8 VEC=1
// lint: MAP=1
// lint: MAP=2 OP=1
// lint: SUBGROUP=1 SG_SIZE=32 TYPE=2 OP=0
// lint: SUBGROUP=1 SG_SIZE=32 MAP=1 WG_SIZE=1024 VEC=1
// lint: SUBGROUP=1 SUBGROUP_EMULATE=1 SG_SIZE=64 WG_SIZE=64 TYPE=2 OP=0
// lint: SUBGROUP=1 SG_SIZE=32 SEGMENTED=1 TYPE=0 OP=1
// lint: SUBGROUP=1 SUBGROUP_EMULATE=1 SG_SIZE=8 WG_SIZE=8 SEGMENTED=1 TYPE=2 OP=0
// lint: SUBGROUP=1 SUBGROUP_EMULATE=1 SG_SIZE=8 WG_SIZE=32 TYPE=1 OP=2 VEC=2

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef SUBGROUP
#define SUBGROUP 0
#endif
#ifndef SUBGROUP_EMULATE
#define SUBGROUP_EMULATE 0
#endif
#ifndef SEGMENTED
#define SEGMENTED 0
#endif

#if SUBGROUP && !SUBGROUP_EMULATE
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#if SEGMENTED
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#endif
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "elem.glsl"
#include "load.glsl"
#include "tile.glsl"

uniform uint numTiles;
uniform uint partialAt;

layout(std430, binding = 6) writeonly buffer Partial { uint partial[]; };
#if SEGMENTED
layout(std430, binding = 7) writeonly buffer PartialHeads { uint partialHeads[]; };
#endif

void main() {
    uint tile = dpglGroupIndex();
    if (tile >= numTiles) {
        return;
    }
    V x[VEC][4];
    for (uint i = 0u; i < uint(VEC); i++) {
        loadVec(tile * uint(TILE_VECS) + tileVec(i), x[i]);
    }
    V total = tileReduce(x);
    if (gl_LocalInvocationIndex == 0u) {
        partial[partialAt + tile] = toBits(valOf(total));
#if SEGMENTED
        partialHeads[partialAt + tile] = headOf(total);
#endif
    }
}
