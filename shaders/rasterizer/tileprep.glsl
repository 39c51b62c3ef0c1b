// The tiled rasterizer's per-triangle record (needs TILE defined) (rasterizer/tiled.go,
// tilebin.comp, tile.comp): what a tile needs of a set-up triangle, worked
// out once in the binning pass instead of once per tile it touches. Go
// mirror: rasterizer.tilePrep (64 bytes, std430).
//
// Edge e runs from vertex e+1 to vertex e+2 (raster's edges(), triSpan):
// E_e(P) = A_e*Px + B_e*Py + C_e = A_e*(Px - x_{e+1}) + B_e*(Py - y_{e+1})
// (makeEdge's C_e = -(A_e*x_{e+1} + B_e*y_{e+1})). A pixel centre is
// covered when E_e + bias_e >= 0 for the three edges; the depth there is
// triDepth's, z0 + floorDiv((E_1 >> s)*(z1 - z0) + (E_2 >> s)*(z2 - z0),
// area2 >> s). The record keeps vertex 0 alone: A_e = y_{e+1} - y_{e+2} and
// B_e = x_{e+2} - x_{e+1} give the others, and A_1*B_2 - A_2*B_1 is area2,
// so that it is 16 words, not the 24 that the Cs and the area would make
// it (a lane stores and loads a record a word at a time on llvmpipe).
struct Prep {
    ivec4 a; // A0, A1, A2, s (the depth's shift, raster.depthAreaBits; >= 0)
    ivec4 b; // B0, B1, B2, bit e set when edge e's bias is -1
    ivec4 z; // z0, z1 - z0, z2 - z0, primitive id
    // x0, y0 of vertex 0 (1/256 pixel); the box the covered pixel centres
    // lie within, x0 | x1 << 16 and y0 | y1 << 16 (prepBox).
    ivec4 v;
};

int prepBias(Prep p, int e) { return -((p.b.w >> e) & 1); }

// prepBox is the box of p: x0, x1, y0, y1, empty when x1 < x0 or y1 < y0.
ivec4 prepBox(Prep p) {
    uvec2 w = uvec2(p.v.zw);
    return ivec4(w.x & 0xffffu, w.x >> 16, w.y & 0xffffu, w.y >> 16);
}

// prepVertex is vertex k of p (1/256 pixel).
ivec2 prepVertex(Prep p, int k) {
    if (k == 1) return p.v.xy + ivec2(p.b.z, -p.a.z);
    if (k == 2) return p.v.xy + ivec2(-p.b.y, p.a.y);
    return p.v.xy;
}

// prepE is E_e at (px, py), 1/256 pixel.
int64_t prepE(Prep p, int e, int64_t px, int64_t py) {
    ivec2 v = prepVertex(p, (e + 1) % 3);
    return int64_t(p.a[e]) * (px - int64_t(v.x)) + int64_t(p.b[e]) * (py - int64_t(v.y));
}

// prepArea is area2 >> s.
int64_t prepArea(Prep p) {
    return (int64_t(p.a.y) * int64_t(p.b.z) - int64_t(p.a.z) * int64_t(p.b.y)) >> p.a.w;
}

// makePrep works out the record of set-up triangle t.
Prep makePrep(Tri t, int width) {
    Prep p;
    ivec2 v[3] = ivec2[3](t.v01.xy, t.v01.zw, t.v2a.xy);
    int biasBits = 0;
    for (int e = 0; e < 3; e++) {
        Edge ed = makeEdge(v[(e + 1) % 3], v[(e + 2) % 3]);
        // |A|, |B| <= 2^22 within the guard band: 32 bits hold them.
        p.a[e] = int(ed.A);
        p.b[e] = int(ed.B);
        if (unpackInt2x32(ed.bias).y < 0) biasBits |= 1 << e;
    }
    p.b.w = biasBits;
    int64_t a = triArea2(t);
    ivec2 aw = unpackInt2x32(a);
    int len = aw.y != 0 ? 33 + findMSB(aw.y) : 1 + findMSB(uint(aw.x));
    int s = max(len - 36, 0);
    p.a.w = s;
    p.z = ivec4(int(t.z.x), int(t.z.y) - int(t.z.x), int(t.z.z) - int(t.z.x), int(t.z.w));
    int xmin = min(v[0].x, min(v[1].x, v[2].x));
    int xmax = max(v[0].x, max(v[1].x, v[2].x));
    int x0 = int(max64(ceilDiv(int64_t(xmin) - int64_t(SUBPIXEL / 2), int64_t(SUBPIXEL)), int64_t(0)));
    int x1 = int(min64(floorDiv(int64_t(xmax) - int64_t(SUBPIXEL / 2), int64_t(SUBPIXEL)), int64_t(width - 1)));
    // A box that is not empty lies within the image, below 2^16 a side.
    if (x1 < x0 || t.rows.y < t.rows.x) {
        p.v = ivec4(v[0], 1, 1);
    } else {
        p.v = ivec4(v[0], x0 | x1 << 16, t.rows.x | t.rows.y << 16);
    }
    return p;
}

#ifndef ROW_AREA2
// A set-up triangle whose area2 is at least ROW_AREA2 (128 pixels of
// area) and below 2^36 (so that the depth's shift is 0) is large: the
// tile kernel draws it a row of the tile a lane (tile.comp), the others a
// triangle a lane.
#define ROW_AREA2 16777216.0
#endif
bool prepLarge(Prep p) {
    // area2 = A_1*B_2 - A_2*B_1 (prepArea), in doubles: the products of
    // 32-bit words and their difference are exact.
    double a = double(p.a.y) * double(p.b.z) - double(p.a.z) * double(p.b.y);
    return a >= ROW_AREA2 && a < 68719476736.0;
}

// Reach is what prepReaches needs of a record beyond it, worked out once
// for all the tiles it is asked about: per edge e, the least m_e =
// A_e*dx + B_e*dy over pixel centres dx, dy pixels from the box's first
// one for which that centre is on the inner side. E_e there is E_e(box
// corner) + 256 m_e, so E_e + bias_e >= 0 exactly when m_e >= -floor((E_e(box
// corner) + bias_e) / 256). m_e and the threshold are integers below 2^45
// in magnitude: doubles hold them, and the test costs a multiply-add of
// doubles a tile rather than 64-bit integer products.
struct Reach {
    dvec3 thr;
};

Reach makeReach(Prep p, ivec4 box) {
    Reach r;
    int64_t px = int64_t(box.x) * int64_t(SUBPIXEL) + int64_t(SUBPIXEL / 2);
    int64_t py = int64_t(box.z) * int64_t(SUBPIXEL) + int64_t(SUBPIXEL / 2);
    for (int e = 0; e < 3; e++) {
        int64_t k = prepE(p, e, px, py) + int64_t(prepBias(p, e));
        r.thr[e] = i64Double(-(k >> 8));
    }
    return r;
}

// prepReaches says whether tile (tx, ty), TILE pixels a side, holds a pixel
// centre within p's box that each of p's edges' half-planes holds too: each
// edge function is largest at a corner of the box's part in the tile, the
// one its A and B point to. (A conservative test: tile.comp decides the
// pixels.) Long thin triangles across the screen reach far fewer tiles than
// their boxes do. box is prepBox(p), r makeReach(p, box).
bool prepReaches(Prep p, ivec4 box, Reach r, int tx, int ty) {
    int cx0 = max(tx * TILE, box.x), cx1 = min(tx * TILE + TILE - 1, box.y);
    int cy0 = max(ty * TILE, box.z), cy1 = min(ty * TILE + TILE - 1, box.w);
    bool reaches = true;
    for (int e = 0; e < 3; e++) {
        int cx = p.a[e] > 0 ? cx1 : cx0;
        int cy = p.b[e] > 0 ? cy1 : cy0;
        reaches = reaches && double(p.a[e]) * double(cx - box.x) + double(p.b[e]) * double(cy - box.z) >= r.thr[e];
    }
    return reaches;
}

// reachRow narrows the tiles of row ty that prepReaches is asked about to
// [tx0, tx1], a superset of those it says yes to (so the loops over them
// find the same tiles as a loop over the box's row): per edge, the tile's
// test holds only when the largest A_e*dx over its columns reaches thr_e
// less the largest B_e*dy over the row's pixel rows, which bounds dx from
// one side. A pixel of slack each side covers the doubles' rounding. Long
// thin triangles across the box then cost a few tiles a row, not the box's
// width.
void reachRow(Prep p, ivec4 box, Reach r, int ty, out int tx0, out int tx1) {
    double dy0 = double(max(ty * TILE, box.z) - box.z);
    double dy1 = double(min(ty * TILE + TILE - 1, box.w) - box.z);
    double w = double(box.y - box.x);
    double lo = 0.0, hi = w;
    for (int e = 0; e < 3; e++) {
        double b = double(p.b[e]);
        double need = r.thr[e] - max(b * dy0, b * dy1); // A_e * dx >= need
        if (p.a[e] > 0) {
            lo = max(lo, need / double(p.a[e]));
        } else if (p.a[e] < 0) {
            hi = min(hi, need / double(p.a[e]));
        } else if (need > 0.0) {
            hi = -2.0;
        }
    }
    // Clamped before the conversion: far triangles' bounds overflow ints.
    int x0 = int(floor(clamp(lo, -1.0, w + 1.0))) - 1;
    int x1 = int(ceil(clamp(hi, -2.0, w + 1.0))) + 1;
    tx0 = (box.x + max(x0, 0)) / TILE;
    tx1 = x1 < x0 ? tx0 - 1 : (box.x + min(x1, box.y - box.x)) / TILE;
}

#ifdef REACHED_TILE
// Walk is what the binning walks need of a record: its box (prepBox),
// Reach, and class (large, and cls: numTiles for a large triangle, 0 for
// the others).
struct Walk {
    ivec4 box;
    Reach r;
    bool large;
    uint cls;
};

// walkOf is record p's Walk, false for an empty box, which reaches no tile.
bool walkOf(Prep p, uint numTiles, out Walk w) {
    w.box = prepBox(p);
    w.large = prepLarge(p);
    w.cls = w.large ? numTiles : 0u;
    if (w.box.y < w.box.x || w.box.w < w.box.z) return false;
    w.r = makeReach(p, w.box);
    return true;
}

// eachReachedTile calls REACHED_TILE(tile, cls, large, slot) once for every
// tile (y * tilesX + x) that record slot p reaches (prepReaches), cls being
// numTiles for a large triangle (prepLarge), whose counts follow the
// others', and 0 for the others: the binning passes' one loop
// (tilesetup.comp counts and fills the bins, tilebin.comp the lists), in
// two loops of at most tilesX and tilesY steps each (a driver may cut one
// loop's iterations; gpu.Caps.LoopLimit). REACH_BOX 1 (tests) takes the
// box's whole row, which reachRow narrows.
#ifndef REACH_BOX
#define REACH_BOX 0
#endif
void eachReachedTile(Prep p, uint slot, int tilesX, uint numTiles) {
    Walk w;
    if (!walkOf(p, numTiles, w)) return;
    for (int ty = w.box.z / TILE; ty <= w.box.w / TILE; ty++) {
        int tx0, tx1;
#if REACH_BOX
        tx0 = w.box.x / TILE;
        tx1 = w.box.y / TILE;
#else
        reachRow(p, w.box, w.r, ty, tx0, tx1);
#endif
        for (int tx = tx0; tx <= tx1; tx++) {
            if (prepReaches(p, w.box, w.r, tx, ty)) REACHED_TILE(uint(ty * tilesX + tx), w.cls, w.large, slot);
        }
    }
}

// prepNear says whether box (prepBox) is empty or lies within the 2x2
// tiles from its first: eachNearTile's records.
bool prepNear(ivec4 box) {
    return box.y < box.x || box.w < box.z || (box.y / TILE <= box.x / TILE + 1 && box.w / TILE <= box.z / TILE + 1);
}

// eachNearTile is eachReachedTile for a record whose box is empty or
// prepNear: the same tiles, its box's (at most four) tested in turn,
// written out with no loop. (llvmpipe runs the code in a loop by a slower
// path, and a loop's body once even where it takes no step: the setup
// pass at the paper's unzoomed balanced view, nearly all of whose records
// are near, took 13% less time binning them this way.)
void eachNearTile(Prep p, uint slot, int tilesX, uint numTiles) {
    Walk w;
    if (!walkOf(p, numTiles, w)) return;
    int tx = w.box.x / TILE, ty = w.box.z / TILE;
    bool wide = w.box.y / TILE > tx, tall = w.box.w / TILE > ty;
    if (prepReaches(p, w.box, w.r, tx, ty)) REACHED_TILE(uint(ty * tilesX + tx), w.cls, w.large, slot);
    if (wide && prepReaches(p, w.box, w.r, tx + 1, ty)) REACHED_TILE(uint(ty * tilesX + tx + 1), w.cls, w.large, slot);
    if (tall && prepReaches(p, w.box, w.r, tx, ty + 1)) REACHED_TILE(uint((ty + 1) * tilesX + tx), w.cls, w.large, slot);
    if (wide && tall && prepReaches(p, w.box, w.r, tx + 1, ty + 1)) REACHED_TILE(uint((ty + 1) * tilesX + tx + 1), w.cls, w.large, slot);
}
#endif
