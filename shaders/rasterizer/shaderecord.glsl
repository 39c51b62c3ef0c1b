// Shading records (rasterizer/shade.go): what shade.glsl needs of the
// triangle that won a pixel, worked out once a triangle instead of once a
// pixel. A record is K, a 3x3 matrix whose product with a pixel centre's
// (x, y, 1) in normalized device coordinates is the triangle's normal
// there in eye space times some factor, positive or negative, which the
// shading does not see (it normalizes N and uses only |N . V|):
//   smooth: N = normalMatrix * sum_i b_i n_i, the vertex normals weighted
//           by the perspective-correct barycentrics, which are r_i . q,
//           r_i = c_{i+1} x c_{i+2}, over a sum common to the three (the 2-D
//           homogeneous edge functions of the clip-space vertices c_i =
//           (x, y, w): valid also for triangles that reach behind the eye);
//           so K = sum_i (normalMatrix n_i) r_i^T.
//   flat:   N = normalMatrix * (p1 - p0) x (p2 - p0), the same at every
//           pixel: K's last column, the others zero.
// The setup passes store K at the triangle's primitive id for each
// triangle they set up (SHADE_RECORDS 1), as three vec4 (K's columns, w
// unused); where no records are kept (a mesh too large for them, or
// Renderer.Resolve of words another renderer drew), shade.glsl computes K
// per pixel from the same vertices by the same operations: the same bits
// either way (precise: no operation fused or reordered).
// SHADE_RECORD_STORE 1 declares storeShadeRecord for a setup pass, which
// defines TEXELS (1: the normals as a buffer texture).

#include "rasterizer/transform.glsl"

// shadeRecordOf is K for the triangle of clip-space vertices t_i =
// transformPoint(mvp, p_i) and vertex normals n_i, under normal matrix nm,
// with face normals (flat shading) or interpolated ones.
mat3 shadeRecordOf(vec4 t0, vec4 t1, vec4 t2, vec3 p0, vec3 p1, vec3 p2, vec3 n0, vec3 n1, vec3 n2, mat3 nm, bool faceNormals) {
    precise vec3 c0 = t0.xyw, c1 = t1.xyw, c2 = t2.xyw;
    precise vec3 r0 = cross(c1, c2), r1 = cross(c2, c0), r2 = cross(c0, c1);
    precise vec3 m0 = nm * n0, m1 = nm * n1, m2 = nm * n2;
    precise mat3 interpolated = outerProduct(m0, r0) + outerProduct(m1, r1) + outerProduct(m2, r2);
    // The edges scaled by their largest component first: the cross
    // product of edges past 1e19 would overflow.
    precise vec3 e1 = p1 - p0, e2 = p2 - p0;
    float m = max(max(abs(e1.x), max(abs(e1.y), abs(e1.z))), max(abs(e2.x), max(abs(e2.y), abs(e2.z))));
    precise vec3 face = nm * (m > 0.0 ? cross(e1 / m, e2 / m) : vec3(0.0));
    return faceNormals ? mat3(vec3(0.0), vec3(0.0), face) : interpolated;
}

#if defined(SHADE_RECORD_STORE) && SHADE_RECORD_STORE
layout(std430, binding = BINDING_SHADE_RECORDS) writeonly restrict buffer ShadeRecords { vec4 shadeRecords[]; };
#if TEXELS
layout(binding = UNIT_NORMALS) uniform samplerBuffer nrmTexels;
vec3 normalAt(uint i) { return texelFetch(nrmTexels, int(i)).xyz; }
#else
layout(std430, binding = BINDING_NORMALS) readonly restrict buffer Normals { vec4 nrm[]; }; // xyz, w unused
vec3 normalAt(uint i) { return nrm[i].xyz; }
#endif
uniform mat4 normalMatrix; // inverse transpose of the view matrix (upper 3x3 used)
uniform int flatShading;   // 1: face normals, 0: interpolated vertex normals

// storeShadeRecord stores the record of the triangle of primitive id id,
// whose vertices v, v + 1 and v + 2 lie at p0, p1 and p2 and which the
// caller transformed into t0, t1 and t2.
void storeShadeRecord(uint id, vec3 p0, vec3 p1, vec3 p2, vec4 t0, vec4 t1, vec4 t2, uint v) {
    mat3 k = shadeRecordOf(t0, t1, t2, p0, p1, p2, normalAt(v), normalAt(v + 1u), normalAt(v + 2u), mat3(normalMatrix), flatShading != 0);
    shadeRecords[3u * id] = vec4(k[0], 0.0);
    shadeRecords[3u * id + 1u] = vec4(k[1], 0.0);
    shadeRecords[3u * id + 2u] = vec4(k[2], 0.0);
}
#endif
