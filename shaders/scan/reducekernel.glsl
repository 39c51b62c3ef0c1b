// The body of reduce.comp; see there.

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
