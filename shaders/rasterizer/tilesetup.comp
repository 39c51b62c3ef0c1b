#version 450
#extension GL_ARB_gpu_shader_int64 : require
// The tiled rasterizer's setup (rasterizer/tiled.go), in one pass: transform,
// clip and set up triangles [first, first+numTris) of a soup (the
// arithmetic of setup.comp, raster.SetupMesh), and for each set-up
// triangle append its record (tileprep.glsl) at a slot taken from a
// counter, and count it in every tile it reaches (tilebin.comp's test).
// The slots' order is the atomics'; the tile kernel ranks a chunk's
// triangles by primitive id, so no order changes a pixel. The counter runs
// on past capacity: the caller grows the records to it and runs the pass
// again (tileCount and the counter cleared).
//   counter[0]: set-up triangles; counter[1..4]: outside, clipped,
//   non-finite, zero-area (raster.SetupStats).
#ifndef TILE
#define TILE 8
#endif
#ifndef WG_SIZE
#define WG_SIZE 64
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "rasterizer/raster.glsl"
#include "rasterizer/tileprep.glsl"
#include "rasterizer/layout.glsl"

layout(std430, binding = BINDING_POSITIONS) readonly restrict buffer Positions { vec4 pos[]; }; // xyz, w unused
layout(std430, binding = BINDING_TILE_COUNT) restrict buffer TileCount { uint tileCount[]; };
layout(std430, binding = BINDING_TILE_COUNTER) restrict buffer Counter { uint counter[5]; };
layout(std430, binding = BINDING_TILE_PREPS) writeonly restrict buffer Preps { Prep prep[]; };

uniform mat4 mvp;
uniform uint numTris;
uniform uint first;
uniform uint primBase;
uniform ivec2 size;
uniform vec2 guard;
uniform int tilesX;
uniform uint capacity; // records prep holds

// binCount adds p to the count of every tile it reaches (tilebin.comp
// writes the same tiles' lists), in two loops of at most tilesX and tilesY
// steps each (a driver may cut one loop's iterations; gpu.Caps.LoopLimit).
void binCount(Prep p) {
    if (p.box.y < p.box.x || p.box.w < p.box.z) return;
    Reach r = makeReach(p);
    for (int ty = p.box.z / TILE; ty <= p.box.w / TILE; ty++) {
        for (int tx = p.box.x / TILE; tx <= p.box.y / TILE; tx++) {
            if (prepReaches(p, r, tx, ty)) atomicAdd(tileCount[uint(ty * tilesX + tx)], 1u);
        }
    }
}

void main() {
    uint i = dpglGlobalIndex();
    if (i >= numTris) return;
    uint v = 3u * (first + i);
    vec4 t0 = transformPoint(mvp, pos[v].xyz);
    vec4 t1 = transformPoint(mvp, pos[v + 1u].xyz);
    vec4 t2 = transformPoint(mvp, pos[v + 2u].xyz);
    vec4 poly[MAX_CLIP_VERTICES];
    int n;
    int res = clipTriangle(t0, t1, t2, guard, poly, n);
    if (res == CLIP_OUTSIDE) atomicAdd(counter[1], 1u);
    if (res == CLIP_CLIPPED) atomicAdd(counter[2], 1u);
    if (res == CLIP_NONFINITE) atomicAdd(counter[3], 1u);
    if (n < 3) return;
    ivec2 p0;
    uint z0;
    toWindow(poly[0], size, p0, z0);
    for (int k = 1; k + 1 < n; k++) {
        ivec2 p1, p2;
        uint z1, z2;
        toWindow(poly[k], size, p1, z1);
        toWindow(poly[k + 1], size, p2, z2);
        Tri t;
        if (!triSetup(p0, p1, p2, uvec3(z0, z1, z2), primBase + i, size.y, t)) {
            atomicAdd(counter[4], 1u);
            continue;
        }
        uint slot = atomicAdd(counter[0], 1u);
        if (slot >= capacity) continue; // counted: the caller grows and runs again
        Prep p = makePrep(t, size.x);
        prep[slot] = p;
        binCount(p);
    }
}
