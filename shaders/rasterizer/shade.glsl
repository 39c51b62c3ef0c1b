// Shading of a pixel from the triangle that won its depth test, Lambert +
// Blinn-Phong with a head light, into RGBA8: resolve.comp's for every
// visibility path, tile.comp's (SHADE 1) where the tiled path shades as it
// draws; one copy, so that both paint the same bits. Needs layout.glsl.
// Barycentrics are perspective-correct, from the winning triangle's original
// clip-space vertices (2-D homogeneous rasterization: valid also for
// triangles that reach behind the eye and were clipped). Both faces are lit:
// a normal facing away from the eye is flipped. The normal is the vertex
// normals interpolated, or with flatShading the face normal
// (p1-p0)x(p2-p0). Go side: rasterizer.setShading (and, with SHADE_TEXELS,
// tiledStage.bindTexels).

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
uniform mat4 modelView;
uniform mat4 normalMatrix;  // inverse transpose of modelView (upper 3x3 used)
uniform vec4 baseColor;     // rgb, a unused
uniform vec4 background;    // rgba
uniform vec4 material;      // ambient, diffuse, specular, shininess
uniform int flatShading;    // 1: face normals, 0: interpolated vertex normals
uniform int orthographic;   // 1: the eye is at infinity, looking down -z

// unitOr is v/|v|, or fallback for a zero vector. v is first scaled by its
// largest component, so that coordinates past 1e19 do not overflow the
// squares in length() (nor tiny ones underflow).
vec3 unitOr(vec3 v, vec3 fallback) {
    float m = max(abs(v.x), max(abs(v.y), abs(v.z)));
    if (!(m > 0.0) || isinf(m)) {
        return fallback;
    }
    vec3 u = v / m;
    return u / length(u);
}

// shadePixel is pixel p's colour (packed RGBA8) of an image size pixels
// large, lit from triangle prim of the bound positions and normals.
uint shadePixel(uint prim, ivec2 p, ivec2 size) {
    vec3 p0 = vertexPosition(3u * prim), p1 = vertexPosition(3u * prim + 1u), p2 = vertexPosition(3u * prim + 2u);
    vec3 c0 = (mvp * vec4(p0, 1.0)).xyw;
    vec3 c1 = (mvp * vec4(p1, 1.0)).xyw;
    vec3 c2 = (mvp * vec4(p2, 1.0)).xyw;
    // The pixel centre in normalized device coordinates, as (x, y, 1).
    vec3 q = vec3((vec2(p) + 0.5) / vec2(size) * 2.0 - 1.0, 1.0);
    // b_i is proportional to the 2-D homogeneous edge function of the edge
    // opposite vertex i evaluated at q.
    vec3 b = vec3(dot(cross(c1, c2), q), dot(cross(c2, c0), q), dot(cross(c0, c1), q));
    float sum = b.x + b.y + b.z;
    b = (abs(sum) > 0.0) ? b / sum : vec3(1.0 / 3.0);
    vec3 n;
    if (flatShading != 0) {
        // Edges scaled by their largest component first: the cross
        // product of edges past 1e19 would overflow.
        vec3 e1 = p1 - p0, e2 = p2 - p0;
        float m = max(max(abs(e1.x), max(abs(e1.y), abs(e1.z))), max(abs(e2.x), max(abs(e2.y), abs(e2.z))));
        n = m > 0.0 ? cross(e1 / m, e2 / m) : vec3(0.0);
    } else {
        n = b.x * vertexNormal(3u * prim) + b.y * vertexNormal(3u * prim + 1u) + b.z * vertexNormal(3u * prim + 2u);
    }
    vec3 P = b.x * p0 + b.y * p1 + b.z * p2;
    vec3 N = unitOr(mat3(normalMatrix) * n, vec3(0.0, 0.0, 1.0));
    // Toward the eye: from the point under perspective; along the parallel
    // viewing rays under an orthographic projection, whose eye is at
    // infinity (a flat face then takes one shade).
    vec3 V = orthographic != 0 ? vec3(0.0, 0.0, 1.0) : unitOr(-(modelView * vec4(P, 1.0)).xyz, vec3(0.0, 0.0, 1.0));
    if (dot(N, V) < 0.0) N = -N;
    // Head light: the light sits at the eye, so L = V and the half vector is V.
    float diff = max(dot(N, V), 0.0);
    float spec = pow(diff, material.w);
    vec3 col = baseColor.rgb * (material.x + material.y * diff) + vec3(material.z * spec);
    return packUnorm4x8(vec4(clamp(col, 0.0, 1.0), 1.0));
}
