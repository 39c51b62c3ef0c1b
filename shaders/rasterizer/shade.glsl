// Shading of a pixel from the triangle that won its depth test, Lambert +
// Blinn-Phong with a head light, into RGBA8: resolve.comp's for every
// visibility path, tile.comp's (SHADE 1) where the tiled path shades as it
// draws; one copy, so that both paint the same bits. Needs layout.glsl.
// The normal comes from the triangle's shading record (shaderecord.glsl):
// read (SHADE_RECORDS 1, stored by the setup passes) or computed here from
// the vertices and normals (0), the same bits either way. Both faces are
// lit: a normal facing away from the eye is flipped. Go side:
// rasterizer.setShading (and, with SHADE_TEXELS, the stages that bind the
// buffer textures).

#ifndef SHADE_RECORDS
#define SHADE_RECORDS 0
#endif
#include "rasterizer/shaderecord.glsl"
#ifndef SHADE_TEXELS
#define SHADE_TEXELS 0
#endif
#if SHADE_TEXELS
// The same words as buffer textures (gpu.TexelBuffer; tile.comp's): llvmpipe
// fetches a texel for a SIMD vector's lanes with one gather, where a storage
// block's load with lanes' own addresses is a scalar access per lane and
// word, and a pixel's shading reads 18 words (the zoomed views' tiles: 7-8%
// less CPU a frame under load).
layout(binding = UNIT_POSITIONS) uniform samplerBuffer posTexels;
layout(binding = UNIT_NORMALS) uniform samplerBuffer nrmTexels;
vec3 vertexPosition(uint i) { return texelFetch(posTexels, int(i)).xyz; }
vec3 vertexNormal(uint i) { return texelFetch(nrmTexels, int(i)).xyz; }
#else
layout(std430, binding = BINDING_POSITIONS) readonly restrict buffer Positions { vec4 pos[]; };
layout(std430, binding = BINDING_NORMALS) readonly restrict buffer Normals { vec4 nrm[]; };
vec3 vertexPosition(uint i) { return pos[i].xyz; }
vec3 vertexNormal(uint i) { return nrm[i].xyz; }
#endif

uniform mat4 mvp;
uniform mat4 normalMatrix;  // inverse transpose of the view matrix (upper 3x3 used)
// mat3(eyeRay) * (x, y, 1) is, for the pixel centre at (x, y) in normalized
// device coordinates, a point of eye space on its ray, which runs through
// the eye at the origin (a perspective projection): the inverse
// projection's columns 0, 1 and 3 (the point at depth 0). Unused when
// orthographic.
uniform mat4 eyeRay; // the upper 3x3 used
uniform vec4 baseColor;     // rgb, a unused
uniform vec4 background;    // rgba
uniform vec4 material;      // ambient, diffuse, specular, shininess
uniform int flatShading;    // 1: face normals, 0: interpolated vertex normals
uniform int orthographic;   // 1: the eye is at infinity, looking down -z

#if SHADE_RECORDS
#if SHADE_TEXELS
layout(binding = UNIT_SHADE_RECORDS) uniform samplerBuffer recordTexels;
vec3 recordColumn(uint i) { return texelFetch(recordTexels, int(i)).xyz; }
#else
layout(std430, binding = BINDING_SHADE_RECORDS) readonly restrict buffer ShadeRecords { vec4 shadeRecords[]; };
vec3 recordColumn(uint i) { return shadeRecords[i].xyz; }
#endif
// shadeRecord is K of the triangle of primitive id id (the bound block's
// triangle prim).
mat3 shadeRecord(uint prim, uint id) {
    return mat3(recordColumn(3u * id), recordColumn(3u * id + 1u), recordColumn(3u * id + 2u));
}
#else
mat3 shadeRecord(uint prim, uint id) {
    vec3 p0 = vertexPosition(3u * prim), p1 = vertexPosition(3u * prim + 1u), p2 = vertexPosition(3u * prim + 2u);
    return shadeRecordOf(transformPoint(mvp, p0), transformPoint(mvp, p1), transformPoint(mvp, p2), p0, p1, p2,
                         vertexNormal(3u * prim), vertexNormal(3u * prim + 1u), vertexNormal(3u * prim + 2u), mat3(normalMatrix), flatShading != 0);
}
#endif

// scaledOr is v scaled by the reciprocal of its largest component's
// magnitude, so that its length lies in [1, sqrt(3)] (no square overflows
// or underflows, whatever v's size), or fallback for a zero, infinite or
// NaN vector.
vec3 scaledOr(vec3 v, vec3 fallback) {
    float m = max(abs(v.x), max(abs(v.y), abs(v.z)));
    bool ok = m > 0.0 && !isinf(m);
    return ok ? v * (1.0 / m) : fallback;
}

// shadePixel is pixel p's colour (packed RGBA8) of an image size pixels
// large, lit from triangle prim of the bound block, of primitive id id.
// Only the directions of the normal N and of the view vector V matter, and
// of those only |N . V| (a normal facing away from the eye is flipped), so
// neither needs its sign or its length: N is the record's K times the
// pixel, V its ray (eyeRay), the same for every triangle: the eye-space
// point the barycentrics pick on the triangle lies on that ray.
uint shadePixel(uint prim, uint id, ivec2 p, ivec2 size) {
    // The pixel centre in normalized device coordinates, as (x, y, 1).
    vec3 q = vec3((vec2(p) + 0.5) / vec2(size) * 2.0 - 1.0, 1.0);
    vec3 N = scaledOr(shadeRecord(prim, id) * q, vec3(0.0, 0.0, 1.0));
    // Toward the eye: along the pixel's ray under perspective; along the
    // parallel viewing rays under an orthographic projection, whose eye is
    // at infinity (a flat face then takes one shade).
    vec3 V = orthographic != 0 ? vec3(0.0, 0.0, 1.0) : scaledOr(mat3(eyeRay) * q, vec3(0.0, 0.0, 1.0));
    // Head light: the light sits at the eye, so L = V and the half vector is V.
    float diff = min(abs(dot(N, V)) * inversesqrt(dot(N, N) * dot(V, V)), 1.0);
    float spec = pow(diff, material.w);
    vec3 col = baseColor.rgb * (material.x + material.y * diff) + vec3(material.z * spec);
    return packUnorm4x8(vec4(clamp(col, 0.0, 1.0), 1.0));
}
