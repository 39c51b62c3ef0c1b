#version 450
#extension GL_ARB_gpu_shader_int64 : require
// The tiled rasterizer's tile lists (rasterizer/tiled.go): the second
// half of a counting sort by tile. tilesetup.comp made each set-up
// triangle's record and counted it in every TILE x TILE tile where its box
// of covered pixel centres and each of its edges' half-planes meet; with
// tileStart the exclusive scan of those counts and tileCount zeroed, this
// pass writes list[tileStart[c + t] + atomicAdd(tileCount[c + t], 1)] =
// the record for the same tiles, c = numTiles for a large triangle
// (prepLarge), 0 for the others: the small triangles' lists, then the
// large ones'. The order of a tile's list is the atomics' and may
// change between runs: tile.comp keeps, per pixel, the least (depth,
// primitive id) of the whole list, which no order can change.
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

layout(std430, binding = BINDING_TILE_COUNT) restrict buffer TileCount { uint tileCount[]; };
layout(std430, binding = BINDING_TILE_START) readonly restrict buffer TileStart { uint tileStart[]; };
layout(std430, binding = BINDING_TILE_LIST) writeonly restrict buffer List { uint list[]; };
layout(std430, binding = BINDING_TILE_PREPS) readonly restrict buffer Preps { Prep prep[]; };

uniform uint numTris; // records
uniform int tilesX;   // tiles per row: ceil(width / TILE)
uniform uint numTiles; // tileCount and tileStart: the small triangles' numTiles words, then the large ones'

void main() {
    uint i = dpglGlobalIndex();
    if (i >= numTris) return;
    Prep p = prep[i];
    ivec4 box = prepBox(p);
    if (box.y < box.x || box.w < box.z) return;
    Reach r = makeReach(p, box);
    uint cls = prepLarge(p) ? numTiles : 0u;
    // Two loops of at most tilesX and tilesY steps each (a driver may cut
    // one loop's iterations; see gpu.Caps.LoopLimit).
    for (int ty = box.z / TILE; ty <= box.w / TILE; ty++) {
        int tx0, tx1;
        reachRow(p, box, r, ty, tx0, tx1);
        for (int tx = tx0; tx <= tx1; tx++) {
            if (prepReaches(p, box, r, tx, ty)) {
                uint tile = uint(ty * tilesX + tx);
                list[tileStart[cls + tile] + atomicAdd(tileCount[cls + tile], 1u)] = i;
            }
        }
    }
}
