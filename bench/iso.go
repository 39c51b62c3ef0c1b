package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/internal/cliflag"
	"github.com/dpgl/dpgl/rasterizer/dataset"
	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

func init() {
	commands["iso"] = command{runIso, "GPU marching cubes throughput, and the balanced/unbalanced datasets' Table-1 workloads"}
}

// isoResult is one extraction's timing.
type isoResult struct {
	N         int // samples per axis
	Triangles int
	GPU       Stats         // classify + scan + generate
	CPU       time.Duration // isosurface.MarchingCubes, for comparison
}

// measureIso times the GPU extraction of f at n^3 (the output buffers sized
// by a first run, so the timed runs only dispatch) and the CPU reference.
func measureIso(c *gpu.Context, e *isosurface.Extractor, f volume.Field, n, warm, reps int, cpu bool) (isoResult, error) {
	r := isoResult{N: n}
	// Checked before sampling: a grid the GPU cannot hold would take
	// minutes and gigabytes to sample first.
	if err := volume.CheckStorage([3]int{n, n, n}, c.Caps().MaxSSBOSize); err != nil {
		return r, fmt.Errorf("bench: iso -sizes %d: %w", n, err)
	}
	v, err := f.SampleGrid([3]int{n, n, n})
	if err != nil {
		return r, fmt.Errorf("bench: iso -sizes %d: %w", n, err)
	}
	gv, err := volume.Upload(c, v)
	if err != nil {
		return r, err
	}
	defer gv.Delete()
	m, err := e.Extract(nil, gv, f.Iso)
	if err != nil {
		return r, err
	}
	defer m.Delete()
	r.Triangles = m.N
	var dispatchErr error
	r.GPU = timeGPU(c, warm, reps, func() {
		if err := e.Dispatch(m, gv, f.Iso); err != nil {
			dispatchErr = err
		}
	})
	if dispatchErr != nil {
		return r, dispatchErr
	}
	if got := e.Count(); got != r.Triangles {
		return r, fmt.Errorf("bench: iso %d^3: %d triangles in a timed run, %d in the first", n, got, r.Triangles)
	}
	if cpu {
		start := time.Now()
		ref := isosurface.MarchingCubes(v, f.Iso)
		r.CPU = time.Since(start)
		if ref.Len() != r.Triangles {
			return r, fmt.Errorf("bench: iso %d^3: GPU made %d triangles, CPU %d", n, r.Triangles, ref.Len())
		}
	}
	return r, nil
}

func parseResolutions(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 2 {
			return nil, fmt.Errorf("%q is not a grid size of at least 2", f)
		}
		out = append(out, n)
	}
	return out, nil
}

func runIso(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("iso", flag.ContinueOnError)
	sizes := fs.String("sizes", "", "grid sizes per axis to extract, comma-separated (default 128,256; 128 alone on a software renderer)")
	field := fs.String("field", volume.Default().Name, "built-in field to extract (perforator, marschner-lobb, sphere, torus, gyroid)")
	cpu := fs.Bool("cpu", true, "also time the CPU reference (and check its triangle count)")
	table := fs.Bool("table", true, "print the default dataset's Table-1 workloads")
	var res, width, height int
	cliflag.Int(fs, &res, "res", dataset.DefaultResolution, "grid size of the Table-1 dataset", 2, math.MaxInt)
	cliflag.Int(fs, &width, "width", 512, "image width for Table 1", 1, raster.MaxImageSize)
	cliflag.Int(fs, &height, "height", 512, "image height for Table 1", 1, raster.MaxImageSize)
	cf := addCommonFlags(fs, 1, 3)
	fs.Usage = usageFor(fs, "iso", "Times marching cubes on the GPU (classify, exclusive scan, generate) on a built-in field, "+
		"and prints the paper's Table 1 for the balanced (marching cubes) and unbalanced (decimated) polygon sets of the default dataset.")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	f, err := volume.ByName(*field)
	if err != nil {
		return fmt.Errorf("bench iso: %w", cliflag.Errorf("field", *field, "%v", err))
	}
	list := []int{128, 256}
	if *sizes != "" {
		if list, err = parseResolutions(*sizes); err != nil {
			return fmt.Errorf("bench iso: %w", cliflag.Errorf("sizes", *sizes, "%v", err))
		}
	}
	if *table {
		if err := volume.CheckGrid([3]int{res, res, res}); err != nil {
			return fmt.Errorf("bench iso: %w", cliflag.Errorf("res", strconv.Itoa(res), "%v", err))
		}
	}
	c, err := gpu.NewHeadless()
	if err != nil {
		return err
	}
	defer c.Delete()
	note := ""
	if *sizes == "" && c.Caps().Software {
		list = list[:1]
		note = "  (256^3 left out on a software renderer, where it takes seconds a run: -sizes 128,256 runs it)\n"
	}
	e, err := isosurface.NewExtractor(c, nil)
	if err != nil {
		return err
	}
	defer e.Delete()
	fmt.Fprintf(w, "marching cubes on %s\n  (%s; field %s at isovalue %v; GPU time of classify + scan + scatter + generate,\n  median of %d after %d warm-up; voxels = grid samples)\n%s\n",
		c.Caps().Renderer, c.Caps().Version, f.Name, f.Iso, cf.reps, cf.warmup, note)
	fmt.Fprintf(w, "%8s %11s %11s %8s %12s %12s %11s\n", "grid", "triangles", "GPU time", "spread", "Gvoxels/s", "Mtris/s", "CPU ref")
	pr := newProgress("iso", len(list))
	for _, n := range list {
		r, err := measureIso(c, e, f, n, cf.warmup, cf.reps, *cpu)
		pr.step(fmt.Sprintf("%d^3", n))
		pr.clear()
		if err != nil {
			return err
		}
		sec := r.GPU.Median.Seconds()
		cpuCol := "-"
		if *cpu {
			cpuCol = fmtDur(r.CPU)
		}
		fmt.Fprintf(w, "%7d³ %11d %11s %7.0f%% %12.3f %12.2f %11s\n", n, r.Triangles, fmtDur(r.GPU.Median), 100*r.GPU.Spread(),
			float64(n*n*n)/sec/1e9, float64(r.Triangles)/sec/1e6, cpuCol)
	}
	if !*table {
		return nil
	}
	start := time.Now()
	p, err := dataset.Sample(volume.Default(), res, dataset.DefaultReduction)
	if err != nil {
		return fmt.Errorf("bench iso: -res %d: %w", res, err)
	}
	fmt.Fprintf(w, "\nTable 1 of the default dataset, %s, at %dx%d (built in %s):\n  balanced = marching cubes, %d triangles; unbalanced = quadric decimation to 1/%d, %d triangles\n  scan: scanlines per triangle; z-buffer: pixels per span; (x) = max/avg\n\n",
		p.Name, width, height, fmtDur(time.Since(start)), p.Balanced.Len(), dataset.DefaultReduction, p.Unbalanced.Len())
	dataset.WriteTable1(w, p.Table1(width, height))
	return nil
}
