package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dpgl/dpgl/bench/internal/experiment"
	"github.com/dpgl/dpgl/internal/fileio"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/view"
)

func init() {
	commands["render"] = command{runRender, "render the balanced and unbalanced sets at the paper's views under each policy, beside the GPU's own pipeline"}
}

var renderDefaults = expDefaults{
	lanes: "all", policies: "Never,CostEffective,Bounded", out: "", warmup: 1, reps: 5,
	softRes: paperDefaults.softRes, softSize: paperDefaults.softSize, softWarmup: 0, softReps: 1, softLanes: "all",
}

const renderHelp = "Renders the balanced and unbalanced polygon sets of a dataset at the paper's views under each policy (and\n" +
	"Lanes value), and prints the frame time (GPU timestamps, wall time beside), the iterations and balancing\n" +
	"operations of both loops, and the GPU's own pipeline drawing the same triangles (its time, and the fraction of\n" +
	"covered pixels whose primitive ids agree with ours). Checks that every policy draws the same image. With -out,\n" +
	"writes one PNG per set and view. The costs come from -calibration, or are calibrated first."

// hwResult is the hardware pipeline's frame of a set at a view.
type hwResult struct {
	Time  Stats
	Agree float64 // fraction of covered pixels whose primitive ids equal the compute renderer's
}

// renderView is one set at one view: the compute renderer's frames under
// each Lanes value and policy, and the GL pipeline's.
type renderView struct {
	Set    int
	View   view.View
	Frames [][]experiment.Frame // by Lanes value, then policy
	Tiled  experiment.Frame     // the tiled path (rasterizer.Options.Tiled)
	HW     hwResult
	// ReadBack is the host's time to read the image back (Renderer.Pixels).
	ReadBack time.Duration
}

// renderRun is what bench render measured.
type renderRun struct {
	Views    []renderView
	Images   experiment.ImageCheck
	Width    int
	Height   int
	Software bool
	Costs    [2]experiment.LoopCost
	Warnings []string // the balancer's
}

// measureHardware draws the set with the GPU's own pipeline (vertex and
// fragment shaders, depth test) and compares its primitive ids with the
// compute renderer's last frame, prims.
func measureHardware(e *experiment.Experiment, hw *rasterizer.HardwareRenderer, set int, v view.View, prims []uint32, warm, reps int) hwResult {
	m := e.Sets[set]
	mvp := e.Camera(v).MVP()
	for i := 0; i < warm; i++ {
		hw.RenderMesh(m, &mvp)
	}
	e.Context.Finish()
	gpuTimes := make([]time.Duration, reps)
	walls := make([]time.Duration, reps)
	for i := 0; i < reps; i++ {
		start := time.Now()
		hw.RenderMesh(m, &mvp)
		e.Context.Finish()
		walls[i] = time.Since(start)
		gpuTimes[i] = hw.Timer().Elapsed()
	}
	return hwResult{Time: summarize(gpuTimes, walls), Agree: rasterizer.AgreeFraction(prims, hw.Prims())}
}

func runRender(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	f := addExpFlags(fs, "render", renderDefaults)
	fs.Usage = usageFor(fs, "render", renderHelp)
	if err := parseExp(fs, f, args); err != nil {
		return err
	}
	run, err := renderExperiment(f, w)
	if err != nil {
		return err
	}
	differ := printRender(w, run)
	if f.out != "" {
		if err := writeImages(f.out, f.viewList, run.Images.Pixels, run.Width, run.Height, w); err != nil {
			return err
		}
	}
	for _, m := range run.Warnings {
		fmt.Fprintf(w, "%s\n", m)
	}
	if len(differ) > 0 {
		return errors.New("bench render: the policies drew different images: the renderer is wrong")
	}
	return nil
}

// renderExperiment builds the dataset the flags name and measures it,
// printing what it is about to do as it goes.
func renderExperiment(f *expFlags, w io.Writer) (*renderRun, error) {
	c, reduced, err := openExp(f, renderDefaults)
	if err != nil {
		return nil, err
	}
	defer c.Delete()
	fmt.Fprintf(w, "render on %s (%s)\n", c.Caps().Renderer, c.Caps().Version)
	printReductions(w, c.Caps().Renderer, reduced)
	e, err := openExperiment(c, f)
	if err != nil {
		return nil, err
	}
	defer e.Delete()
	fmt.Fprintf(w, "dataset: %s\n", e.Describe())
	for _, m := range e.DatasetWarnings(f.reduction) {
		warnf(w, "%s", m)
	}
	run, err := measureRender(e, f, w)
	if err != nil {
		return nil, err
	}
	run.Warnings = e.Warnings()
	return run, nil
}

// measureRender takes the costs and renders every set, view, Lanes value
// and policy, and the GL pipeline's frame of each set and view.
func measureRender(e *experiment.Experiment, f *expFlags, w io.Writer) (*renderRun, error) {
	cc := f.calibration()
	pr := newProgress("render", cc.Steps()+len(setNames)*len(f.viewList)*len(f.lanesList))
	defer pr.clear()
	lc, notes, err := e.LoadOrCalibrate(&cc, pr.stepN)
	if err != nil {
		return nil, err
	}
	cost := experiment.Costs{Scan: lc[0].Cost, Z: lc[1].Cost}
	vis := "32-bit visibility: a depth filter, then the nearest tests' keys by compare-and-swap, in the loop's one pass"
	if e.Renderer.Visibility64() {
		vis = "64-bit visibility"
	}
	fmt.Fprintf(w, "image %dx%d (%s); lanes %s; median of %d after %d warm-up; costs %.1f (scan conversion), %.1f (z-buffer) iterations; %s\n",
		e.Width, e.Height, vis, f.lanes, f.reps, f.warmup, cost.Scan, cost.Z, stepsLine(f.lockstep))
	for _, n := range notes {
		fmt.Fprintf(w, "  %s\n", n)
	}
	hw, err := rasterizer.NewHardwareRenderer(e.Context, e.Width, e.Height)
	if err != nil {
		return nil, err
	}
	defer hw.Delete()
	if err := e.WarmUp(f.viewList[0], f.lanesList[0], cost); err != nil {
		return nil, err
	}
	run := &renderRun{Width: e.Width, Height: e.Height, Software: e.Context.Caps().Software, Costs: lc}
	for set := range setNames {
		for _, v := range f.viewList {
			rv := renderView{Set: set, View: v}
			for _, lanes := range f.lanesList {
				frs, err := e.Measure(set, v, lanes, f.policyList, cost, f.warmup, f.reps, &run.Images)
				if err != nil {
					return nil, err
				}
				rv.Frames = append(rv.Frames, frs)
				pr.step(fmt.Sprintf("%s %s lanes %s", setNames[set], v.Name, lanesLabel(lanes)))
			}
			rv.ReadBack = timeReadBack(e.Renderer)
			if rv.Tiled, err = measureTiled(e, set, v, f.warmup, f.reps, &run.Images); err != nil {
				return nil, err
			}
			// The GPU's pipeline against the compute renderer's last frame
			// (all frames are equal, as checked).
			rv.HW = measureHardware(e, hw, set, v, e.Renderer.Prims(), f.warmup, f.reps)
			run.Views = append(run.Views, rv)
		}
	}
	return run, nil
}

// printRender prints the table of frames, the set-up counts and the image
// check, and returns the frames whose images differ.
func printRender(w io.Writer, run *renderRun) (differ []string) {
	t := &resultTable{header: []string{"set", "view", "renderer", "lanes", "GPU ms", "wall ms", "spread", "scan iterations", "balances", "z iterations", "balances", "ids agree"}, left: 4}
	var setup, ratios []string
	for vi, rv := range run.Views {
		for li, frs := range rv.Frames {
			if li == 0 && len(frs) > 0 {
				st := frs[0].Setup
				setup = append(setup, fmt.Sprintf("%-10s %-8s %7d triangles in: %d outside the view (idle processors), %d clipped, %d of zero area, %d not finite (skipped); %d set up",
					setNames[rv.Set], rv.View.Name, st.Input, st.Outside, st.Clipped, st.ZeroArea, st.NonFinite, st.Output))
			}
			for i, fr := range frs {
				setName, viewName := "", ""
				if i == 0 && li == 0 {
					viewName = rv.View.Name
					if vi == 0 || run.Views[vi-1].Set != rv.Set {
						setName = setNames[rv.Set]
					}
				}
				t.add(setName, viewName, policyLabel(fr.Policy), lanesLabel(fr.Lanes), fmtMs(fr.Time.Median), fmtMs(fr.Time.Wall), fmt.Sprintf("%.0f%%", 100*fr.Time.Spread()),
					fmt.Sprint(fr.Scan.Iterations), fmt.Sprint(fr.Scan.Balances), fmt.Sprint(fr.Z.Iterations), fmt.Sprint(fr.Z.Balances), "")
				if !fr.Same {
					differ = append(differ, fmt.Sprintf("%s set at %s, lanes %s, %v: %d pixels differ", setNames[rv.Set], rv.View.Name, lanesLabel(fr.Lanes), fr.Policy, fr.Differ))
				}
			}
		}
		tf := rv.Tiled
		t.add("", "", tiledLabel, "", fmtMs(tf.Time.Median), fmtMs(tf.Time.Wall), fmt.Sprintf("%.0f%%", 100*tf.Time.Spread()), "", "", "", "", "")
		if !tf.Same {
			differ = append(differ, fmt.Sprintf("%s set at %s, %s: %d pixels differ", setNames[rv.Set], rv.View.Name, tiledLabel, tf.Differ))
		}
		ratios = append(ratios, tiledRatio(rv.Set, rv.View, tf, rv.HW.Time))
		h := rv.HW
		t.add("", "", "GL pipeline", "", fmtMs(h.Time.Median), fmtMs(h.Time.Wall), fmt.Sprintf("%.0f%%", 100*h.Time.Spread()), "", "", "", "", fmt.Sprintf("%.2f%%", 100*h.Agree))
	}
	fmt.Fprintln(w)
	t.writeText(w)
	printRenderNotes(w, run.Software, setup, differ)
	writeStageBreakdown(w, run)
	fmt.Fprintf(w, "the fastest configuration, tiled (rasterizer.Options.Tiled: triangles binned by %dx%d tile, no loops), against the GL pipeline:\n  %s\n",
		rasterizer.TileSize, rasterizer.TileSize, strings.Join(ratios, "\n  "))
	return differ
}

func printRenderNotes(w io.Writer, software bool, setup, differ []string) {
	fmt.Fprintf(w, "  LB = CostEffective, OR = Never; GL pipeline = vertex + fragment shader with depth test into a framebuffer (rasterizer.HardwareRenderer);\n"+
		"  ids agree: covered pixels with the same primitive id as the compute renderer (edges may differ by the fill convention)\n")
	if software {
		fmt.Fprintf(w, "  (a software renderer defers a draw's rasterization past its timestamps: compare the GL pipeline's wall time)\n")
	}
	fmt.Fprintf(w, "transform, clip and set-up:\n  %s\n", strings.Join(setup, "\n  "))
	if len(differ) > 0 {
		fmt.Fprintf(w, "THE IMAGES DIFFER between policies or Lanes values:\n  %s\n", strings.Join(differ, "\n  "))
	} else {
		fmt.Fprintf(w, "every policy and Lanes value, and the tiled path, drew the same image and primitive ids\n")
	}
}

// writeImages writes one PNG per set and view to dir, all or none
// (fileio.Batch).
func writeImages(dir string, views []view.View, pixels func(set int, view string) []uint32, width, height int, w io.Writer) error {
	out, err := fileio.NewBatch(dir)
	if err != nil {
		return fmt.Errorf("bench render: -out %s: %w", dir, err)
	}
	defer out.Abort() // after Commit, nothing to remove
	var files []string
	for set := range setNames {
		for _, v := range views {
			if err := writePNG(out, imageName(setNames[set], v.Name), pixels(set, v.Name), width, height, &files); err != nil {
				return err
			}
		}
	}
	if err := out.Commit(); err != nil {
		return fmt.Errorf("bench render: writing results: %w", err)
	}
	fmt.Fprintf(w, "wrote %s to %s\n", strings.Join(files, ", "), dir)
	return nil
}
