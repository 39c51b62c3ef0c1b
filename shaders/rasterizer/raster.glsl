// The renderer's exact rules: a line-for-line mirror of package
// rasterizer/raster (fixed.go, clip.go). Read that package's doc for the
// coordinate conventions, the fill rule and the depth formula; any
// change here must be made there too, and the tests compare the two bit for
// bit. Needs GL_ARB_gpu_shader_int64, enabled by the including kernel.

const int SUBPIXEL = 256;         // raster.One: 1/256 pixel
const uint DEPTH_MAX = 16777215u; // raster.DepthMax: 24-bit depth, also "empty"
const uint NO_PRIMITIVE = 0xffffffffu;
const int GUARD_PIXELS = 8192;    // raster.GuardPixels

// Tri is a set-up triangle (raster.Triangle), 64 bytes. Go mirror:
// rasterizer.gpuTri.
struct Tri {
    ivec4 v01;   // x0, y0, x1, y1 (1/256 pixel), counter-clockwise
    ivec4 v2a;   // x2, y2, area2 low word, area2 high word
    uvec4 z;     // z0, z1, z2 (24-bit depth), primitive id
    ivec4 rows;  // yLo, yHi, flipped (1 if the input was clockwise), unused
};

int64_t triArea2(Tri t) { return packInt2x32(ivec2(t.v2a.z, t.v2a.w)); }

// int64 comparisons go through the sign of the high word: Mesa 22's
// compiler folds a comparison of int64_t(some int) with a constant wrongly
// (int64_t(-90) < 0 is false on llvmpipe), and crashes on the int64 forms of
// min, max and clamp. All our values are far from overflow, so a - b never
// wraps.
bool neg64(int64_t a) { return unpackInt2x32(a).y < 0; }
bool lt64(int64_t a, int64_t b) { return neg64(a - b); }
int64_t min64(int64_t a, int64_t b) { return lt64(a, b) ? a : b; }
int64_t max64(int64_t a, int64_t b) { return lt64(b, a) ? a : b; }

// floorDiv and ceilDiv divide by b > 0 with non-negative operands only:
// GLSL leaves integer division of negative numbers undefined.
int64_t floorDiv(int64_t a, int64_t b) {
    if (!neg64(a)) return a / b;
    return -((-a + b - int64_t(1)) / b);
}
int64_t ceilDiv(int64_t a, int64_t b) {
    if (!neg64(a)) return (a + b - int64_t(1)) / b;
    return -((-a) / b);
}

// i64Double is v as a double, exact for |v| < 2^53 and rounded beyond
// (llvmpipe converts 32-bit words a vector at a time, 64-bit integers a
// lane at a time).
double i64Double(int64_t v) {
    ivec2 w = unpackInt2x32(v);
    return double(w.y) * 4294967296.0 + double(uint(w.x));
}

// floorDivEst is floorDiv(a, b) for b > 0 and |a / b| < 2^50: a double
// quotient, then corrected in exact integers. a and b rounded to 53 bits
// and the double division put the estimate within |a / b| * 2^-51 of the
// true quotient, under one half, so one step either way corrects its floor.
// llvmpipe divides 64-bit integers one lane at a time, doubles a vector at
// a time, and runs both of floorDiv's branches for a vector whose lanes'
// signs differ.
int64_t floorDivEst(int64_t a, int64_t b) {
    int64_t q = int64_t(floor(i64Double(a) / i64Double(b)));
    int64_t r = a - q * b;
    if (neg64(r)) return q - int64_t(1);
    if (!lt64(r, b)) return q + int64_t(1);
    return q;
}

// floorDivRecip is floor(n / a) for integers n and a > 0 held in doubles
// (so exactly) with |n| + a < 2^53 and |n / a| < 2^50, given inv = 1 / a
// rounded: the estimate floor(n * inv) has a relative error of about
// 2^-52, so it lies within one of the quotient, and the remainder n - q * a,
// an integer below 2^53 in magnitude, is exact (a fused multiply-add gives
// the same) and corrects it. A multiplication and a floor where a double
// division or a 64-bit integer product would stand: llvmpipe multiplies
// doubles a vector at a time in a few cycles, and the span's and depth's
// quotients were chains of those long latencies.
double floorDivRecip(double n, double a, double inv) {
    double q = floor(n * inv);
    double r = n - q * a;
    return q + (r < 0.0 ? -1.0 : (r < a ? 0.0 : 1.0));
}

// roundHalfUp is floor(f + 0.5) without the addition float32 would round.
float roundHalfUp(float f) {
    precise float fl = floor(f);
    return (f - fl >= 0.5) ? fl + 1.0 : fl;
}

int snapCoord(float v) {
    precise float s = v * float(SUBPIXEL);
    return int(roundHalfUp(s));
}

uint quantizeDepth(float z) {
    if (!(z > 0.0)) return 0u;
    if (z >= 1.0) return DEPTH_MAX;
    precise float s = z * float(DEPTH_MAX);
    return uint(roundHalfUp(s));
}

// An edge function E(P) = A*Px + B*Py + C of the directed edge a->b with the
// fill rule's bias (-1 unless the edge is left or bottom). sgnA is the sign of
// A, kept in 32 bits (see neg64).
struct Edge { int64_t A, B, C, bias; int sgnA; };

Edge makeEdge(ivec2 a, ivec2 b) {
    int dx32 = b.x - a.x, dy32 = b.y - a.y;
    int64_t dx = int64_t(dx32), dy = int64_t(dy32);
    Edge e;
    e.A = -dy;
    e.B = dx;
    e.C = dy * int64_t(a.x) - dx * int64_t(a.y);
    e.bias = (dy32 < 0 || (dy32 == 0 && dx32 > 0)) ? int64_t(0) : int64_t(-1);
    e.sgnA = -sign(dy32);
    return e;
}

// triSetup is raster.Setup: returns false for zero area (t.rows = 0, -1).
bool triSetup(ivec2 p0, ivec2 p1, ivec2 p2, uvec3 z, uint prim, int height, out Tri t) {
    int64_t a = int64_t(p1.x - p0.x) * int64_t(p2.y - p0.y) - int64_t(p2.x - p0.x) * int64_t(p1.y - p0.y);
    t.z = uvec4(z, prim);
    t.rows = ivec4(0, -1, 0, 0);
    t.v01 = ivec4(p0, p1);
    t.v2a = ivec4(p2, 0, 0);
    if (all(equal(unpackInt2x32(a), ivec2(0)))) return false;
    if (neg64(a)) {
        ivec2 tp = p1; p1 = p2; p2 = tp;
        t.z = uvec4(z.x, z.z, z.y, prim);
        a = -a;
        t.rows.z = 1;
    }
    t.v01 = ivec4(p0, p1);
    ivec2 aw = unpackInt2x32(a);
    t.v2a = ivec4(p2, aw);
    int ymin = min(p0.y, min(p1.y, p2.y));
    int ymax = max(p0.y, max(p1.y, p2.y));
    // ceilDiv(ymin - 128, 256) and floorDiv(ymax - 128, 256) by arithmetic
    // shifts, which floor (coordinates within the guard band: 32 bits).
    t.rows.x = max(-((SUBPIXEL / 2 - ymin) >> 8), 0);
    t.rows.y = min((ymax - SUBPIXEL / 2) >> 8, height - 1);
    return true;
}

// rowCount is the rows yLo..yHi of a set-up triangle's rows word (Tri's
// rows: yLo, yHi, ...): its scan-conversion workload, triRows.
uint rowCount(ivec4 rows) { return rows.y < rows.x ? 0u : uint(rows.y - rows.x + 1); }
uint triRows(Tri t) { return rowCount(t.rows); }

// triSpan is raster.Triangle.Span: the first and last covered pixel of row y,
// clamped to [0, width); x1 < x0 when the row has none. Pixel x is inside
// edge e when A*(256x+128) + k >= 0, k = B*yc + C + bias: for A > 0 when x
// >= ceilDiv(ceilDiv(-k, A) - 128, 256) = -((floorDiv(k, A) + 128) >> 8),
// for A < 0 when x <= floorDiv(floorDiv(k, -A) - 128, 256) = (floorDiv(k,
// -A) - 128) >> 8 (arithmetic shifts floor), for A = 0 when k >= 0. One
// quotient an edge, |k / A| < 2^47 within the guard band, and no branches:
// a SIMD vector of rows runs each step once. SpanEdges holds what does not
// change from row to row (spanEdges), spanAt does one row: the
// scan-conversion loop works them out once per triangle.
// The quotient is worked out in doubles, exactly (floorDivRecip): within
// the guard band |B| < 2^23, |yc| < 2^22 and |C| < 2^47, so k = B*yc + C +
// bias is an integer under 2^48 in magnitude, which doubles hold exactly
// (a fused multiply-add gives the same). It is clamped to +-2^30
// subpixels, so that it converts to 32 bits: beyond 2^22 pixels either way
// a bound lies past the image, where it decides as the true one would (a
// row empty, or no bound).
struct SpanEdges {
    double b[3];   // B
    double cb[3];  // C + bias
    double a[3];   // |A|, 1 for A = 0
    double inv[3]; // 1 / a, rounded
    ivec3 sgnA;
};

SpanEdges spanEdges(Tri t) {
    ivec2 v[3] = ivec2[3](t.v01.xy, t.v01.zw, t.v2a.xy);
    SpanEdges se;
    for (int i = 0; i < 3; i++) {
        Edge e = makeEdge(v[(i + 1) % 3], v[(i + 2) % 3]);
        se.b[i] = i64Double(e.B);
        se.cb[i] = i64Double(e.C + e.bias);
        se.a[i] = i64Double(e.sgnA < 0 ? -e.A : (e.sgnA == 0 ? int64_t(1) : e.A));
        se.inv[i] = 1.0 / se.a[i];
        se.sgnA[i] = e.sgnA;
    }
    return se;
}

ivec2 spanAt(SpanEdges se, int y, int width) {
    double yc = double(y) * double(SUBPIXEL) + double(SUBPIXEL / 2);
    int lo = 0, hi = width - 1;
    bool empty = false;
    for (int i = 0; i < 3; i++) {
        double k = se.b[i] * yc + se.cb[i];
        int f = int(clamp(floorDivRecip(k, se.a[i], se.inv[i]), -1073741824.0, 1073741824.0));
        int l = -((f + SUBPIXEL / 2) >> 8);
        int h = (f - SUBPIXEL / 2) >> 8;
        if (se.sgnA[i] > 0) lo = max(lo, l);
        if (se.sgnA[i] < 0) hi = min(hi, h);
        empty = empty || (se.sgnA[i] == 0 && k < 0.0);
    }
    if (empty || hi < lo) return ivec2(0, -1);
    return ivec2(lo, hi);
}

ivec2 triSpan(Tri t, int y, int width) { return spanAt(spanEdges(t), y, width); }

// triDepth is raster.Triangle.Depth at the centre of a covered pixel:
// with px = 256x + 128, w_e = A_e*px + B_e*py + C_e = q_e + s_e*x for the
// edges weighing vertices 1 and 2, and RowDepth holds what does not change
// along a row (rowDepth), rowDepthAt does one pixel: the z-buffer loop
// works them out once per span.
struct RowDepth {
    int64_t q1, s1, q2, s2; // the edge functions at x: q + s*x (before the shift)
    int64_t dz1, dz2;       // z1 - z0, z2 - z0
    int64_t a;              // area2 >> shift
    int shift;              // raster.depthAreaBits: keep the products within 63 bits
    uint z0;
};

RowDepth rowDepth(Tri t, int y) {
    RowDepth r;
    int64_t py = int64_t(y) * int64_t(SUBPIXEL) + int64_t(SUBPIXEL / 2);
    Edge e1 = makeEdge(t.v2a.xy, t.v01.xy);  // weighs vertex 1
    Edge e2 = makeEdge(t.v01.xy, t.v01.zw);  // weighs vertex 2
    r.s1 = e1.A * int64_t(SUBPIXEL);
    r.q1 = e1.A * int64_t(SUBPIXEL / 2) + e1.B * py + e1.C;
    r.s2 = e2.A * int64_t(SUBPIXEL);
    r.q2 = e2.A * int64_t(SUBPIXEL / 2) + e2.B * py + e2.C;
    int64_t a = triArea2(t);
    ivec2 aw = unpackInt2x32(a);
    int len = aw.y != 0 ? 33 + findMSB(aw.y) : 1 + findMSB(uint(aw.x));
    r.shift = max(len - 36, 0);
    r.a = a >> r.shift;
    r.z0 = t.z.x;
    r.dz1 = int64_t(t.z.y) - int64_t(t.z.x);
    r.dz2 = int64_t(t.z.z) - int64_t(t.z.x);
    return r;
}

uint rowDepthAt(RowDepth r, int x) {
    int64_t w1 = (r.q1 + r.s1 * int64_t(x)) >> r.shift;
    int64_t w2 = (r.q2 + r.s2 * int64_t(x)) >> r.shift;
    // floorDivEst's quotient in 32 bits: a covered pixel's barycentric
    // quotient lies within the depth range, |q| < 2^25 (a hair beyond on
    // fill-rule edges), and llvmpipe converts doubles to 32-bit integers a
    // vector at a time, to 64-bit ones a lane at a time.
    int64_t n = w1 * r.dz1 + w2 * r.dz2;
    int q = int(floor(i64Double(n) / i64Double(r.a)));
    int64_t rem = n - int64_t(q) * r.a;
    q += neg64(rem) ? -1 : (lt64(rem, r.a) ? 0 : 1);
    return uint(clamp(int(r.z0) + q, 0, int(DEPTH_MAX)));
}

uint triDepth(Tri t, int x, int y) { return rowDepthAt(rowDepth(t, y), x); }

// RowDepthExact is RowDepth in doubles, for a triangle whose area2 is
// below 2^28 (so the shift is 0): every value rowDepthExactAt takes is an
// integer below 2^53 in magnitude, so every step is exact and it returns
// rowDepthAt's depth. At a covered pixel 0 <= w_e <= area2 (the three edge
// functions sum to area2, and each is at least -bias >= 0), so |n| <=
// area2 * 2^24 < 2^52 and |n / area2| < 2^25 (floorDivRecip); the edge
// functions at x = 0, q_e, lie within the guard band's 2^48.
struct RowDepthExact {
    double q1, s1, q2, s2; // the edge functions at x: q + s*x
    double dz1, dz2;       // z1 - z0, z2 - z0
    double a, inv;         // area2 and its reciprocal, rounded
    uint z0;
};

RowDepthExact rowDepthExact(Tri t, int y) {
    RowDepth r = rowDepth(t, y);
    RowDepthExact e;
    e.q1 = i64Double(r.q1);
    e.s1 = i64Double(r.s1);
    e.q2 = i64Double(r.q2);
    e.s2 = i64Double(r.s2);
    e.dz1 = i64Double(r.dz1);
    e.dz2 = i64Double(r.dz2);
    e.a = i64Double(r.a);
    e.inv = 1.0 / e.a;
    e.z0 = r.z0;
    return e;
}

uint rowDepthExactAt(RowDepthExact r, int x) {
    double w1 = r.q1 + r.s1 * double(x);
    double w2 = r.q2 + r.s2 * double(x);
    double n = w1 * r.dz1 + w2 * r.dz2;
    int q = int(floorDivRecip(n, r.a, r.inv));
    return uint(clamp(int(r.z0) + q, 0, int(DEPTH_MAX)));
}

// ---- Transform and clipping (raster/clip.go), in float32 ops in one order.

#include "rasterizer/transform.glsl"

// finiteVec is false for a NaN or infinite component, by the exponent bits
// (a compiler assuming finite math may drop isnan/isinf).
bool finiteVec(vec4 v) {
    uvec4 e = floatBitsToUint(v) & 0x7f800000u;
    return all(notEqual(e, uvec4(0x7f800000u)));
}

float planeDist(vec4 v, int i, vec2 g) {
    precise float d;
    if (i == 0) d = v.z + v.w;
    else if (i == 1) d = v.w - v.z;
    else if (i == 2) { precise float s = g.x * v.w; d = s - v.x; }
    else if (i == 3) { precise float s = g.x * v.w; d = s + v.x; }
    else if (i == 4) { precise float s = g.y * v.w; d = s - v.y; }
    else { precise float s = g.y * v.w; d = s + v.y; }
    return d;
}

const int CLIP_INSIDE = 0, CLIP_CLIPPED = 1, CLIP_OUTSIDE = 2, CLIP_NONFINITE = 3;
const int MAX_CLIP_VERTICES = 9;

// outsideBits says which planes v lies beyond: bit i for planeDist(v, i,
// g) < 0 (i < 6, each the same float expression as planeDist's), bits 6-9
// for the view's sides (raster's viewDist: w - x, w + x, w - y, w + y < 0).
uint outsideBits(vec4 v, vec2 g) {
    precise float sx = g.x * v.w;
    precise float sy = g.y * v.w;
    precise vec4 p = vec4(v.z + v.w, v.w - v.z, sx - v.x, sx + v.x);
    precise vec2 q = vec2(sy - v.y, sy + v.y);
    precise vec4 e = vec4(v.w - v.x, v.w + v.x, v.w - v.y, v.w + v.y);
    uvec4 bp = uvec4(lessThan(p, vec4(0.0))) << uvec4(0u, 1u, 2u, 3u);
    uvec2 bq = uvec2(lessThan(q, vec2(0.0))) << uvec2(4u, 5u);
    uvec4 be = uvec4(lessThan(e, vec4(0.0))) << uvec4(6u, 7u, 8u, 9u);
    return bp.x | bp.y | bp.z | bp.w | bq.x | bq.y | be.x | be.y | be.z | be.w;
}

// clipClass is clipTriangle's classification without the clipping:
// CLIP_NONFINITE, CLIP_OUTSIDE (wholly beyond the near or far plane or a
// side of the view), CLIP_INSIDE, or CLIP_CLIPPED for a triangle that
// crosses a plane of the guard band or the near or far plane and must be
// clipped (clipTriangle may still find it outside). In bit masks of the
// planes, without loops or early returns: llvmpipe ran the loops'
// branches one plane at a time, about a third of setup's counting pass.
int clipClass(vec4 t0, vec4 t1, vec4 t2, vec2 g) {
    uint o0 = outsideBits(t0, g), o1 = outsideBits(t1, g), o2 = outsideBits(t2, g);
    // Bits 0, 1 (near, far) and 6-9 (the view's sides): all three beyond
    // one of them; bits 0-5 (near, far, guard band): any beyond one.
    const uint OUTSIDE_PLANES = 0x3c3u, CLIP_PLANES = 0x3fu;
    int cls = CLIP_INSIDE;
    if (((o0 | o1 | o2) & CLIP_PLANES) != 0u) cls = CLIP_CLIPPED;
    if ((o0 & o1 & o2 & OUTSIDE_PLANES) != 0u) cls = CLIP_OUTSIDE;
    if (!finiteVec(t0) || !finiteVec(t1) || !finiteVec(t2)) cls = CLIP_NONFINITE;
    return cls;
}

// clipTriangle is raster.Clip: returns the classification, and the polygon
// in poly with n vertices.
int clipTriangle(vec4 t0, vec4 t1, vec4 t2, vec2 g, out vec4 poly[MAX_CLIP_VERTICES], out int n) {
    n = 0;
    int cls = clipClass(t0, t1, t2, g);
    if (cls == CLIP_NONFINITE || cls == CLIP_OUTSIDE) return cls;
    poly[0] = t0; poly[1] = t1; poly[2] = t2;
    n = 3;
    if (cls == CLIP_INSIDE) return CLIP_INSIDE;
    vec4 tmp[MAX_CLIP_VERTICES];
    for (int i = 0; i < 6; i++) {
        int m = 0;
        for (int k = 0; k < n; k++) {
            vec4 a = poly[k], b = poly[(k + 1) % n];
            float da = planeDist(a, i, g), db = planeDist(b, i, g);
            if (da >= 0.0) tmp[m++] = a;
            if ((da >= 0.0) != (db >= 0.0)) {
                vec4 vin = a, vout = b;
                float din = da, dout = db;
                if (da < 0.0) { vin = b; vout = a; din = db; dout = da; }
                precise float den = din - dout;
                precise float s = din / den;
                precise vec4 p;
                for (int c = 0; c < 4; c++) {
                    precise float diff = vout[c] - vin[c];
                    precise float step = s * diff;
                    p[c] = vin[c] + step;
                }
                tmp[m++] = p;
            }
        }
        n = m;
        for (int k = 0; k < n; k++) poly[k] = tmp[k];
        if (n < 3) { n = 0; return CLIP_OUTSIDE; }
    }
    return CLIP_CLIPPED;
}

// toWindow is raster.ToWindow: snapped position and quantized depth.
void toWindow(vec4 v, ivec2 size, out ivec2 p, out uint z) {
    precise float qx = v.x / v.w;
    precise float qy = v.y / v.w;
    precise float qz = v.z / v.w;
    precise float x = qx + 1.0;
    precise float y = qy + 1.0;
    precise float zz = qz + 1.0;
    precise float hw = 0.5 * float(size.x);
    precise float hh = 0.5 * float(size.y);
    precise float wx = x * hw;
    precise float wy = y * hh;
    precise float wz = zz * 0.5;
    p = ivec2(snapCoord(wx), snapCoord(wy));
    z = quantizeDepth(wz);
}
