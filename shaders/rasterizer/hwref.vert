#version 450
// The GPU's own pipeline as a reference renderer: the same triangle soup and
// camera, each fragment writing its primitive id (the triangle's index, as
// gl_PrimitiveID numbers them in one draw).
#include "rasterizer/layout.glsl"
layout(std430, binding = BINDING_POSITIONS) readonly restrict buffer Positions { vec4 pos[]; };
uniform mat4 mvp;
void main() {
    gl_Position = mvp * vec4(pos[gl_VertexID].xyz, 1.0);
}
