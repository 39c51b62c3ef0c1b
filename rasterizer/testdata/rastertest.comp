#version 450
#extension GL_ARB_gpu_shader_int64 : require
// Test kernel: evaluates raster.glsl's setup, spans and depths for a list of
// triangles, for comparison with package raster in Go: the depths both in
// 64-bit integers and, for a triangle whose area2 is below 2^28 (else
// NO_PRIMITIVE twice), in doubles (rowDepthExactAt, zbuffer.comp's
// EXACT_DEPTH).
layout(local_size_x = 32) in;
#include "include/common.glsl"
#include "rasterizer/raster.glsl"

#define ROWS 48
struct In { ivec4 p01; ivec4 p2z; uvec4 z12prim; };
layout(std430, binding = 0) readonly buffer Ins { In ins[]; };
layout(std430, binding = 1) writeonly buffer Tris { Tri tris[]; };
layout(std430, binding = 2) writeonly buffer Ok { uint ok[]; };
layout(std430, binding = 3) writeonly buffer Spans { ivec2 spans[]; };
layout(std430, binding = 4) writeonly buffer Depths { uvec2 depths[]; };
layout(std430, binding = 5) writeonly buffer ExactDepths { uvec2 exactDepths[]; };
uniform uint n;
uniform ivec2 size;

void main() {
    uint i = dpglGlobalIndex();
    if (i >= n) return;
    In v = ins[i];
    Tri t;
    bool good = triSetup(v.p01.xy, v.p01.zw, v.p2z.xy, uvec3(uint(v.p2z.z), v.z12prim.x, v.z12prim.y), v.z12prim.z, size.y, t);
    tris[i] = t;
    ok[i] = good ? 1u : 0u;
    for (int r = 0; r < ROWS; r++) {
        ivec2 s = ivec2(0, -1);
        uvec2 d = uvec2(0u), e = uvec2(NO_PRIMITIVE);
        if (good && r < size.y) {
            s = triSpan(t, r, size.x);
            if (s.y >= s.x) {
                d = uvec2(triDepth(t, s.x, r), triDepth(t, s.y, r));
                if (t.v2a.w == 0 && uint(t.v2a.z) < (1u << 28)) {
                    RowDepthExact rd = rowDepthExact(t, r);
                    e = uvec2(rowDepthExactAt(rd, s.x), rowDepthExactAt(rd, s.y));
                }
            }
        }
        exactDepths[i * uint(ROWS) + uint(r)] = e;
        spans[i * uint(ROWS) + uint(r)] = s;
        depths[i * uint(ROWS) + uint(r)] = d;
    }
}
