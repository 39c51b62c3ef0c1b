#version 450
// Keeps the odd elements (uint32 or int32: built with the Go type's GLSL
// type as PRED_TYPE, so the parameter's type follows it).
#include "scan/select.glsl"

bool scanPredicate(PRED_T x, uint i) {
    return (x & 1) != 0;
}
