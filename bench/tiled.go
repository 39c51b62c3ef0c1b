package main

import (
	"fmt"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/bench/internal/experiment"
	"github.com/dpgl/dpgl/rasterizer/view"
)

// tiledLabel is the tiled path's row in bench render's table.
const tiledLabel = "tiled"

// tiledWarm is the fewest untimed frames before the tiled path's timed
// ones: it chooses its shading records and its culling pass from the frame
// before, so the first frame of a view decides and the second runs (and,
// on llvmpipe, compiles at its first dispatch) what the next ones run.
const tiledWarm = 2

// measureTiled renders a set at a view with the renderer's tiled path
// (rasterizer.Options.Tiled), the fastest configuration, after at least
// tiledWarm untimed frames, reps times; compares its image and primitive
// ids with the loops' (ic); and puts the loops back.
func measureTiled(e *experiment.Experiment, set int, v view.View, warm, reps int, ic *experiment.ImageCheck) (fr experiment.Frame, err error) {
	o := e.Renderer.Options()
	o.Tiled = true
	if err := e.Renderer.SetOptions(o); err != nil {
		return fr, err
	}
	defer func() {
		o.Tiled = false
		if serr := e.Renderer.SetOptions(o); err == nil {
			err = serr
		}
	}()
	fr = experiment.Frame{Set: set, View: v, Policy: balancer.Never}
	var gpuTimes, walls []time.Duration
	for k := 0; k < max(warm, tiledWarm)+reps; k++ {
		st, err := e.Render(set, v)
		if err != nil {
			return fr, err
		}
		if k >= max(warm, tiledWarm) {
			gpuTimes, walls = append(gpuTimes, st.Total), append(walls, st.Wall)
			fr.Stages = [4]time.Duration{st.SetupTime, st.ScanTime, st.ZBufferTime, st.ResolveTime}
			fr.Setup = st.Setup
		}
	}
	fr.Time = experiment.Summarize(gpuTimes, walls)
	ic.Compare(e.Renderer.Pixels(), e.Renderer.Prims(), &fr)
	return fr, nil
}

// tiledRatio is the tiled path's wall time over the GL pipeline's, as
// bench render's summary prints it, with the tiled frame's stages.
func tiledRatio(set int, v view.View, tiled experiment.Frame, gl Stats) string {
	s := tiled.Stages
	stages := fmt.Sprintf("setup %.1f, binning %.1f, tiles %.1f, shading %.1f", msOf(s[0]), msOf(s[1]), msOf(s[2]), msOf(s[3]))
	if s[3] == 0 {
		// One batch: the tile kernel shaded as it drew.
		stages = fmt.Sprintf("setup %.1f, binning %.1f, tiles and shading %.1f", msOf(s[0]), msOf(s[1]), msOf(s[2]))
	}
	return fmt.Sprintf("%-10s %-8s tiled %7.1f ms (%s), GL pipeline %7.1f ms (wall): %.2fx",
		setNames[set], v.Name, msOf(tiled.Time.Wall), stages, msOf(gl.Wall), float64(tiled.Time.Wall)/float64(max(gl.Wall, 1)))
}

func msOf(d time.Duration) float64 { return float64(d) / 1e6 }
