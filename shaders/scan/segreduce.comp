#version 450
// segreduce: dst[j] = init op src[b] op ... op src[e-1] for each segment
// [b, e) = [offsets[j], offsets[j+1]) of src (TYPE and OP of elem.glsl),
// j < segments, offsets clamped to n. In two passes around a segmented
// inclusive scan of the chunks' carries:
//   PASS 0 (one invocation per chunk of CHUNK = 4*ITEMS consecutive
//          elements): walks its elements once, folding them into the
//          current segment's value in a register. A segment that starts
//          and ends in the chunk gets its dst here. Per chunk c it writes
//          carry[c], the value of the segment still open at the chunk's
//          end, with flag[c] = 1 where that segment starts in the chunk
//          (the scan's head), and for c >= 1 head[c-1] = the segment that
//          started before the chunk and ends in it (NONE if none), with
//          part[c-1] its value over the chunk's elements.
//   PASS 1 (one invocation per chunk and per segment): the segment j that
//          chunk c ends gets init op scanned[c-1] op part[c-1], scanned
//          the carries' segmented inclusive scan (its elements of the
//          chunks before); an empty segment (or one whose offsets
//          decrease) gets init.
// The walk holds the element's segment q and the offset after it; an
// element loads offsets only where it crosses into another segment, and a
// vector of four inside one segment skips the test per element.
//
// Segments are numbered as virtual ones q = j + 1 over all of [0, n): q = 0
// holds the elements before offsets[0], q = segments + 1 those at and past
// offsets[segments]; neither has a dst. lbs.glsl searches them, with
// B(q) = 0 for q = 0 and min(offsets[q-1], n) after.
//
// lint: PASS=0
// lint: PASS=0 TYPE=2 OP=0 WG_SIZE=64 ITEMS=4
// lint: PASS=1 TYPE=2 OP=2

#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef PASS
#define PASS 0
#endif
#ifndef ITEMS
#define ITEMS 16
#endif
#define CHUNK (4 * ITEMS)

layout(local_size_x = WG_SIZE) in;
#include "include/common.glsl"
#include "elem.glsl"

uniform uint segments; // dst's length; offsets has segments + 1
uniform uint n;        // src's length
uniform uint chunks;   // ceil(n / CHUNK)
uniform uint initBits;

layout(std430, binding = 0) readonly buffer Offsets { uint offsets[]; };
layout(std430, binding = 1) readonly buffer SrcVec { uvec4 src4[]; };
layout(std430, binding = 2) readonly buffer SrcOne { uint src1[]; };
layout(std430, binding = 3) writeonly buffer Dst { uint dst[]; };
// carry (the segmented scan's input in PASS 0, its output in PASS 1) and
// flag: chunks words each; heads: head at [0, chunks-1), part after it.
layout(std430, binding = 4) buffer Carry { uint carry[]; };
layout(std430, binding = 5) writeonly buffer Flag { uint flag[]; };
layout(std430, binding = 6) buffer Heads { uint heads[]; };

#define NONE 0xFFFFFFFFu

// bound is offsets[j] clamped to n.
uint bound(uint j) {
    return min(offsets[j], n);
}

#define LBS_OFFSET(q) ((q) == 0u ? 0u : bound((q) - 1u))
#define LBS_SEGMENTS (segments + 2u)
#define LBS_END 0xFFFFFFFFu
#include "include/lbs.glsl"

#if PASS == 0
// The virtual segments of the group's elements lie in groupLo ..
// groupHi-1.
shared uint groupLo, groupHi;

T init;
uint c;          // the chunk
uint a;          // its first element
uint q, next;    // the current element's virtual segment and B(q + 1)
bool here;       // q starts in the chunk: B(q) >= a
T acc;           // op of q's elements in the chunk so far
uint headSeg;    // head[c-1] and part[c-1]
T headPart;

// close ends the current segment q before element g: its value goes to
// dst when it started in the chunk, else it is the chunk's head part.
void close() {
    if (q - 1u < segments) { // q in 1 .. segments: a real segment
        if (here) {
            dst[q - 1u] = toBits(op(init, acc));
        } else {
            headSeg = q - 1u;
            headPart = acc;
        }
    }
}

// cross closes the current segment q, which ends before element g (next
// = B(q+1) <= g; the walk visits every element, so next == g and the
// segments between are empty, for PASS 1), and moves to the last virtual
// segment with B <= g: it probes q+2, q+3, q+5, ... (one probe where the
// next segment is nonempty), then searches the last stride.
void cross(uint g) {
    close();
    uint lo = q + 1u, hi = lo + 1u, stride = 1u;
    uint b = lbsOffset(hi);
    while (b <= g) {
        lo = hi;
        stride *= 2u;
        hi = min(lo + stride, LBS_SEGMENTS); // B(LBS_SEGMENTS) = LBS_END
        b = lbsOffset(hi);
    }
    q = lbsLocate(lo, hi, g);
    next = q + 1u == hi ? b : lbsOffset(q + 1u);
    here = true;
    acc = ident();
}

// fold folds the elements g .. g+3 of x below end into acc, the others as
// the identity (exact: acc is never -0).
void fold(uint g, T4 x, uint end) {
    acc = op(acc, g < end ? x.x : ident());
    acc = op(acc, g + 1u < end ? x.y : ident());
    acc = op(acc, g + 2u < end ? x.z : ident());
    acc = op(acc, g + 3u < end ? x.w : ident());
}

void main() {
    c = dpglGlobalIndex();
    if (gl_LocalInvocationIndex == 0u) {
        uint g0 = dpglGroupIndex() * uint(WG_SIZE * CHUNK);
        uint lo = 0u, hi = LBS_SEGMENTS;
        if (g0 < n) {
            uint g1 = min(g0 + uint(WG_SIZE * CHUNK), n) - 1u; // the group's last element
            // B(lo) <= g0 <= every element of the group, B(hi) > g1.
            lo = lbsLocate(0u, LBS_SEGMENTS, g0);
            hi = lbsLocate(lo, LBS_SEGMENTS, g1) + 1u;
        }
        groupLo = lo;
        groupHi = hi;
    }
    memoryBarrierShared();
    barrier();
    if (c >= chunks) {
        return;
    }
    init = fromBits(initBits);
    a = c * uint(CHUNK);
    uint e = min(a + uint(CHUNK), n);
    q = lbsLocate(groupLo, groupHi, a);
    next = lbsOffset(q + 1u);
    here = LBS_OFFSET(q) >= a;
    acc = ident();
    headSeg = NONE;
    headPart = ident();
    // A vector's elements before the next segment's start fold into acc;
    // where a segment starts inside it (rare: once a segment), the
    // elements before are folded with the others masked, and the walk
    // crosses. The last, partial vector reads scalars (the others
    // masked to the identity).
    for (uint g = a; g < e; g += 4u) {
        T4 x;
        if (g + 4u <= n) {
            uvec4 v = src4[g / 4u];
            x = T4(fromBits(v.x), fromBits(v.y), fromBits(v.z), fromBits(v.w));
        } else {
            x = T4(ident());
            for (uint k = 0u; g + k < n; k++) {
                x[k] = fromBits(src1[g + k]);
            }
        }
        uint lo = g;
        while (next < g + 4u) {
            // Elements lo .. next-1 end q; the next one starts at next.
            T4 m;
            m.x = g >= lo ? x.x : ident();
            m.y = g + 1u >= lo ? x.y : ident();
            m.z = g + 2u >= lo ? x.z : ident();
            m.w = g + 3u >= lo ? x.w : ident();
            fold(g, m, next);
            lo = next;
            cross(next);
        }
        T4 m;
        m.x = g >= lo ? x.x : ident();
        m.y = g + 1u >= lo ? x.y : ident();
        m.z = g + 2u >= lo ? x.z : ident();
        m.w = g + 3u >= lo ? x.w : ident();
        fold(g, m, e);
    }
    // A segment that ends with the chunk (next == e) closes here: the
    // next chunk starts in a later one.
    bool ends = next <= e;
    if (ends) {
        close();
    }
    carry[c] = toBits(ends ? ident() : acc);
    flag[c] = ends || here ? 1u : 0u;
    if (c > 0u) {
        heads[c - 1u] = headSeg;
        heads[chunks - 1u + c - 1u] = toBits(headPart);
    }
}
#else
void main() {
    uint i = dpglGlobalIndex();
    T init = fromBits(initBits);
    if (i >= 1u && i < chunks) {
        uint j = heads[i - 1u];
        if (j != NONE) {
            T part = fromBits(heads[chunks - 1u + i - 1u]);
            dst[j] = toBits(op(op(init, fromBits(carry[i - 1u])), part));
        }
    }
    if (i < segments && bound(i) >= bound(i + 1u)) {
        dst[i] = toBits(init);
    }
}
#endif
