#version 430
// The loop-limit probe behind gpu.Caps.LoopLimit: one invocation counts the
// iterations of a loop of n. Mesa's llvmpipe silently ends an invocation's
// loops after 65535 iterations in all (its guard against hangs); GPUs, and
// lavapipe under zink, run all n. The hash keeps the loop from being folded
// into its trip count.
layout(local_size_x = 1) in;

layout(std430, binding = 0) buffer Probe {
    uint count;
    uint hash;
};

uniform uint n;

void main() {
    uint c = 0u;
    uint h = 2166136261u;
    for (uint i = 0u; i < n; i++) {
        h = (h ^ i) * 16777619u;
        c++;
    }
    count = c;
    hash = h;
}
