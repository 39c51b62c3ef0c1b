#version 450
#extension GL_ARB_gpu_shader_int64 : require
// The tiled rasterizer's depth test (rasterizer/tiled.go): one work group a
// TILE x TILE screen tile, of TILE invocations. The group takes its
// tile's triangles (tilebin.comp's list) 2 * TILE at a time: invocation k
// rasterizes the chunk's k-th and TILE + k-th triangles over their boxes
// within the tile into a per-tile buffer of 32-bit keys in shared memory
// (below); then
// invocation k, as the owner of the tile's k-th row, folds the chunk's
// winners there into the least (depth, primitive id) it keeps in registers
// for each pixel of the row. (TILE invocations, one SIMD vector on
// llvmpipe: a tile of a few triangles keeps one vector busy rather than
// TILE mostly idle ones, which would each run every instruction.) So the nearest
// surface wins, ties to the lowest id, whatever the order of the list,
// with 32-bit atomics in shared memory only: no 64-bit ones and no second
// id pass, and each pixel of the image has one writer. Coverage is raster's
// fill rule, A*px + B*py + C + bias >= 0 for the three edges at the pixel
// centre, which is exactly "x lies in the row's span" of
// raster.Triangle.Span (and triSpan); depth is triDepth.
// The buffers start with the frame's earlier batches (or the cleared
// value), so batches merge as in zbuffer.comp.
//   VIS64 0: depthBuf and primBuf, the 32-bit scheme's buffers;
//   VIS64 1: the packed 64-bit buffer as words (id, depth) a pixel, and
//            primBuf beside it.
//   SHADE 1: the frame's only batch, of a mesh of one block: the buffers
//            start empty (no clearing pass, nothing read), every tile
//            writes all its pixels, and their colours too (shade.glsl,
//            resolve.comp's shading), so the frame needs no resolve pass.
//            With VIS64 0 the caller fills the buffers and the empty tiles
//            write nothing (a fill of the buffer costs far less than their
//            lanes' stores, a pixel at a time, on llvmpipe); VIS64 1's
//            pairs of words the empty tiles write themselves. (The empty
//            tiles' stores are compiled only for VIS64 1: llvmpipe runs
//            the code in an if that no lane takes, so that every tile paid
//            for them, about 1 ms of the balanced set's zoomed frames.)
//   TEXELS 1: the records, and SHADE's vertices and normals, are read as
//            buffer textures (gpu.TexelBuffer), 0: as storage blocks.
// The tile's large triangles (tileprep.glsl's prepLarge, listed apart by
// the binning passes) are drawn first, a row of the tile an invocation,
// with no atomics: the same (depth, id) minimum.
//   LARGE 0: a batch with no large triangle: the variant without their
//            pass (its code alone, never run, made the balanced set's
//            zoomed frames' tiles 3-5% slower on llvmpipe).
//   WHOLE_ROWS 1 (TILE 8, an image width that is a multiple of 8): every
//            tile's rows lie whole in the image's rows, and an invocation
//            loads and stores its row's words four to a vector, and shades
//            its row's pixels from registers (llvmpipe stores a vector for
//            a lane about as fast as a word: 12 stores a row, not 24, and
//            no loads of the ids back; the zoomed views' tiles: 10% less
//            time).
//   LOCKSTEP 1 (gpu.Caps.LockstepLanes >= TILE: llvmpipe, which runs the
//            group's TILE invocations as one SIMD vector, each statement,
//            its shared-memory accesses lane by lane, done for every lane
//            before the next): no barriers. They order only the
//            invocations' shared-memory accesses, which such a group
//            orders anyway; on llvmpipe each suspends the vector's
//            coroutine, storing its live values and loading them back
//            (without them the tiles stage took 16-24% less at the
//            balanced set's zoomed views). Every other driver needs them.
// lint: VIS64=1
// lint: SHADE=1
// lint: TEXELS=0
// lint: SHADE=1 TEXELS=0
// lint: SHADE=1 VIS64=1
// lint: WHOLE_ROWS=1
// lint: WHOLE_ROWS=1 VIS64=1
// lint: WHOLE_ROWS=1 SHADE=1 SHADE_RECORDS=1
// lint: WHOLE_ROWS=1 SHADE=1 VIS64=1
// lint: SHADE=1 SHADE_RECORDS=1
// lint: SHADE=1 SHADE_RECORDS=1 TEXELS=0
// lint: LARGE=0
// lint: LARGE=0 WHOLE_ROWS=1 SHADE=1 SHADE_RECORDS=1
// lint: LOCKSTEP=1
// lint: LOCKSTEP=1 LARGE=0 WHOLE_ROWS=1 SHADE=1 SHADE_RECORDS=1
#ifndef VIS64
#define VIS64 0
#endif
#ifndef SHADE
#define SHADE 0
#endif
#ifndef TILE
#define TILE 8
#endif
#ifndef TEXELS
#define TEXELS 1
#endif
#ifndef WHOLE_ROWS
#define WHOLE_ROWS 0
#endif
#ifndef LARGE
#define LARGE 1
#endif
#ifndef LOCKSTEP
#define LOCKSTEP 0
#endif
#if LOCKSTEP
#define GROUP_BARRIER()
#else
#define GROUP_BARRIER() barrier()
#endif
#if WHOLE_ROWS && TILE != 8
#error "tile.comp: WHOLE_ROWS takes a row of 8 pixels as two vectors: TILE 8"
#endif
#define WG (TILE * TILE)
#if TILE != 1 && TILE != 2 && TILE != 4 && TILE != 8
#error "tile.comp: a tile's pixels are the bits of a uvec2, its rows whole bytes: TILE 1, 2, 4 or 8"
#endif

// One invocation a row of the tile: a chunk of TILE triangles, so that a
// tile with few triangles occupies one SIMD vector, not TILE of them.
layout(local_size_x = TILE) in;
#include "rasterizer/raster.glsl"
#include "rasterizer/tileprep.glsl"
#include "rasterizer/layout.glsl"

#if TEXELS
// The records as a buffer texture of four texels each (tiled.go), so that
// a lane's record is four gathers of a SIMD vector's lanes rather than 16
// scalar loads a lane (llvmpipe).
layout(binding = UNIT_TILE_PREPS) uniform isamplerBuffer prepTexels;
Prep loadPrep(uint i) {
    int t = int(4u * i);
    return Prep(texelFetch(prepTexels, t), texelFetch(prepTexels, t + 1), texelFetch(prepTexels, t + 2), texelFetch(prepTexels, t + 3));
}
#else
layout(std430, binding = BINDING_TILE_PREPS) readonly restrict buffer Preps { Prep prep[]; };
Prep loadPrep(uint i) { return prep[i]; }
#endif
layout(std430, binding = BINDING_TILE_COUNT) readonly restrict buffer TileCount { uint tileCount[]; };
layout(std430, binding = BINDING_TILE_START) readonly restrict buffer TileStart { uint tileStart[]; };
layout(std430, binding = BINDING_TILE_LIST) readonly restrict buffer List { uint list[]; };
// counter[11 + i]: the i-th tile that holds a triangle (tilesetup.comp).
layout(std430, binding = BINDING_TILE_COUNTER) readonly restrict buffer Counter { uint counter[]; };
// (Not restrict where WHOLE_ROWS's vectors alias them.)
#if WHOLE_ROWS
#define OUT_RESTRICT
#else
#define OUT_RESTRICT restrict
#endif
#if VIS64
layout(std430, binding = BINDING_VISIBILITY) OUT_RESTRICT buffer Vis { uint vis[]; }; // 2p: id, 2p+1: depth
#else
layout(std430, binding = BINDING_VISIBILITY) OUT_RESTRICT buffer Depth { uint depthBuf[]; };
#endif
layout(std430, binding = BINDING_PRIMS) OUT_RESTRICT buffer Prim { uint primBuf[]; };
#if SHADE
#define SHADE_TEXELS TEXELS
#include "rasterizer/shade.glsl"
layout(std430, binding = BINDING_IMAGE) writeonly OUT_RESTRICT buffer Image { uint rgba[]; };
#endif
#if WHOLE_ROWS
// The same words four to a vector (WHOLE_ROWS): a row of the tile is words
// [q, q + 2) of Depth4, Prim4 and Image4, and [2q, 2q + 4) of Vis4 (two
// pixels a vector), q = (y * width + x) / 4 of its first pixel.
#if VIS64
layout(std430, binding = BINDING_VISIBILITY) buffer Vis4 { uvec4 vis4[]; };
#else
layout(std430, binding = BINDING_VISIBILITY) buffer Depth4 { uvec4 depth4[]; };
#endif
layout(std430, binding = BINDING_PRIMS) buffer Prim4 { uvec4 prim4[]; };
#if SHADE
layout(std430, binding = BINDING_IMAGE) writeonly buffer Image4 { uvec4 rgba4[]; };
#endif
#endif

uniform ivec2 size;   // image width, height
uniform uint binCap;  // > 0: tile t's list is list[t * binCap, ...) (tilesetup.comp's bins); 0: from tileStart[t]
// 1: work group i draws tile counter[11 + i] of a grid tilesX wide (an
// indirect dispatch over the tiles that hold a triangle); 0: work group
// (x, y) draws tile (x, y).
uniform int listed;
uniform int tilesX;
uniform uint numTiles; // the large triangles' counts and list starts follow the others' (tileCount, tileStart)

// A chunk is 2 * TILE triangles, two an invocation: invocation k draws the
// chunk's k-th and TILE + k-th. It walks the covered pixels of both in one
// loop, so that a SIMD vector runs as many steps as the most pixels an
// invocation's two triangles cover together, not the most one covers plus
// the most the other covers; and the chunk's keys are cleared, ranked and
// folded once for both, behind two barriers. (At the paper's zoomed views,
// where a tile's list runs to dozens of triangles of about ten pixels
// each, that is a sixth fewer steps and half the folds; about 5% of a
// frame's CPU time on the balanced set, under load. Four an invocation, in
// arrays, was slower: the loops over them were not unrolled, and a local
// array indexed by a variable goes through memory a lane at a time.)
#define CHUNK (2 * TILE)

// A chunk of the tile's list: sId4[q / 4][q % 4] is the primitive id of
// the chunk's q-th set-up triangle (four to a vector, so that the rank loop
// compares four at a time), and its rank the number of smaller ids in the
// chunk; sByRank[r] is a triangle of rank r. sKey4[p / 4][p % 4] is pixel
// p's least depth << 8 | rank over the chunk: one 32-bit atomicMin keeps
// the nearest surface and, among equal depths, the smallest rank, which is
// the lowest primitive id. (The parts of a clipped triangle share an id, so
// a rank, but never a pixel; either gives the id back.) Four keys to a
// vector: an invocation clears and reads its row's keys with two vector
// stores and loads, not eight (llvmpipe loops over a vector's lanes once a
// load or store, whatever its width).
shared uvec4 sId4[(CHUNK + 3) / 4];
shared uint sByRank[CHUNK];
shared uvec4 sKey4[(WG + 3) / 4];
// sMaxD[k & 1] is the tile's farthest pixel depth (over the image's
// pixels) after chunk k - 1, DEPTH_MAX before the first: a triangle whose
// nearest vertex lies beyond it can take no pixel (a covered pixel's depth
// lies within its vertices' range; an equal one may win by its id), so
// chunk k skips its cover and depth steps. Two words, so that chunk k
// reads one while its fold gathers the other.
shared uint sMaxD[2];

// Cover is what the depth loop needs of one of an invocation's triangles
// in the tile: the covered pixels not yet taken (bit dy * TILE + dx), its
// edge functions E_1 and E_2 at the tile's first pixel centre (subpixels),
// the depth's shift s, area2 >> s and its reciprocal, A_1, B_1, A_2, B_2,
// z0, z1 - z0, z2 - z0, and its rank in the chunk.
struct Cover {
    uvec2 mask;
    int64_t k1, k2, area;
    double inv;
    ivec4 ab;
    ivec3 z;
    int s;
    uint rank;
    // exact: the depth's every step is exact in doubles (tileDepthExact);
    // then k1d, k2d, aread, dz1d and dz2d are k1, k2, area, z.y and z.z
    // as doubles.
    bool exact;
    double k1d, k2d, aread, dz1d, dz2d;
};

// coverThresholds is, per edge e of record pr, the least m_e = A_e*dx +
// B_e*dy that covers the pixel dx, dy pixels from the tile's first, whose
// centre is (px0, py0) (subpixels); k1 and k2 are E_1 and E_2 there. A
// pixel dx, dy from the first adds 256 m_e to its E_e = k_e, |m_e| < 2^26
// in 32 bits. It is covered when k_e + bias_e + 256 m_e >= 0 for each
// edge, that is when m_e >= ceil(-(k_e + bias_e) / 256) = -floor((k_e +
// bias_e) / 256), a threshold clamped to +-2^30 (beyond any m_e) so that
// the test per pixel is in 32 bits.
ivec3 coverThresholds(Prep pr, int64_t px0, int64_t py0, out int64_t k1, out int64_t k2) {
    ivec3 thr;
    for (int e = 0; e < 3; e++) {
        int64_t k = prepE(pr, e, px0, py0);
        int64_t th = -((k + int64_t(prepBias(pr, e))) >> 8);
        thr[e] = int(min64(max64(th, int64_t(-(1 << 30))), int64_t(1 << 30)));
        if (e == 1) k1 = k;
        if (e == 2) k2 = k;
    }
    return thr;
}

// coverRow is the covered pixels of row dy of the tile (bit dx) by the
// thresholds thr (coverThresholds), a row's TILE pixels at once by adding
// A_e from one to the next (m_e stays below 2^26: 32 bits).
uint coverRow(Prep pr, ivec3 thr, int dy) {
    int m0 = pr.b.x * dy, m1 = pr.b.y * dy, m2 = pr.b.z * dy;
    uint row = 0u;
    for (int dx = 0; dx < TILE; dx++) {
        row |= m0 >= thr.x && m1 >= thr.y && m2 >= thr.z ? 1u << dx : 0u;
        m0 += pr.a.x;
        m1 += pr.a.y;
        m2 += pr.a.z;
    }
    return row;
}

// boxColumns is the tile's columns (bit dx) within box (prepBox) and the
// image, the tile at org (pixels).
uint boxColumns(ivec4 box, ivec2 org) {
    int x0 = max(box.x, org.x) - org.x, x1 = min(box.y, min(org.x + TILE, size.x) - 1) - org.x;
    return x1 >= x0 ? ((2u << x1) - 1u) & ~((1u << x0) - 1u) : 0u;
}

// makeCover works out the Cover of record pr for the tile at org (pixels)
// whose first pixel centre is (px0, py0) (subpixels), of an image size
// pixels large.
Cover makeCover(Prep pr, uint rank, ivec2 org, int64_t px0, int64_t py0) {
    Cover cv;
    cv.rank = rank;
    ivec4 box = prepBox(pr);
    int y0 = max(box.z, org.y), y1 = min(box.w, min(org.y + TILE, size.y) - 1);
    ivec3 thr = coverThresholds(pr, px0, py0, cv.k1, cv.k2);
    cv.s = pr.a.w;
    cv.area = prepArea(pr);
    // The quotient estimate by a reciprocal: covered pixels' depth
    // quotients lie within the depth range, |q| < 2^25, so the product's
    // error is far below one and one step corrects it (as raster.glsl's
    // floorDivEst's); q and z0 + q fit 32 bits.
    cv.inv = 1.0 / i64Double(cv.area);
    cv.ab = ivec4(pr.a.y, pr.b.y, pr.a.z, pr.b.z);
    cv.z = pr.z.xyz;
    cv.exact = cv.s == 0 && lt64(cv.area, int64_t(1 << 28));
    cv.k1d = i64Double(cv.k1);
    cv.k2d = i64Double(cv.k2);
    cv.aread = i64Double(cv.area);
    cv.dz1d = double(cv.z.y);
    cv.dz2d = double(cv.z.z);
    // The box's rows, marked in the mask.
    uvec2 mask = uvec2(0u);
    uint cols = boxColumns(box, org);
    for (int dy = y0 - org.y; dy <= y1 - org.y; dy++) {
        int off = dy * TILE;
        uint row = coverRow(pr, thr, dy) & cols;
        mask.x |= off < 32 ? row << off : 0u;
        mask.y |= off >= 32 ? row << (off - 32) : 0u;
    }
    cv.mask = mask;
    return cv;
}

// nextPixel takes the first covered pixel left of the invocation's first
// triangle with any left, a or b, as bit (dy * TILE + dx) and that
// triangle as cur, or returns false when neither has any left. (Selects,
// not branches: llvmpipe runs both sides of a branch, whichever its lanes
// take.)
bool nextPixel(inout Cover a, inout Cover b, out Cover cur, out int bit) {
    bool first = a.mask != uvec2(0u);
    cur = first ? a : b;
    bit = cur.mask.x != 0u ? findLSB(cur.mask.x) : 32 + findLSB(cur.mask.y);
    uvec2 left = bit < 32 ? uvec2(cur.mask.x & (cur.mask.x - 1u), cur.mask.y) : uvec2(0u, cur.mask.y & (cur.mask.y - 1u));
    a.mask = first ? left : a.mask;
    b.mask = first ? b.mask : left;
    return cur.mask != uvec2(0u);
}

// tileDepth is triDepth at pixel (dx, dy) of the tile, which cv covers:
// z0 + floorDiv(w1 * (z1 - z0) + w2 * (z2 - z0), area2 >> s), w_e = E_e >> s,
// from the edge functions at the tile's first pixel centre (E_e there plus
// 256 (A_e dx + B_e dy)), the quotient estimated by the reciprocal and
// corrected in exact integers (as raster.glsl's floorDivEst's).
uint tileDepth(Cover cv, int dx, int dy) {
    int m1 = cv.ab.x * dx + cv.ab.y * dy, m2 = cv.ab.z * dx + cv.ab.w * dy;
    int64_t w1 = (cv.k1 + int64_t(m1) * int64_t(SUBPIXEL)) >> cv.s;
    int64_t w2 = (cv.k2 + int64_t(m2) * int64_t(SUBPIXEL)) >> cv.s;
    int64_t n = w1 * int64_t(cv.z.y) + w2 * int64_t(cv.z.z);
    int qt = int(floor(i64Double(n) * cv.inv));
    int64_t r = n - int64_t(qt) * cv.area;
    qt += neg64(r) ? -1 : (lt64(r, cv.area) ? 0 : 1);
    return uint(clamp(cv.z.x + qt, 0, int(DEPTH_MAX)));
}

// tileDepthExact is tileDepth in doubles, for a triangle whose area2 is
// below 2^28 (so s = 0): every value it takes is an integer below 2^53 in
// magnitude, so every step is exact. E_e = k_e + 256 m_e, an edge function
// of vertices within the guard band at a pixel of the image, is below 2^49;
// a covered pixel has 0 <= E_1, E_2 <= area2 (the three sum to
// area2, and each is at least -bias >= 0), so |n| <= area2 * 2^24 < 2^52;
// and |n / area2| < 2^25, within floorDivRecip's range (raster.glsl).
// llvmpipe multiplies doubles four to a register, 64-bit integers by a
// sequence of 32-bit products.
uint tileDepthExact(Cover cv, int dx, int dy) {
    int m1 = cv.ab.x * dx + cv.ab.y * dy, m2 = cv.ab.z * dx + cv.ab.w * dy;
    double w1 = cv.k1d + double(m1) * double(SUBPIXEL);
    double w2 = cv.k2d + double(m2) * double(SUBPIXEL);
    double n = w1 * cv.dz1d + w2 * cv.dz2d;
    return uint(clamp(cv.z.x + int(floorDivRecip(n, cv.aread, cv.inv)), 0, int(DEPTH_MAX)));
}

void main() {
    uint t = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    ivec2 tile = ivec2(gl_WorkGroupID.xy);
    if (listed != 0) {
        t = counter[11u + gl_WorkGroupID.x];
        tile = ivec2(int(t) % tilesX, int(t) / tilesX);
    }
    uint lid = gl_LocalInvocationIndex;
    ivec2 org = tile * TILE;
#if LARGE
    uint cnt = tileCount[t], cntLarge = tileCount[numTiles + t];
#else
    uint cnt = tileCount[t], cntLarge = 0u;
#endif
    // Invocation lid keeps the least (depth, id) of the row's pixels.
    int py = org.y + int(lid);
    uint bestD[TILE], bestId[TILE];
#if SHADE && VIS64
    if (cnt + cntLarge == 0u) { // the group's common exit: no barrier follows
        for (int i = 0; i < TILE; i++) {
            int px = org.x + i;
            if (px < size.x && py < size.y) {
                uint pix = uint(py * size.x + px);
                vis[2u * pix] = NO_PRIMITIVE;
                vis[2u * pix + 1u] = DEPTH_MAX;
                primBuf[pix] = NO_PRIMITIVE;
                rgba[pix] = packUnorm4x8(background);
            }
        }
        return;
    }
#else
    if (cnt + cntLarge == 0u) return; // the group's common exit: no barrier follows
#endif
    uint start = binCap != 0u ? t * binCap : tileStart[t];
#if WHOLE_ROWS
    // The row's first pixel's word, in vectors of four.
    uint q = uint(py * size.x + org.x) >> 2;
#endif
    for (int i = 0; i < TILE; i++) {
        bestD[i] = DEPTH_MAX;
        bestId[i] = NO_PRIMITIVE;
#if !SHADE && !WHOLE_ROWS
        int px = org.x + i;
        if (px < size.x && py < size.y) {
            uint pix = uint(py * size.x + px);
#if VIS64
            bestId[i] = vis[2u * pix];
            bestD[i] = vis[2u * pix + 1u];
#else
            bestD[i] = depthBuf[pix];
            bestId[i] = primBuf[pix];
#endif
        }
#endif
    }
#if !SHADE && WHOLE_ROWS
    if (py < size.y) {
#if VIS64
        uvec4 w0 = vis4[2u * q], w1 = vis4[2u * q + 1u], w2 = vis4[2u * q + 2u], w3 = vis4[2u * q + 3u];
        bestId = uint[TILE](w0.x, w0.z, w1.x, w1.z, w2.x, w2.z, w3.x, w3.z);
        bestD = uint[TILE](w0.y, w0.w, w1.y, w1.w, w2.y, w2.w, w3.y, w3.w);
#else
        uvec4 d0 = depth4[q], d1 = depth4[q + 1u], i0 = prim4[q], i1 = prim4[q + 1u];
        bestD = uint[TILE](d0.x, d0.y, d0.z, d0.w, d1.x, d1.y, d1.z, d1.w);
        bestId = uint[TILE](i0.x, i0.y, i0.z, i0.w, i1.x, i1.y, i1.z, i1.w);
#endif
    }
#endif
    // The tile's first pixel centre, in subpixels.
    int64_t px0 = int64_t(org.x) * int64_t(SUBPIXEL) + int64_t(SUBPIXEL / 2);
    int64_t py0 = int64_t(org.y) * int64_t(SUBPIXEL) + int64_t(SUBPIXEL / 2);
    // The large triangles first (their list runs down from the end of the
    // tile's bin, or follows the small ones' lists), one at a time for all
    // the rows: each row's owner tests its row's pixels (makeCover's test
    // for dy = lid) and takes their depths into its registers, stepping
    // along the row (below). A vector then runs one pass a large triangle,
    // where the chunks' lanes run as many steps as the most pixels one
    // lane's triangle covers in the tile, most of the tile for a large one
    // beside a few for the others (the unbalanced set's zoomed views: a
    // sixth of a frame), and with no atomics.
#if LARGE
    uint lastLarge = binCap != 0u ? t * binCap + binCap - 1u : tileStart[numTiles + t];
    for (uint k = 0u; k < cntLarge; k++) {
        Prep pr = loadPrep(list[binCap != 0u ? lastLarge - k : lastLarge + k]);
        uint id = uint(pr.z.w);
        int64_t k1, k2;
        ivec3 thr = coverThresholds(pr, px0, py0, k1, k2);
        // The box's columns within the image (the edge tests decide the
        // rest).
        uint bits = py < size.y ? coverRow(pr, thr, int(lid)) & boxColumns(prepBox(pr), org) : 0u;
        // Along the row, n = E_1*(z1 - z0) + E_2*(z2 - z0) grows by dn a
        // pixel (the shift is 0: E_e itself, linear), so the quotient and
        // remainder of n / area2 step by those of dn, plus a carry: the
        // exact floorDiv of tileDepth at every pixel, in 64-bit adds. In
        // the tile, |E_e| < 2^37 (a covered pixel's lies in [0, area2 <
        // 2^36], and a tile moves it by under 2^35), so |n| < 2^62; the
        // quotient is kept mod 2^32, exact where it fits, as it does at
        // the covered pixels.
        int64_t area = prepArea(pr);
        int64_t n = (k1 + int64_t(pr.b.y * int(lid)) * int64_t(SUBPIXEL)) * int64_t(pr.z.y) + (k2 + int64_t(pr.b.z * int(lid)) * int64_t(SUBPIXEL)) * int64_t(pr.z.z);
        int64_t dn = (int64_t(pr.a.y) * int64_t(pr.z.y) + int64_t(pr.a.z) * int64_t(pr.z.z)) * int64_t(SUBPIXEL);
        // |n / area2| < 2^38 (area2 >= 2^24): within floorDivEst's range.
        int64_t q = floorDivEst(n, area), dq = floorDivEst(dn, area);
        int64_t r = n - q * area, dr = dn - dq * area;
        int zq = pr.z.x + unpackInt2x32(q).x, dz = unpackInt2x32(dq).x;
        // (Written out for each pixel: a loop over bestD and bestId that
        // the compiler does not unroll puts them in memory.)
#define LARGE_PIXEL(i) { uint z = uint(clamp(zq, 0, int(DEPTH_MAX))); \
        if ((bits & (1u << i)) != 0u && (z < bestD[i] || (z == bestD[i] && id < bestId[i]))) { bestD[i] = z; bestId[i] = id; } \
        r += dr; bool carry = !lt64(r, area); r = carry ? r - area : r; zq += dz + (carry ? 1 : 0); }
        LARGE_PIXEL(0)
#if TILE > 1
        LARGE_PIXEL(1)
#endif
#if TILE > 2
        LARGE_PIXEL(2) LARGE_PIXEL(3)
#endif
#if TILE > 4
        LARGE_PIXEL(4) LARGE_PIXEL(5) LARGE_PIXEL(6) LARGE_PIXEL(7)
#endif
#undef LARGE_PIXEL
    }
#endif
    if (lid == 0u) sMaxD[0] = DEPTH_MAX;
    // The list in reverse when its last triangle lies nearer than its
    // first: the lists keep about the mesh's order, which some views see
    // from behind, and the near surfaces drawn first make the far ones'
    // triangles skippable (sMaxD). (The zoomed views: 5-10% less CPU a
    // frame under load; a minimum takes no order into account.)
    bool rev = false;
    if (cnt > uint(CHUNK)) {
        ivec4 zf = loadPrep(list[start]).z, zl = loadPrep(list[start + cnt - 1u]).z;
        rev = zl.x + min(0, min(zl.y, zl.z)) < zf.x + min(0, min(zf.y, zf.z));
    }
    for (uint c = 0u; c < cnt; c += uint(CHUNK)) {
        uint m = min(uint(CHUNK), cnt - c);
        uint par = (c / uint(CHUNK)) & 1u;
        // Two triangles an invocation, in variables of their own (a local
        // array in a loop the compiler does not unroll goes through memory
        // a lane at a time on llvmpipe).
        uint q0 = lid, q1 = uint(TILE) + lid;
        Prep pr0, pr1;
        uint id0 = NO_PRIMITIVE, id1 = NO_PRIMITIVE;
        if (q0 < m) {
            pr0 = loadPrep(list[start + (rev ? cnt - 1u - c - q0 : c + q0)]);
            id0 = uint(pr0.z.w);
        }
        if (q1 < m) {
            pr1 = loadPrep(list[start + (rev ? cnt - 1u - c - q1 : c + q1)]);
            id1 = uint(pr1.z.w);
        }
        sId4[q0 >> 2][q0 & 3u] = id0;
        sId4[q1 >> 2][q1 & 3u] = id1;
        for (uint j = 0u; j < uint(TILE + 3) / 4u; j++) sKey4[lid * uint(TILE) / 4u + j] = uvec4(0xffffffffu);
        if (lid == 0u) sMaxD[par ^ 1u] = 0u;
        GROUP_BARRIER();
        int maxD = int(sMaxD[par]);
        // Entries past m are NO_PRIMITIVE, never below an id.
        uint rank0 = 0u, rank1 = 0u;
        for (uint q4 = 0u; q4 < (m + 3u) >> 2; q4++) {
            uvec4 o = sId4[q4];
            uvec4 less0 = uvec4(lessThan(o, uvec4(id0))), less1 = uvec4(lessThan(o, uvec4(id1)));
            rank0 += less0.x + less0.y + less0.z + less0.w;
            rank1 += less1.x + less1.y + less1.z + less1.w;
        }
        Cover cv0, cv1;
        cv0.mask = uvec2(0u);
        cv1.mask = uvec2(0u);
        if (q0 < m) sByRank[rank0] = id0;
        if (q1 < m) sByRank[rank1] = id1;
        // z0 + min(0, z1 - z0, z2 - z0): the nearest vertex's depth.
        if (q0 < m && pr0.z.x + min(0, min(pr0.z.y, pr0.z.z)) <= maxD) cv0 = makeCover(pr0, rank0, org, px0, py0);
        if (q1 < m && pr1.z.x + min(0, min(pr1.z.y, pr1.z.z)) <= maxD) cv1 = makeCover(pr1, rank1, org, px0, py0);
        // The covered pixels of the invocation's triangles in turn (the
        // first triangle with pixels left, garbage in lanes whose pixels
        // are all taken, which no one keeps), the nearest kept by
        // atomicMin: first those of triangles whose depth is exact in
        // doubles, then the others in 64-bit integers. Two loops, not an
        // if: llvmpipe (Mesa 22.3) runs both sides of an if whatever its
        // lanes take, and a loop for as long as any lane goes on, so a
        // vector whose triangles are all exact passes the second loop
        // once with no lane active.
        uvec2 rest0 = cv0.exact ? uvec2(0u) : cv0.mask, rest1 = cv1.exact ? uvec2(0u) : cv1.mask;
        cv0.mask ^= rest0;
        cv1.mask ^= rest1;
        Cover cur;
        int bit;
        while (nextPixel(cv0, cv1, cur, bit)) {
            uint z = tileDepthExact(cur, bit % TILE, bit / TILE);
            atomicMin(sKey4[bit >> 2][bit & 3], (z << 8) | cur.rank);
        }
        cv0.mask = rest0;
        cv1.mask = rest1;
        while (nextPixel(cv0, cv1, cur, bit)) {
            uint z = tileDepth(cur, bit % TILE, bit / TILE);
            atomicMin(sKey4[bit >> 2][bit & 3], (z << 8) | cur.rank);
        }
        GROUP_BARRIER();
        uvec4 rowKeys[(TILE + 3) / 4];
        for (uint j = 0u; j < uint(TILE + 3) / 4u; j++) rowKeys[j] = sKey4[lid * uint(TILE) / 4u + j];
        for (int i = 0; i < TILE; i++) {
            uint o = lid * uint(TILE) % 4u + uint(i);
            uint key = rowKeys[o / 4u][o % 4u];
            if (key != 0xffffffffu) {
                uint z = key >> 8;
                uint id = sByRank[key & 255u];
                if (z < bestD[i] || (z == bestD[i] && id < bestId[i])) {
                    bestD[i] = z;
                    bestId[i] = id;
                }
            }
        }
        // The row's farthest pixel into the next chunk's sMaxD (pixels
        // past the image's edge are never written: they count as 0).
        uint rowMax = 0u;
        for (int i = 0; i < TILE; i++) rowMax = max(rowMax, org.x + i < size.x && py < size.y ? bestD[i] : 0u);
        atomicMax(sMaxD[par ^ 1u], rowMax);
        GROUP_BARRIER();
    }
#if WHOLE_ROWS
    if (py < size.y) {
#if VIS64
        vis4[2u * q] = uvec4(bestId[0], bestD[0], bestId[1], bestD[1]);
        vis4[2u * q + 1u] = uvec4(bestId[2], bestD[2], bestId[3], bestD[3]);
        vis4[2u * q + 2u] = uvec4(bestId[4], bestD[4], bestId[5], bestD[5]);
        vis4[2u * q + 3u] = uvec4(bestId[6], bestD[6], bestId[7], bestD[7]);
#else
        depth4[q] = uvec4(bestD[0], bestD[1], bestD[2], bestD[3]);
        depth4[q + 1u] = uvec4(bestD[4], bestD[5], bestD[6], bestD[7]);
#endif
        prim4[q] = uvec4(bestId[0], bestId[1], bestId[2], bestId[3]);
        prim4[q + 1u] = uvec4(bestId[4], bestId[5], bestId[6], bestId[7]);
#if SHADE
        // Each pixel of the row in turn, from registers: the shading from
        // records is short enough to repeat eight times.
        uint bg = packUnorm4x8(background);
#define SHADED(i) (bestId[i] == NO_PRIMITIVE ? bg : shadePixel(bestId[i], bestId[i], ivec2(org.x + i, py), size))
        rgba4[q] = uvec4(SHADED(0), SHADED(1), SHADED(2), SHADED(3));
        rgba4[q + 1u] = uvec4(SHADED(4), SHADED(5), SHADED(6), SHADED(7));
#undef SHADED
#endif
    }
#else
    for (int i = 0; i < TILE; i++) {
        int px = org.x + i;
        if (px < size.x && py < size.y) {
            uint pix = uint(py * size.x + px);
#if VIS64
            vis[2u * pix] = bestId[i];
            vis[2u * pix + 1u] = bestD[i];
#else
            depthBuf[pix] = bestD[i];
#endif
            primBuf[pix] = bestId[i];
        }
    }
#if SHADE
    // A loop of its own, which reads the ids back: the shading is too long
    // for the compiler to unroll the loop, and bestD and bestId indexed by
    // a variable would leave registers for memory that every access
    // above then goes through lane by lane (llvmpipe).
    for (int i = 0; i < TILE; i++) {
        int px = org.x + i;
        if (px < size.x && py < size.y) {
            uint pix = uint(py * size.x + px);
            uint prim = primBuf[pix];
            rgba[pix] = prim == NO_PRIMITIVE ? packUnorm4x8(background) : shadePixel(prim, prim, ivec2(px, py), size);
        }
    }
#endif
#endif
}
