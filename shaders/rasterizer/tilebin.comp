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
#define REACHED_TILE listTile
void listTile(uint tile, uint cls, bool large, uint slot);
#include "rasterizer/tileprep.glsl"
#include "rasterizer/layout.glsl"

layout(std430, binding = BINDING_TILE_COUNT) restrict buffer TileCount { uint tileCount[]; };
layout(std430, binding = BINDING_TILE_START) readonly restrict buffer TileStart { uint tileStart[]; };
layout(std430, binding = BINDING_TILE_LIST) writeonly restrict buffer List { uint list[]; };
layout(std430, binding = BINDING_TILE_PREPS) readonly restrict buffer Preps { Prep prep[]; };

uniform uint numTris; // records
uniform int tilesX;   // tiles per row: ceil(width / TILE)
uniform uint numTiles; // tileCount and tileStart: the small triangles' numTiles words, then the large ones'

// listTile appends record slot to tile's list of its class (cls: the large
// triangles' lists follow the others'); eachReachedTile calls it for every
// tile the record reaches.
void listTile(uint tile, uint cls, bool large, uint slot) {
    list[tileStart[cls + tile] + atomicAdd(tileCount[cls + tile], 1u)] = slot;
}

void main() {
    uint i = dpglGlobalIndex();
    if (i >= numTris) return;
    Prep p = prep[i];
    eachReachedTile(p, i, tilesX, numTiles);
}
