// Marching cubes, shared by classify.comp and generate.comp: the grid, the
// case table and the per-edge arithmetic. The expressions follow
// rasterizer/isosurface/cpu.go (edgeVertex) and volume.Gradient in the same
// order, so GPU and CPU vertices agree to rounding (GLSL's division may be
// off by 2.5 ulp).
//
// Cell i (x fastest) has its lower corner at sample (x, y, z); corner c at
// (x + (c&1), y + (c>>1&1), z + (c>>2&1)); case bit c is set when corner c
// is inside (value > iso). Edge e runs along axis e/4 from corner
// edgeLow[e].
//
// A cell with a corner that is NaN or ±Inf makes no triangles (as in
// cpu.go): faceCase flags such a face with NONFINITE_LEFT, which the right
// face's shift moves to NONFINITE_RIGHT, so a cell's case with either bit
// set is skipped.
//
// Passes 1 and 3 give each invocation a run of RUN cells along x (the last
// run of a row may be shorter): neighbouring cells share four samples, and
// the scan between the passes is RUN times shorter.

layout(std430, binding = 0) readonly restrict buffer Field { float field[]; };
// table[c] is the triangle count of case c; table[256 + 15c + j] the edges
// of its triangles, three per triangle (isosurface.Tables).
layout(std430, binding = 1) readonly restrict buffer Table { uint table[]; };

uniform uvec3 dims;    // samples per axis, each >= 2
uniform vec3 spacing;  // world distance between samples
uniform vec3 origin;   // world position of sample 0
uniform float iso;
uniform uint cells;    // (dims.x-1)(dims.y-1)(dims.z-1)
uniform uint runs;     // runsPerRow * (dims.y-1)(dims.z-1)
uniform uint runsPerRow; // ceil((dims.x-1) / RUN)

#ifndef RUN
#define RUN 4
#endif

const uint edgeLow[12] = uint[12](0u, 2u, 4u, 6u, 0u, 1u, 4u, 5u, 0u, 1u, 2u, 3u);

float sampleAt(uvec3 p) {
    return field[p.x + dims.x * (p.y + dims.y * p.z)];
}

// finite: not NaN and not ±Inf, by the exponent bits (volume.Finite), which
// no optimizer can reason away as it may `x == x`.
bool finite(float x) {
    return (floatBitsToUint(x) & 0x7f800000u) != 0x7f800000u;
}

const uint NONFINITE_LEFT = 256u;
const uint NONFINITE_RIGHT = 512u;
const uint NONFINITE = NONFINITE_LEFT | NONFINITE_RIGHT;

uvec3 cellOrigin(uint i) {
    uint cx = dims.x - 1u, cy = dims.y - 1u;
    return uvec3(i % cx, (i / cx) % cy, i / (cx * cy));
}

uvec3 cornerOf(uvec3 cell, uint c) {
    return cell + uvec3(c & 1u, (c >> 1) & 1u, (c >> 2) & 1u);
}

// faceCase gives the case bits of the four corners of the face x = p.x
// (y, z from p) at the positions of a cell's left face (bits 0, 2, 4, 6),
// and NONFINITE_LEFT when a corner is not finite; shifted left by one they
// are the right face's bits.
uint faceCase(uvec3 p) {
    float s[4] = float[4](sampleAt(p), sampleAt(p + uvec3(0u, 1u, 0u)),
                          sampleAt(p + uvec3(0u, 0u, 1u)), sampleAt(p + uvec3(0u, 1u, 1u)));
    uint cs = 0u;
    for (uint k = 0u; k < 4u; k++) {
        if (s[k] > iso) cs |= 1u << (2u * k);
        if (!finite(s[k])) cs |= NONFINITE_LEFT;
    }
    return cs;
}

// runStart is the first cell of run j and the number of cells in it.
uvec3 runStart(uint j, out uint len) {
    uint row = j / runsPerRow;
    uint x0 = (j % runsPerRow) * uint(RUN);
    len = min(uint(RUN), dims.x - 1u - x0);
    uint cy = dims.y - 1u;
    return uvec3(x0, row % cy, row / cy);
}

uint cellIndex(uvec3 c) {
    return c.x + (dims.x - 1u) * (c.y + (dims.y - 1u) * c.z);
}

// gradientAt: central differences inside the grid, one-sided on its faces
// and beside samples that are not finite, 0 at a sample that is not
// finite (volume.Gradient).
vec3 gradientAt(uvec3 p) {
    vec3 g = vec3(0.0);
    if (!finite(sampleAt(p))) return g;
    for (int a = 0; a < 3; a++) {
        uvec3 lo = p, hi = p;
        if (p[a] > 0u) {
            lo[a] -= 1u;
            if (!finite(sampleAt(lo))) lo[a] += 1u;
        }
        if (p[a] < dims[a] - 1u) {
            hi[a] += 1u;
            if (!finite(sampleAt(hi))) hi[a] -= 1u;
        }
        if (lo[a] == hi[a]) continue;
        float d = sampleAt(hi) - sampleAt(lo);
        g[a] = d / (float(hi[a] - lo[a]) * spacing[a]);
    }
    return g;
}

// edgeVertex: where the surface crosses the edge from sample a one step
// along axis, and the outward unit normal there (−gradient, interpolated).
void edgeVertex(uvec3 a, int axis, out vec3 pos, out vec3 nrm) {
    uvec3 b = a;
    b[axis] += 1u;
    float fa = sampleAt(a), fb = sampleAt(b);
    // Halved first, as in cpu.go, so that the differences stay finite;
    // precise, so that the compiler does not factor the halving out.
    precise float t = (iso * 0.5 - fa * 0.5) / (fb * 0.5 - fa * 0.5);
    vec3 idx = vec3(a);
    idx[axis] += t;
    pos = origin + idx * spacing;
    vec3 ga = gradientAt(a), gb = gradientAt(b);
    vec3 g = ga + t * (gb - ga);
    // Scaled by the largest component so that length() neither underflows
    // nor overflows at extreme spacings (cpu.go does the same).
    float s = max(abs(g.x), max(abs(g.y), abs(g.z)));
    if (s > 0.0 && finite(s)) g /= s;
    float l = length(g);
    if (!(l > 0.0) || !finite(l)) {
        // A flat gradient: the edge's direction, from inside to outside.
        nrm = vec3(0.0);
        nrm[axis] = fb > fa ? -1.0 : 1.0;
    } else {
        nrm = -g / l;
    }
}
