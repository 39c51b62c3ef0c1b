#version 450
// Marching cubes, pass 3: with offsets = the exclusive scan of classify's
// counts, the cells of run j write one record per triangle, in cell order,
// from slot offsets[j]: (cell, case | s << 8) for triangle s of the cell's
// case. Pass 4 then runs one invocation per triangle, so that no lane idles
// on an empty cell (most cells are). Slots at or past capacity are skipped:
// the host reads the total (offsets[runs]) and runs passes 3 and 4 again
// into bigger buffers.
// lint: WG_SIZE=64 RUN=1
// lint: RUN=8

#ifndef WG_SIZE
#define WG_SIZE 256
#endif

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "isosurface/mc.glsl"

layout(std430, binding = 2) readonly restrict buffer Offsets { uint offsets[]; };
layout(std430, binding = 3) writeonly restrict buffer Records { uvec2 records[]; };

uniform uint capacity; // triangles the output holds

void main() {
    uint j = dpglGlobalIndex();
    if (j >= runs) return;
    uint slot = offsets[j];
    if (slot == offsets[j + 1u] || slot >= capacity) return;
    uint len;
    uvec3 c = runStart(j, len);
    uint cell = cellIndex(c);
    uint left = faceCase(c);
    for (uint k = 0u; k < len; k++) {
        uint right = faceCase(c + uvec3(k + 1u, 0u, 0u));
        uint cs = left | (right << 1);
        uint n = (cs & NONFINITE) != 0u ? 0u : table[cs]; // as classify
        cs &= 255u;
        for (uint s = 0u; s < n && slot < capacity; s++) {
            records[slot++] = uvec2(cell + k, cs | (s << 8));
        }
        left = right;
    }
}
