#version 450
// Marching cubes, pass 4: triangle j (j < count, the total that pass 2's
// scan left in offsets[runs], clamped to capacity) is triangle s of the
// case of its cell (records[j], pass 3); it writes its three vertices,
// positions interpolated on the cell's edges and normals from the field's
// gradient, to slots 3j, 3j+1, 3j+2 of the soup.
// lint: WG_SIZE=64

#ifndef WG_SIZE
#define WG_SIZE 256
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "isosurface/mc.glsl"

layout(std430, binding = 2) readonly restrict buffer Offsets { uint offsets[]; };
layout(std430, binding = 3) readonly restrict buffer Records { uvec2 records[]; };
layout(std430, binding = 4) writeonly restrict buffer Positions { vec4 positions[]; }; // w = 1
layout(std430, binding = 5) writeonly restrict buffer Normals { vec4 normals[]; };     // w = 0

uniform uint capacity; // triangles the soup holds

void main() {
    uint j = dpglGlobalIndex();
    if (j >= min(offsets[runs], capacity)) return;
    uvec2 r = records[j];
    uvec3 cell = cellOrigin(r.x);
    uint cs = r.y & 255u, s = r.y >> 8;
    for (uint k = 0u; k < 3u; k++) {
        uint e = table[256u + 15u * cs + 3u * s + k];
        vec3 p, nrm;
        edgeVertex(cornerOf(cell, edgeLow[e]), int(e / 4u), p, nrm);
        positions[3u * j + k] = vec4(p, 1.0);
        normals[3u * j + k] = vec4(nrm, 0.0);
    }
}
