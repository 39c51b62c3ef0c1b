#version 450
// gl_PrimitiveID counts from 0 in each draw: a mesh of several blocks is
// drawn one block a draw, primBase the block's first primitive id.
layout(location = 0) out uint prim;
uniform uint primBase;
void main() {
    prim = primBase + uint(gl_PrimitiveID);
}
