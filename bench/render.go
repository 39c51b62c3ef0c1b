package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

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

// hwResult is the hardware pipeline's frame of a set at a view.
type hwResult struct {
	Time  Stats
	Agree float64 // fraction of covered pixels whose primitive ids equal the compute renderer's
}

// measureHardware draws the set with the GPU's own pipeline (vertex and
// fragment shaders, depth test) and compares its primitive ids with the
// compute renderer's last frame, prims.
func measureHardware(e *experiment, hw *rasterizer.HardwareRenderer, set int, v view.View, prims []uint32, warm, reps int) hwResult {
	m := e.sets[set]
	mvp := e.camera(v).MVP()
	for i := 0; i < warm; i++ {
		hw.RenderMesh(m, &mvp)
	}
	e.c.Finish()
	gpuTimes := make([]time.Duration, reps)
	walls := make([]time.Duration, reps)
	for i := 0; i < reps; i++ {
		start := time.Now()
		hw.RenderMesh(m, &mvp)
		e.c.Finish()
		walls[i] = time.Since(start)
		gpuTimes[i] = hw.Timer().Elapsed()
	}
	return hwResult{Time: summarize(gpuTimes, walls), Agree: rasterizer.AgreeFraction(prims, hw.Prims())}
}

func runRender(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	f := addExpFlags(fs, "render", renderDefaults)
	fs.Usage = usageFor(fs, "render", "Renders the balanced and unbalanced polygon sets of a dataset at the paper's views under each policy (and\n"+
		"Lanes value), and prints the frame time (GPU timestamps, wall time beside), the iterations and balancing\n"+
		"operations of both loops, and the GPU's own pipeline drawing the same triangles (its time, and the fraction of\n"+
		"covered pixels whose primitive ids agree with ours). Checks that every policy draws the same image. With -out,\n"+
		"writes one PNG per set and view. The costs come from -calibration, or are calibrated first.")
	if err := parseExp(fs, f, args); err != nil {
		return err
	}
	c, reduced, err := openExp(f, renderDefaults)
	if err != nil {
		return err
	}
	defer c.Delete()
	fmt.Fprintf(w, "render on %s (%s)\n", c.Caps().Renderer, c.Caps().Version)
	printReductions(w, c.Caps().Renderer, reduced)
	e, err := newExperiment(c, f)
	if err != nil {
		return err
	}
	defer e.delete()
	fmt.Fprintf(w, "dataset: %s\n", e.describe())
	pr := newProgress("render", calibrationSteps(f)+len(setNames)*len(f.viewList)*len(f.lanesList))
	lc, notes, err := loadOrCalibrate(e, f, pr)
	if err != nil {
		pr.clear()
		return err
	}
	cost := costs{Scan: lc[0].Cost, Z: lc[1].Cost}
	vis := "32-bit visibility: the loop's depth pass, then an id pass by load-balancing search"
	if e.r.Visibility64() {
		vis = "64-bit visibility"
	}
	fmt.Fprintf(w, "image %dx%d (%s); lanes %s; median of %d after %d warm-up; costs %.1f (scan conversion), %.1f (z-buffer) iterations\n",
		e.w, e.h, vis, f.lanes, f.reps, f.warmup, cost.Scan, cost.Z)
	for _, n := range notes {
		fmt.Fprintf(w, "  %s\n", n)
	}
	hw, err := rasterizer.NewHardwareRenderer(c, e.w, e.h)
	if err != nil {
		pr.clear()
		return err
	}
	defer hw.Delete()
	if err := e.warmUp(f.viewList[0], f.lanesList[0], cost); err != nil {
		pr.clear()
		return err
	}

	t := &resultTable{header: []string{"set", "view", "renderer", "lanes", "GPU ms", "wall ms", "spread", "scan iterations", "balances", "z iterations", "balances", "ids agree"}, left: 4}
	var ic imageCheck
	var differ, setup []string
	for set := range setNames {
		for vi, v := range f.viewList {
			for li, lanes := range f.lanesList {
				frs, err := e.measure(set, v, lanes, f.policyList, cost, f.warmup, f.reps, &ic)
				if err != nil {
					pr.clear()
					return err
				}
				if li == 0 && len(frs) > 0 {
					st := frs[0].Setup
					setup = append(setup, fmt.Sprintf("%-10s %-8s %7d triangles in: %d outside the view (idle processors), %d clipped, %d of zero area, %d not finite (skipped); %d set up",
						setNames[set], v.Name, st.Input, st.Outside, st.Clipped, st.ZeroArea, st.NonFinite, st.Output))
				}
				for i, fr := range frs {
					setName, viewName := "", ""
					if i == 0 && li == 0 {
						viewName = v.Name
						if vi == 0 {
							setName = setNames[set]
						}
					}
					t.add(setName, viewName, policyLabel(fr.Policy), lanesLabel(lanes), fmtMs(fr.Time.Median), fmtMs(fr.Time.Wall), fmt.Sprintf("%.0f%%", 100*fr.Time.Spread()),
						fmt.Sprint(fr.Scan.Iterations), fmt.Sprint(fr.Scan.Balances), fmt.Sprint(fr.Z.Iterations), fmt.Sprint(fr.Z.Balances), "")
					if !fr.Same {
						differ = append(differ, fmt.Sprintf("%s set at %s, lanes %s, %v: %d pixels differ", setNames[set], v.Name, lanesLabel(lanes), fr.Policy, fr.Differ))
					}
				}
				pr.step(fmt.Sprintf("%s %s lanes %s", setNames[set], v.Name, lanesLabel(lanes)))
			}
			// The GPU's pipeline against the compute renderer's last frame
			// (all frames are equal, as checked).
			h := measureHardware(e, hw, set, v, e.r.Prims(), f.warmup, f.reps)
			t.add("", "", "GL pipeline", "", fmtMs(h.Time.Median), fmtMs(h.Time.Wall), fmt.Sprintf("%.0f%%", 100*h.Time.Spread()), "", "", "", "", fmt.Sprintf("%.2f%%", 100*h.Agree))
		}
	}
	pr.clear()
	fmt.Fprintln(w)
	t.writeText(w)
	fmt.Fprintf(w, "  LB = CostEffective, OR = Never; GL pipeline = vertex + fragment shader with depth test into a framebuffer (rasterizer.HardwareRenderer);\n"+
		"  ids agree: covered pixels with the same primitive id as the compute renderer (edges may differ by the fill convention)\n")
	if c.Caps().Software {
		fmt.Fprintf(w, "  (a software renderer defers a draw's rasterization past its timestamps: compare the GL pipeline's wall time)\n")
	}
	fmt.Fprintf(w, "transform, clip and set-up:\n  %s\n", strings.Join(setup, "\n  "))
	if len(differ) > 0 {
		fmt.Fprintf(w, "THE IMAGES DIFFER between policies or Lanes values:\n  %s\n", strings.Join(differ, "\n  "))
	} else {
		fmt.Fprintf(w, "every policy and Lanes value drew the same image and primitive ids\n")
	}
	if f.out != "" {
		if err := os.MkdirAll(f.out, 0o755); err != nil {
			return fmt.Errorf("bench render: -out %s: %w", f.out, err)
		}
		var files []string
		for set := range setNames {
			for _, v := range f.viewList {
				if err := writePNG(f.out, imageName(setNames[set], v.Name), ic.pixels(set, v.Name), e.w, e.h, &files); err != nil {
					return err
				}
			}
		}
		fmt.Fprintf(w, "wrote %s to %s\n", strings.Join(files, ", "), f.out)
	}
	for _, m := range e.warnings.list() {
		fmt.Fprintf(w, "%s\n", m)
	}
	if len(differ) > 0 {
		return errors.New("bench render: the policies drew different images: the renderer is wrong")
	}
	return nil
}
