#version 450
// The tiled rasterizer's list of the tiles that hold a triangle
// (rasterizer/tiled.go), from the counts tilesetup.comp left in tileCount:
// counter[11 + i] the i-th such tile (y * tilesX + x, in the order the
// atomics made), counter[7] how many (the x of the tile kernel's indirect
// dispatch), and counter[6] the largest count past binCap (0: every
// tile's list is in its bin), a tile's count being its small and large
// triangles (tileCount[t] and tileCount[numTiles + t]), which share its
// bin. A pass over the tiles rather than a test in
// the setup pass for every (triangle, tile) it counts: on llvmpipe each of
// those takes a loop over a SIMD vector's lanes whether or not any lane's
// test holds, and a zoomed view makes some 60,000 of them a frame (the
// setup's binning was half the set-up time; this pass takes 4,096 tiles,
// one word each).
#ifndef WG_SIZE
#define WG_SIZE 64
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "rasterizer/layout.glsl"

layout(std430, binding = BINDING_TILE_COUNT) readonly restrict buffer TileCount { uint tileCount[]; };
layout(std430, binding = BINDING_TILE_COUNTER) restrict buffer Counter { uint counter[]; };

uniform uint numTiles;
uniform uint binCap; // entries a tile's bin holds; 0: no bins

void main() {
    uint t = dpglGlobalIndex();
    if (t >= numTiles) return;
    uint large = tileCount[numTiles + t];
    uint c = tileCount[t] + large;
    if (c != 0u) counter[11u + atomicAdd(counter[7], 1u)] = t;
    // counter[10]: the tiles with a large triangle (the caller then runs
    // tile.comp's LARGE variant, and the one without the large triangles'
    // pass otherwise).
    if (large != 0u) atomicAdd(counter[10], 1u);
    if (binCap != 0u && c > binCap) atomicMax(counter[6], c);
}
