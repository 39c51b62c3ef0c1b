#version 450
layout(local_size_x = 1) in;
#include "include/common.glsl"
#include "mine/broken.glsl"

void main() {
    broken();
}
