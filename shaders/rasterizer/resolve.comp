#version 450
// Resolve: shade each pixel from the triangle that won its depth test (the
// visibility buffer), Lambert + Blinn-Phong with a head light, into RGBA8.
// Barycentrics are perspective-correct, from the winning triangle's original
// clip-space vertices (2-D homogeneous rasterization: valid also for
// triangles that reach behind the eye and were clipped). Both faces are lit:
// a normal facing away from the eye is flipped.
// lint: WG_SIZE=64
#ifndef WG_SIZE
#define WG_SIZE 64
#endif

layout(local_size_x = 8, local_size_y = WG_SIZE / 8) in;

layout(std430, binding = 0) readonly restrict buffer Positions { vec4 pos[]; };
layout(std430, binding = 1) readonly restrict buffer Normals { vec4 nrm[]; };
layout(std430, binding = 2) readonly restrict buffer Prims { uint prims[]; };
layout(std430, binding = 3) writeonly restrict buffer Image { uint rgba[]; };

uniform mat4 mvp;
uniform mat4 modelView;
uniform mat4 normalMatrix;  // inverse transpose of modelView (upper 3x3 used)
uniform ivec2 size;
uniform vec4 baseColor;     // rgb, a unused
uniform vec4 background;    // rgba
uniform vec4 material;      // ambient, diffuse, specular, shininess

const uint NO_PRIMITIVE = 0xffffffffu;

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= size.x || p.y >= size.y) return;
    uint i = uint(p.y * size.x + p.x);
    uint prim = prims[i];
    if (prim == NO_PRIMITIVE) {
        rgba[i] = packUnorm4x8(background);
        return;
    }
    vec3 c0 = (mvp * vec4(pos[3u * prim].xyz, 1.0)).xyw;
    vec3 c1 = (mvp * vec4(pos[3u * prim + 1u].xyz, 1.0)).xyw;
    vec3 c2 = (mvp * vec4(pos[3u * prim + 2u].xyz, 1.0)).xyw;
    // The pixel centre in normalized device coordinates, as (x, y, 1).
    vec3 q = vec3((vec2(p) + 0.5) / vec2(size) * 2.0 - 1.0, 1.0);
    // b_i is proportional to the 2-D homogeneous edge function of the edge
    // opposite vertex i evaluated at q.
    vec3 b = vec3(dot(cross(c1, c2), q), dot(cross(c2, c0), q), dot(cross(c0, c1), q));
    float sum = b.x + b.y + b.z;
    b = (abs(sum) > 0.0) ? b / sum : vec3(1.0 / 3.0);
    vec3 n = b.x * nrm[3u * prim].xyz + b.y * nrm[3u * prim + 1u].xyz + b.z * nrm[3u * prim + 2u].xyz;
    vec3 P = b.x * pos[3u * prim].xyz + b.y * pos[3u * prim + 1u].xyz + b.z * pos[3u * prim + 2u].xyz;
    vec3 N = mat3(normalMatrix) * n;
    float len = length(N);
    N = len > 0.0 ? N / len : vec3(0.0, 0.0, 1.0);
    vec3 V = -(modelView * vec4(P, 1.0)).xyz;
    float vl = length(V);
    V = vl > 0.0 ? V / vl : vec3(0.0, 0.0, 1.0);
    if (dot(N, V) < 0.0) N = -N;
    // Head light: the light sits at the eye, so L = V and the half vector is V.
    float diff = max(dot(N, V), 0.0);
    float spec = pow(diff, material.w);
    vec3 col = baseColor.rgb * (material.x + material.y * diff) + vec3(material.z * spec);
    rgba[i] = packUnorm4x8(vec4(clamp(col, 0.0, 1.0), 1.0));
}
