#version 450
#extension GL_ARB_gpu_shader_int64 : require
// The tiled rasterizer's setup (rasterizer/tiled.go), in one pass: transform,
// clip and set up triangles [first, first+numTris) of a soup (the
// arithmetic of setup.comp, raster.SetupMesh), and for each set-up
// triangle append its record (tileprep.glsl) at a slot taken from a
// counter, and count it in every tile it reaches (tilebin.comp's test).
// A large triangle (tileprep.glsl's prepLarge) counts in the tile's
// second count, tileCount[numTiles + tile], the others in its first.
// With binCap > 0 it also writes the record's slot into the reached tile's
// bin, bins[tile * binCap + count] for a small triangle and bins[(tile + 1)
// * binCap - 1 - count] for a large one, so that the tiles' lists need no
// second pass; where a tile's two counts together pass binCap
// (tilelist.comp, run after this pass, finds it) the caller makes the
// lists by tilebin.comp's counting sort instead (the counts are whole
// either way).
// The slots' order is the atomics'; the tile kernel ranks a chunk's
// triangles by primitive id, so no order changes a pixel. The counter runs
// on past capacity: the caller grows the records to it and runs the pass
// again (tileCount and the counter cleared).
//   counter[0]: set-up triangles; counter[1..4]: outside, clipped,
//   non-finite, zero-area (raster.SetupStats); counter[5]: triangles left
//   to the clipping pass; counter[6..] tilelist.comp's, after this pass:
//   counter[6]: the largest tile count past binCap (0: every tile's list
//   is in its bin); counter[7]: the tiles that hold a triangle, counter[8]
//   and counter[9] 1 (the caller's), so that counter[7..9] are the tile
//   kernel's work group counts for an indirect dispatch; counter[10]: the
//   tiles that hold a large triangle; counter[11 + i]: the i-th tile that
//   holds a triangle (y * tilesX + x).
// (llvmpipe takes a pass through the tile kernel for a work group whose
// tile is empty, which has no loop to skip it: at the paper's unzoomed
// views, where three tiles in four are empty, dispatching only the listed
// tiles took 7-30% off a frame's CPU time, under load.)
// The pass runs twice. CLIP_PASS 0 takes every triangle but clips none:
// one that crosses a clipping plane goes on clipList (at counter[5]) for
// CLIP_PASS 1, which takes the triangles of clipList and clips them. A SIMD
// vector of invocations runs every instruction of a branch any of its
// lanes takes (llvmpipe), so the clipper's loops, in a pass of their own,
// cost only the few triangles that cross the view's planes.
// Likewise CLIP_PASS 0 bins a record whose box lies within 2x2 tiles
// (tileprep.glsl's eachNearTile, no loop) and lists the others' slots at
// clipList[listBase + k] (k from counter[boxWords], the work groups of a
// pass over them counted from counter[boxWords + 1]) for BOX_PASS 1, which
// bins them by eachReachedTile's loops; CLIP_PASS 1 bins its few records
// by those loops itself.
// A SIMD vector runs the code after a return that all its lanes took as
// well (its memory accesses and loops skip the lanes that left), so a
// triangle wholly outside the view cost CLIP_PASS 0 about 45% of one it
// sets up (llvmpipe). Where many lie outside (tiled.go decides from the
// last batch and the mesh's bounds), CULL_PASS 1 first marks each triangle
// not wholly outside, clipList[cullBase + i] = 1 (0 otherwise), by the
// transform and clipClass alone; the caller compacts the marked indices
// (tiled.go's compact) to clipList[cullBase...] of CULLED 1, a CLIP_PASS 0 over
// those triangles only, in input order: the zoomed views' setup, where half
// the triangles lie outside, in half the lanes.
// lint: CLIP_PASS=1
// lint: CULL_PASS=1
// lint: CULLED=1 SHADE_RECORDS=1
// lint: BOX_PASS=1
// lint: NEAR=0 REACH_BOX=1
// lint: TEXELS=0
// lint: SHADE_RECORDS=1
// lint: SHADE_RECORDS=1 CLIP_PASS=1 TEXELS=0
#ifndef TILE
#define TILE 8
#endif
#ifndef TEXELS
#define TEXELS 1
#endif
#ifndef CLIP_PASS
#define CLIP_PASS 0
#endif
#ifndef WG_SIZE
#define WG_SIZE 64
#endif
#ifndef SHADE_RECORDS
#define SHADE_RECORDS 0 // 1: store the shading records of the triangles set up
#endif
#ifndef BOX_PASS
#define BOX_PASS 0 // 1: bin the records listed at clipList[listBase...]
#endif
#ifndef CULL_PASS
#define CULL_PASS 0 // 1: mark the triangles not wholly outside the view
#endif
#ifndef CULLED
#define CULLED 0 // 1 (CLIP_PASS 0): set up the triangles listed at clipList[cullBase...]
#endif
#ifndef NEAR
#define NEAR 1 // 0 (tests): CLIP_PASS 0 bins every record by eachReachedTile's loops, lists none
#endif
#define SHADE_RECORD_STORE SHADE_RECORDS

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "rasterizer/raster.glsl"
#define REACHED_TILE binTile
void binTile(uint tile, uint cls, bool large, uint slot);
#include "rasterizer/tileprep.glsl"
#include "rasterizer/layout.glsl"

#if TEXELS
// The vertices as a buffer texture (tiled.go): a vertex is one gather of a
// SIMD vector's lanes rather than three scalar loads a lane (llvmpipe).
layout(binding = UNIT_POSITIONS) uniform samplerBuffer posTexels;
vec3 vertex(uint i) { return texelFetch(posTexels, int(i)).xyz; }
#else
layout(std430, binding = BINDING_POSITIONS) readonly restrict buffer Positions { vec4 pos[]; }; // xyz, w unused
vec3 vertex(uint i) { return pos[i].xyz; }
#endif
#include "rasterizer/shaderecord.glsl"
layout(std430, binding = BINDING_TILE_COUNT) restrict buffer TileCount { uint tileCount[]; };
layout(std430, binding = BINDING_TILE_COUNTER) restrict buffer Counter { uint counter[]; };
layout(std430, binding = BINDING_TILE_BINS) writeonly restrict buffer Bins { uint bins[]; };
layout(std430, binding = BINDING_TILE_LIST) restrict buffer List { uint clipList[]; }; // the triangles to clip
#if BOX_PASS
layout(std430, binding = BINDING_TILE_PREPS) readonly restrict buffer Preps { Prep prep[]; };
#else
layout(std430, binding = BINDING_TILE_PREPS) writeonly restrict buffer Preps { Prep prep[]; };
#endif

uniform mat4 mvp;
uniform uint numTris; // CLIP_PASS 1: entries of clipList
uniform uint first;
uniform uint primBase;
uniform ivec2 size;
uniform vec2 guard;
uniform int tilesX;
uniform uint numTiles; // tilesX * tilesY: the large triangles' counts follow the others' in tileCount
uniform uint capacity; // records prep holds
uniform uint binCap;   // entries a tile's bin holds; 0: no bins
uniform uint listBase; // clipList[listBase...]: the records BOX_PASS bins
uniform uint boxWords; // counter[boxWords]: those records; [+1, +3]: BOX_PASS's work groups
uniform uint cullBase; // CULL_PASS: its marks at clipList[cullBase + i]; CULLED: its triangles' list there

// binTile adds record slot to tile's count of its class (cls: the large
// triangles' counts follow the others') and to its bin (tileprep.glsl's
// eachReachedTile calls it for every tile the record reaches; tilebin.comp
// writes the same tiles' lists).
void binTile(uint tile, uint cls, bool large, uint slot) {
    uint k = min(atomicAdd(tileCount[cls + tile], 1u), binCap - 1u);
    // A bin holds the tile's small triangles from its start, its large
    // ones from its end. Past its bin, a tile's entries overwrite others:
    // the frame's lists then come from the counting sort (tilelist.comp
    // sees the counts), and no bin is read.
    if (binCap != 0u) bins[tile * binCap + (large ? binCap - 1u - k : k)] = slot;
}

#if !BOX_PASS
// emit sets up the triangle of window positions p0, p1, p2 and depths z
// of input triangle i, and makes its record and tile counts (CLIP_PASS 0:
// or lists the record for BOX_PASS).
void emit(ivec2 p0, ivec2 p1, ivec2 p2, uvec3 z, uint i) {
    Tri t;
    if (!triSetup(p0, p1, p2, z, primBase + i, size.y, t)) {
        atomicAdd(counter[4], 1u);
        return;
    }
    uint slot = atomicAdd(counter[0], 1u);
    if (slot >= capacity) return; // counted: the caller grows and runs again
    Prep p = makePrep(t, size.x);
    prep[slot] = p;
#if CLIP_PASS || !NEAR
    eachReachedTile(p, slot, tilesX, numTiles);
#else
    if (prepNear(prepBox(p))) {
        eachNearTile(p, slot, tilesX, numTiles);
    } else {
        uint k = atomicAdd(counter[boxWords], 1u);
        if (k % uint(WG_SIZE) == 0u) atomicAdd(counter[boxWords + 1u], 1u);
        clipList[listBase + k] = slot;
    }
#endif
}
#endif

#if CULL_PASS
void main() {
    uint g = dpglGlobalIndex();
    if (g >= numTris) return;
    uint v = 3u * (first + g);
    bool keep = clipClass(transformPoint(mvp, vertex(v)), transformPoint(mvp, vertex(v + 1u)), transformPoint(mvp, vertex(v + 2u)), guard) != CLIP_OUTSIDE;
    clipList[cullBase + g] = keep ? 1u : 0u;
}
#else
void main() {
    uint g = dpglGlobalIndex();
#if BOX_PASS
    if (g >= counter[boxWords]) return;
    uint slot = clipList[listBase + g];
    eachReachedTile(prep[slot], slot, tilesX, numTiles);
#else
    if (g >= numTris) return;
#if CLIP_PASS
    uint i = clipList[g];
#elif CULLED
    uint i = clipList[cullBase + g];
#else
    uint i = g;
#endif
    uint v = 3u * (first + i);
    vec3 pos0 = vertex(v), pos1 = vertex(v + 1u), pos2 = vertex(v + 2u);
    vec4 t0 = transformPoint(mvp, pos0);
    vec4 t1 = transformPoint(mvp, pos1);
    vec4 t2 = transformPoint(mvp, pos2);
#if CLIP_PASS
    vec4 poly[MAX_CLIP_VERTICES];
    int n;
    int res = clipTriangle(t0, t1, t2, guard, poly, n);
    if (res == CLIP_OUTSIDE) atomicAdd(counter[1], 1u);
    if (res == CLIP_CLIPPED) atomicAdd(counter[2], 1u);
    if (n < 3) return;
#if SHADE_RECORD_STORE
    storeShadeRecord(primBase + i, pos0, pos1, pos2, t0, t1, t2, v);
#endif
    ivec2 p0;
    uint z0;
    toWindow(poly[0], size, p0, z0);
    for (int k = 1; k + 1 < n; k++) {
        ivec2 p1, p2;
        uint z1, z2;
        toWindow(poly[k], size, p1, z1);
        toWindow(poly[k + 1], size, p2, z2);
        emit(p0, p1, p2, uvec3(z0, z1, z2), i);
    }
#else
    int res = clipClass(t0, t1, t2, guard);
    if (res == CLIP_OUTSIDE) atomicAdd(counter[1], 1u);
    if (res == CLIP_NONFINITE) atomicAdd(counter[3], 1u);
    if (res == CLIP_CLIPPED) clipList[atomicAdd(counter[5], 1u)] = i;
    if (res != CLIP_INSIDE) return;
#if SHADE_RECORD_STORE
    storeShadeRecord(primBase + i, pos0, pos1, pos2, t0, t1, t2, v);
#endif
    ivec2 p0, p1, p2;
    uint z0, z1, z2;
    toWindow(t0, size, p0, z0);
    toWindow(t1, size, p1, z1);
    toWindow(t2, size, p2, z2);
    emit(p0, p1, p2, uvec3(z0, z1, z2), i);
#endif
#endif
}
#endif
