#version 450
// The scan package's small-input path (scan/small.go): a scan of up to
// SmallMax u32 words by one work group in one dispatch:
//   COMPACT 0: dst is the exclusive add-scan of the n words of src;
//   COMPACT 1: dst lists the indices of src's nonzero words in order (the
//              tiled setup's culling marks), and count[0] is their number.
// Invocation k takes a run of consecutive quads (four words), sums them
// (or counts their nonzero words), and after one barrier walks them again
// from the sum of the runs before its own. Where a dispatch costs more
// than one thread takes to scan some 10^5 words (a CPU driver), this beats
// reduce-then-scan's three dispatches (scan/TUNING.md).
// dst may be src (the renderer scans its setup counts in place): each quad is
// read and then written by its own invocation only, and every invocation
// has read its run (for its sum) before any writes (the barrier).
// lint: WG_SIZE=64
// lint: TEXELS=1
// lint: COMPACT=1
// lint: COMPACT=1 TEXELS=1
#ifndef WG_SIZE
#define WG_SIZE 64
#endif
#ifndef TEXELS
#define TEXELS 0 // 1: the whole quads of src read as a buffer texture
#endif
#ifndef COMPACT
#define COMPACT 0
#endif

layout(local_size_x = WG_SIZE) in;

// Bindings within the scan kernels' own (modes.glsl's
// SCAN_FIRST_FREE_BINDING), and texture unit 0, as histogram.comp's.
#define BINDING_SMALL_SRC 0
#define BINDING_SMALL_DST 1
#define BINDING_SMALL_COUNT 2
#define UNIT_SMALL_SRC 0

// Not restrict: dst may be src.
layout(std430, binding = BINDING_SMALL_SRC) readonly buffer Src { uint src[]; };
#if TEXELS
// llvmpipe gathers a texel for a SIMD vector's lanes at once, where a
// storage block's load is a scalar access per lane.
layout(binding = UNIT_SMALL_SRC) uniform usamplerBuffer srcTexels;
uvec4 srcQuad(uint q) { return texelFetch(srcTexels, int(q)); }
#else
layout(std430, binding = BINDING_SMALL_SRC) readonly buffer Src4 { uvec4 src4[]; };
uvec4 srcQuad(uint q) { return src4[q]; }
#endif
layout(std430, binding = BINDING_SMALL_DST) writeonly buffer Dst { uint dst[]; };
#if COMPACT
layout(std430, binding = BINDING_SMALL_COUNT) writeonly restrict buffer Count { uint count[]; };
#else
layout(std430, binding = BINDING_SMALL_DST) writeonly buffer Dst4 { uvec4 dst4[]; };
#endif

uniform uint n;         // words
uniform uint quadsEach; // each invocation's run: ceil(floor(n / 4) / WG_SIZE) whole quads

shared uint sRun[WG_SIZE];

// weight is what a word adds to the running sum: itself, or 1 if it is a
// nonzero mark.
#if COMPACT
uvec4 weight(uvec4 v) { return uvec4(notEqual(v, uvec4(0u))); }
#else
uvec4 weight(uvec4 v) { return v; }
#endif

void main() {
    uint k = gl_LocalInvocationID.x;
    // Whole quads in the runs, with no branch in their loops (llvmpipe
    // runs a branch's code, and a loop's body once, whether any lane
    // takes it or not); the last invocation also takes the words past
    // the last whole quad.
    uint quads = n / 4u;
    uint q0 = min(k * quadsEach, quads), q1 = min(q0 + quadsEach, quads);
    bool last = k == uint(WG_SIZE) - 1u;
    uint i0 = 4u * quads; // the words past the whole quads: up to three
    uvec4 tail = uvec4(0u);
    if (last) {
        for (uint e = 0u; e < 3u && i0 + e < n; e++) {
            tail[e] = src[i0 + e];
        }
    }
    uint sum = 0u;
    for (uint q = q0; q < q1; q++) {
        uvec4 v = weight(srcQuad(q));
        sum += (v.x + v.y) + (v.z + v.w);
    }
    uvec4 tw = weight(tail);
    sum += last ? (tw.x + tw.y) + (tw.z + tw.w) : 0u;
    sRun[k] = sum;
    barrier();
    uint run = 0u;
    for (uint j = 0u; j < k; j++) {
        run += sRun[j];
    }
    for (uint q = q0; q < q1; q++) {
        uvec4 v = weight(srcQuad(q));
        uint a = run + v.x, b = a + v.y, c = b + v.z;
#if COMPACT
        uint i = 4u * q;
        if (v.x != 0u) dst[run] = i;
        if (v.y != 0u) dst[a] = i + 1u;
        if (v.z != 0u) dst[b] = i + 2u;
        if (v.w != 0u) dst[c] = i + 3u;
#else
        dst4[q] = uvec4(run, a, b, c);
#endif
        run = c + v.w;
    }
    if (last) {
        // The tail was read before any word was written: in place, a
        // store that does not depend on a load may move before it.
        uvec3 o = uvec3(run, run + tw.x, run + tw.x + tw.y);
        for (uint e = 0u; e < 3u && i0 + e < n; e++) {
#if COMPACT
            if (tw[e] != 0u) dst[o[e]] = i0 + e;
#else
            dst[i0 + e] = o[e];
#endif
        }
#if COMPACT
        count[0] = o.z + tw.z;
#endif
    }
}
