#version 450
// A predicate of the user's own for scan.SelectIfKernel and
// PartitionIfKernel on float32 elements: x lies in [lo, hi) and the table
// (a buffer of the caller's) allows x's index modulo its length.
#include "scan/select.glsl"

uniform float lo;
uniform float hi;
layout(std430, binding = SCAN_FIRST_FREE_BINDING) readonly buffer Allowed { uint allowed[]; };

bool scanPredicate(float x, uint i) {
    return x >= lo && x < hi && allowed[i % uint(allowed.length())] != 0u;
}
