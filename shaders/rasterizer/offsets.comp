#version 450
// The renderer's offsets on a CPU driver: the exclusive add-scan of n
// uint32 words by one work group in one dispatch (rasterizer/offsets.go).
// Invocation k takes a run of consecutive quads (four words), sums them,
// and after one barrier scans them again from the sum of the runs before
// its own. On llvmpipe a dispatch costs about 0.1 ms whatever it does,
// more than one thread takes to scan the renderer's arrays of some 10^5
// words; the scan package's reduce-then-scan takes three dispatches there.
// dst may be src (the setup's counts are scanned in place): each quad is
// read and then written by its own invocation only, and every invocation
// has read its run (for its sum) before any writes (the barrier).
// lint: WG_SIZE=64
// lint: TEXELS=1
#ifndef WG_SIZE
#define WG_SIZE 64
#endif
#ifndef TEXELS
#define TEXELS 0 // 1: the whole quads of src read as a buffer texture
#endif

layout(local_size_x = WG_SIZE) in;

#include "rasterizer/layout.glsl"

// Not restrict: dst may be src.
layout(std430, binding = BINDING_OFFSETS_SRC) readonly buffer Src { uint src[]; };
#if TEXELS
// llvmpipe gathers a texel for a SIMD vector's lanes at once, where a
// storage block's load is a scalar access per lane.
layout(binding = UNIT_OFFSETS_SRC) uniform usamplerBuffer srcTexels;
uvec4 srcQuad(uint q) { return texelFetch(srcTexels, int(q)); }
#else
layout(std430, binding = BINDING_OFFSETS_SRC) readonly buffer Src4 { uvec4 src4[]; };
uvec4 srcQuad(uint q) { return src4[q]; }
#endif
layout(std430, binding = BINDING_OFFSETS_DST) writeonly buffer Dst { uint dst[]; };
layout(std430, binding = BINDING_OFFSETS_DST) writeonly buffer Dst4 { uvec4 dst4[]; };

uniform uint n;         // words
uniform uint quadsEach; // each invocation's run: ceil(floor(n / 4) / WG_SIZE) whole quads

shared uint sRun[WG_SIZE];

void main() {
    uint k = gl_LocalInvocationID.x;
    // Whole quads in the runs, with no branch in their loops (llvmpipe
    // runs a branch's code, and a loop's body once, whether any lane
    // takes it or not); the last invocation also takes the words past
    // the last whole quad.
    uint quads = n / 4u;
    uint q0 = min(k * quadsEach, quads), q1 = min(q0 + quadsEach, quads);
    bool last = k == uint(WG_SIZE) - 1u;
    uint sum = 0u;
    for (uint q = q0; q < q1; q++) {
        uvec4 v = srcQuad(q);
        sum += (v.x + v.y) + (v.z + v.w);
    }
    if (last) {
        for (uint i = 4u * quads; i < n; i++) {
            sum += src[i];
        }
    }
    sRun[k] = sum;
    barrier();
    uint run = 0u;
    for (uint j = 0u; j < k; j++) {
        run += sRun[j];
    }
    for (uint q = q0; q < q1; q++) {
        uvec4 v = srcQuad(q);
        uint a = run + v.x, b = a + v.y, c = b + v.z;
        dst4[q] = uvec4(run, a, b, c);
        run = c + v.w;
    }
    if (last) {
        // The (up to three) words read before any is written: in place,
        // a store that does not depend on a load may be moved before it.
        uint i0 = 4u * quads;
        uvec3 v = uvec3(0u);
        for (uint e = 0u; e < 3u && i0 + e < n; e++) {
            v[e] = src[i0 + e];
        }
        uvec3 o = uvec3(run, run + v.x, run + v.x + v.y);
        for (uint e = 0u; e < 3u && i0 + e < n; e++) {
            dst[i0 + e] = o[e];
        }
    }
}
