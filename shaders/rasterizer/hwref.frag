#version 450
layout(location = 0) out uint prim;
void main() {
    prim = uint(gl_PrimitiveID);
}
