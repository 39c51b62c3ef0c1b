package rasterizer

import "github.com/dpgl/dpgl/gpu"

// The renderer's tuning: every choice that depends on the driver or on
// what the last frame measured, as a named policy with the reason it
// wins. What was tried, and what it measured on which driver, is in
// TUNING.md. The scans' small-input path is scan's (scan.Offsets).
//
// The choices here change the speed, never the image: every path and
// variant draws the same pixels and ids, bit for bit (the tests compare
// them with the overrides in testOptions).

// TileSize is the side, in pixels, of the tiled rasterizer's screen tiles
// (Options.Tiled): one work group of TileSize invocations a tile, one a
// row (1, 2, 4 or 8: tile.comp keeps a tile's pixels as the bits of 64).
// Smaller tiles test fewer pixels against each triangle and bin each
// triangle into more tiles; 8 draws the paper's datasets at 512x512
// fastest (bench render).
const TileSize = 8

// firstBinCap is the tiles' bins' first capacity (tiledStage.binCap), and
// maxBinBytes what all the bins may take: a frame whose busiest tile has
// more entries than its bin holds makes its lists by the counting sort,
// and the bins grow for the next frames while they stay within it. Bins
// filled by the setup pass save the counting sort's scan and pass.
const (
	firstBinCap = 64
	maxBinBytes = 32 << 20
)

// texelInputs says whether a stage reads its inputs (vertices, set-up
// triangles, spans, records, a scan's words) as buffer textures: where
// the driver's texel limit (16 bytes a texel) covers its largest storage
// block, so that any input fits, unless a test asked for storage blocks.
// A CPU driver gathers a texel for a SIMD vector's lanes at once, where a
// storage block's load is a scalar access per lane and word.
func texelInputs(c *gpu.Context, storageBlocks bool) (ok bool) {
	c.Do(func() { ok = !storageBlocks && int64(c.MaxTexels())*16 >= c.Caps().MaxSSBOSize })
	return ok
}

// lockstepTiles says whether the tile kernel drops its barriers
// (tile.comp LOCKSTEP): where the driver runs a tile's work group as one
// SIMD vector in lockstep (gpu.Caps.LockstepLanes), a barrier only costs
// its switch between the group's coroutines.
func lockstepTiles(caps *gpu.Caps, keepBarriers bool) bool {
	return caps.LockstepLanes >= TileSize && !keepBarriers
}

// cullPays says whether the tiled setup marks and lists the triangles not
// wholly outside the view first and sets up only those, given the last
// batch's triangles and those of them that were outside: where more than
// a quarter were, and some 2,000 more for the listing's fixed cost (a
// triangle outside costs the setup pass about 45% of one it sets up: the
// paper's balanced set at M(0,0) and M(45,45), half outside, gains; the
// unbalanced set's zoomed views, a fifth to a quarter outside, lose).
func cullPays(lastOutside, lastInput int) bool {
	return 4*lastOutside > lastInput+8192
}

// listTiles says whether the tile kernel runs a work group only for each
// of the nt tiles that holds a triangle (filled of them), by an indirect
// dispatch of their list, rather than one for every tile: not where
// nearly every tile holds one (zoomed views), whose list's reads cost
// more than the few empty tiles' passes, nor beyond the driver's work
// groups in one dimension (65535 on llvmpipe, a 2048 x 2048 image).
func listTiles(caps *gpu.Caps, nt, filled int) bool {
	return nt <= caps.MaxWorkGroupCount[0] && filled <= nt*7/8
}

// tiledRecordsPay says whether a tiled frame stores shading records,
// given the last tiled frame's set-up triangles and the pixels its tiles
// that hold a triangle shaded: where it shades at least as many pixels as
// it sets up triangles (the paper's unzoomed views shade about as many,
// the zoomed ones several times as many). The loops' resolve shades every
// pixel of the mesh's box, and always takes them.
func tiledRecordsPay(lastSetUp, lastShaded int) bool { return lastSetUp <= lastShaded }

// wholeRows says whether an image w pixels wide takes tile.comp's
// WHOLE_ROWS variant: its rows' words stored four to a vector.
func wholeRows(w int) bool { return TileSize == 8 && w%8 == 0 }

// testOptions are the overrides tests set on a renderer to reach a path
// or variant that the tuning would not take on this driver, and compare
// it with the one it takes. The zero value is what New makes. The ones
// marked "at New" are read when the renderer is made (newRenderer), the
// tiled ones when its tiled stage is (its first tiled frame), the others
// every frame.
type testOptions struct {
	// storageBlockInputs: the setup and resolve stages and the z-buffer
	// loop read their inputs as storage blocks (texelInputs), as on a
	// driver whose texel limit is below its storage blocks' size. At New.
	storageBlockInputs bool
	// emulateAtomic64 runs the one-pass 64-bit visibility path on a
	// driver with 64-bit integers but not 64-bit atomics, through
	// zbuffer.comp's lock-based stand-in for atomicMin (VIS64_EMULATE).
	// At New.
	emulateAtomic64 bool
	// tiledStorageBlocks: the tiled stages read their inputs as storage
	// blocks; tiledBarriers: the tile kernel keeps its barriers where the
	// driver runs its work groups in lockstep (lockstepTiles).
	tiledStorageBlocks, tiledBarriers bool
	// tiledCull overrides cullPays: 1 culls every batch whose view may
	// leave a triangle outside, -1 none; 0 leaves the choice to it.
	tiledCull int
	// resolveMergeApart: the 32-bit path's last batch merges its keys in
	// a pass of its own, not in the resolve pass.
	resolveMergeApart bool
	// resolveWholeImage: the resolve pass shades every pixel, whatever
	// the mesh's bounds (shadedBox).
	resolveWholeImage bool
	// shadeRecordsOff: frames shade without records, as for a mesh too
	// large for them.
	shadeRecordsOff bool
}
