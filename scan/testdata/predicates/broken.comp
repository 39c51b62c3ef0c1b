#version 450
#include "scan/select.glsl"

bool scanPredicate(uint x, uint i) {
    return x > nothing;
}
