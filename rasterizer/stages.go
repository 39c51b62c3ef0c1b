package rasterizer

import (
	"fmt"
	"time"

	"github.com/dpgl/dpgl/gpu"
)

// The stages of a frame, in the order Render runs them. Each batch of
// triangles goes through the first eight (setup.go, scanconv.go,
// zbuffer.go, with prepare.go's small kernels between them); the frame
// then ends with the last two (prepare.go, resolve.go). Each stage's GPU
// time is taken between a pair of timestamps (FrameStats.Stages).
//
//	triangles ─TransformClip, Setup─▶ set-up triangles, rows each
//	          ─ScanPrepare, ScanLoop─▶ spans
//	          ─ZPrepare, ZLoop, Merge | IDPass─▶ visibility
//	          ─Extract, Resolve─▶ image
type Stage int

const (
	// StageTransformClip is setup.comp's counting passes (transform, clip
	// and count the set-up triangles of each input triangle), the counts'
	// exclusive scan and their total, read back to size the batch.
	StageTransformClip Stage = iota
	// StageSetup is setup.comp's emitting passes (the set-up triangles and
	// their rows), the span offsets (the rows' exclusive scan), and the
	// skip statistics and the spans' total, read back.
	StageSetup
	// StageScanPrepare is the scan-conversion loop's processors
	// (prepare.comp SCAN_PROBLEMS).
	StageScanPrepare
	// StageScanLoop is the scan-conversion loop, its phases in
	// FrameStats.ScanConversion.
	StageScanLoop
	// StageZPrepare is the visibility buffer cleared (once a frame), the
	// spans made the z-buffer loop's processors (SPAN_PROBLEMS), the
	// pixels counted and, on the 32-bit path, each span's first test (the
	// lengths' exclusive scan).
	StageZPrepare
	// StageZLoop is the z-buffer loop, its phases in FrameStats.ZBuffer.
	StageZLoop
	// StageMerge is the batch's winners merged into the visibility buffer
	// after each batch: the 32-bit path's (MERGE_KEYS, before the next
	// batch's z-buffer loop; the last batch's is the resolve pass's where
	// the mesh is one block and the width a multiple of 4) and the
	// emulated 64-bit path's (MERGE_WINNERS; tests only).
	StageMerge
	// StageIDPass is the 32-bit path's fallback's primitive-id pass, its
	// processors loaded again: its phases in FrameStats.ZBufferIDs.
	StageIDPass
	// StageExtract is the 64-bit path's primitive ids taken out of the
	// visibility words (EXTRACT_PRIMS), once a frame.
	StageExtract
	// StageResolve is the shading of every pixel (resolve.comp), and on
	// the 32-bit path the last batch's merge with it (resolve.comp MERGE).
	StageResolve

	// The tiled path's stages (Options.Tiled, tiled.go), in place of the
	// first eight.

	// StageTileSetup is tilesetup.comp's one pass (transform, clip, set
	// up, each triangle's record and its tiles counted) and its counter
	// read back.
	StageTileSetup
	// StageTileLists is the tile counts' total and scan and tilebin.comp's
	// tile lists, where a tile's bin overflowed (else nothing: the setup
	// pass filled the bins).
	StageTileLists
	// StageTiles is tile.comp, the tiles' depth tests, and in a frame of
	// one batch the shading too (no StageZPrepare or StageResolve then).
	StageTiles

	NumStages // the number of stages
)

var stageNames = [NumStages]string{"transform+clip", "setup", "scan prepare", "scan loop", "z prepare", "z loop", "merge", "id pass", "extract ids", "resolve",
	"tile setup", "tile lists", "tiles"}

func (s Stage) String() string {
	if s >= 0 && s < NumStages {
		return stageNames[s]
	}
	return fmt.Sprintf("Stage(%d)", int(s))
}

// StageTimes is the GPU time of each stage of a frame, summed over its
// batches; a stage the frame did not run (the id pass on the 64-bit path,
// the loops of an empty mesh) has 0.
type StageTimes [NumStages]time.Duration

// Sum is the frame's GPU time: every stage's added.
func (t StageTimes) Sum() time.Duration {
	var s time.Duration
	for _, d := range t {
		s += d
	}
	return s
}

// stageClock times the stages with one pair of timestamps each. A stage
// records its pair around its commands (stageTimer.timed); the frame reads
// the stages that ran once their work is queued (stageTimer.read), so the
// host waits for the GPU once a batch, not once a stage.
type stageClock struct {
	timers [NumStages]*gpu.Timer
	ran    uint32 // bit s: stage s recorded since the last read
}

func newStageClock(c *gpu.Context) *stageClock {
	k := &stageClock{}
	for i := range k.timers {
		k.timers[i] = c.NewTimer()
	}
	return k
}

// keep adds stage s's last time to t before the stage runs again unread
// (setup's attempt at a batch too large for a storage block).
func (k *stageClock) keep(s Stage, t *StageTimes) {
	if k.ran&(1<<s) != 0 {
		t[s] += k.timers[s].Elapsed()
		k.ran &^= 1 << s
	}
}

// read adds the GPU time of each stage that ran since the last read to t.
func (k *stageClock) read(t *StageTimes) {
	for s := range k.timers {
		if k.ran&(1<<s) != 0 {
			t[s] += k.timers[s].Elapsed()
		}
	}
	k.ran = 0
}

// stageTimer is what a stage is given to time its commands: the
// renderer's clock and the frame's StageTimes, which it adds to.
type stageTimer struct {
	c *gpu.Context
	k *stageClock
	t *StageTimes
}

// timed issues stage s's commands, fn, between the stage's timestamps.
func (tm stageTimer) timed(s Stage, fn func() error) error {
	tm.k.keep(s, tm.t)
	tm.c.Do(tm.k.timers[s].Start)
	err := fn()
	tm.c.Do(tm.k.timers[s].Stop)
	tm.k.ran |= 1 << s
	return err
}

// timedGL is timed for a stage's commands that cannot fail, issued on the
// GL thread.
func (tm stageTimer) timedGL(s Stage, fn func()) {
	tm.k.keep(s, tm.t)
	tm.c.Do(func() {
		tm.k.timers[s].Start()
		fn()
		tm.k.timers[s].Stop()
	})
	tm.k.ran |= 1 << s
}

// read adds the times of the stages that ran since the last read.
func (tm stageTimer) read() { tm.k.read(tm.t) }

func (k *stageClock) delete() {
	if k == nil {
		return
	}
	for _, t := range k.timers {
		if t != nil {
			t.Delete()
		}
	}
}
