#version 450
// Records of three words: std430 gives the array a stride of 12 bytes.
layout(local_size_x = 64) in;
#include "include/common.glsl"

struct Record { uint a, b, c; };
layout(std430, binding = 0) readonly buffer Records { Record records[]; };
layout(std430, binding = 1) writeonly buffer Sums { uint sums[]; };
uniform uint n;
uniform uint unusedScale; // declared, optimized away

void main() {
    uint i = dpglGlobalIndex();
    if (i >= n) {
        return;
    }
    sums[i] = records[i].a + records[i].b + records[i].c;
}
