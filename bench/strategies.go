package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/balancer/sssp"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/internal/cliflag"
	"github.com/dpgl/dpgl/internal/fileio"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/dataset"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
	"github.com/dpgl/dpgl/scan"
)

func init() {
	commands["strategies"] = command{runStrategies, "every balancing strategy and policy on the renderer's two loops and on shortest paths (time, iterations, imbalance, speedup)"}
}

// stratConfig is one way of balancing: a policy of the paper's loop or
// another strategy.
type stratConfig struct {
	name string
	cfg  balancer.Config
}

// stratParseConfigs reads a list of policy and strategy names.
func stratParseConfigs(list string) ([]stratConfig, error) {
	var out []stratConfig
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		if p, err := balancer.ParsePolicy(s); err == nil {
			out = append(out, stratConfig{p.String(), balancer.Config{Policy: p}})
			continue
		}
		st, err := balancer.ParseStrategy(s)
		if err != nil || st == balancer.Paper {
			return nil, fmt.Errorf("bench strategies: -strategies: %q is neither a policy (Never, Always, CostEffective, Bounded) nor a strategy (RoundRobin, Random, WorkPool, LeftRightHandoff, Search, LeftRightHandoffRace, RandomAssignment)", s)
		}
		out = append(out, stratConfig{st.String(), balancer.Config{Strategy: st}})
	}
	return out, nil
}

// stratGraph is a graph of the SSSP rows and its source vertex.
type stratGraph struct {
	name   string
	g      *sssp.Graph
	source int
}

// Bounds of a generated graph: ReadDIMACS's own 2^26 vertices, and 2^28
// edges (4 GiB of edge records on the host).
const (
	stratMaxVertices = 1 << 26
	stratMaxEdges    = 1 << 28
)

// stratCheckGraph checks a graph spec without making the graph: its form,
// its size within the bounds above, a file's presence.
func stratCheckGraph(spec string) error {
	f := strings.Split(spec, ":")
	var n []int
	for _, p := range f[1:] {
		if f[0] == "grid" {
			for _, q := range strings.Split(p, "x") {
				n = append(n, atoiOr0(q))
			}
			continue
		}
		n = append(n, atoiOr0(p))
	}
	var v, e int64
	switch {
	case f[0] == "rmat" && len(n) == 2 && n[0] >= 1 && n[0] <= 26 && n[1] >= 1:
		v, e = 1<<n[0], int64(n[1])<<n[0]
	case f[0] == "grid" && len(n) == 2 && n[0] >= 1 && n[1] >= 1:
		v = int64(n[0]) * int64(n[1])
		e = 4 * v
	case f[0] == "uniform" && len(n) == 2 && n[0] >= 1 && n[1] >= 1:
		v, e = int64(n[0]), int64(n[1])
	case len(f) == 1 && strings.HasSuffix(spec, ".gr"):
		fi, err := os.Stat(spec)
		if err == nil && fi.IsDir() {
			return fmt.Errorf("%s is a folder", spec)
		}
		if err != nil {
			return fmt.Errorf("%s: %v", spec, errors.Unwrap(err))
		}
		return nil
	default:
		return fmt.Errorf("%q: want rmat:SCALE:EDGEFACTOR (SCALE 1..26), grid:WxH, uniform:VERTICES:EDGES or a .gr file", spec)
	}
	if v > stratMaxVertices || e > stratMaxEdges {
		return fmt.Errorf("%q has %d vertices and %d edges: at most %d and %d", spec, v, e, stratMaxVertices, stratMaxEdges)
	}
	return nil
}

// atoiOr0 is a positive integer's value, or 0 for anything else (which
// the callers refuse).
func atoiOr0(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 1<<40 {
		return 0
	}
	return n
}

// stratParseGraph makes the graph a spec names: rmat:SCALE:EDGEFACTOR,
// grid:WxH, uniform:N:M, or a DIMACS .gr file.
func stratParseGraph(spec string, r *rand.Rand) (stratGraph, error) {
	bad := fmt.Errorf("bench strategies: graph %q: want rmat:SCALE:EDGEFACTOR, grid:WxH, uniform:VERTICES:EDGES or a .gr file", spec)
	f := strings.Split(spec, ":")
	nums := func(parts []string, max int) ([]int, error) {
		var out []int
		for _, p := range parts {
			n, err := strconv.Atoi(p)
			if err != nil || n < 1 || n > max {
				return nil, bad
			}
			out = append(out, n)
		}
		return out, nil
	}
	var g *sssp.Graph
	switch {
	case f[0] == "rmat" && len(f) == 3:
		n, err := nums(f[1:], 26)
		if err != nil {
			return stratGraph{}, err
		}
		g = sssp.RMAT(n[0], n[1], 100, r)
	case f[0] == "grid" && len(f) == 2:
		wh := strings.Split(f[1], "x")
		n, err := nums(wh, 1<<14)
		if err != nil || len(n) != 2 {
			return stratGraph{}, bad
		}
		g = sssp.Grid(n[0], n[1], 100, r)
		return stratGraph{spec, g, 0}, nil // from a corner: the longest frontier walk
	case f[0] == "uniform" && len(f) == 3:
		n, err := nums(f[1:], 1<<26)
		if err != nil {
			return stratGraph{}, err
		}
		g = sssp.Uniform(n[0], n[1], 100, r)
	case strings.HasSuffix(spec, ".gr"):
		file, err := fileio.Open(spec)
		if err != nil {
			return stratGraph{}, err
		}
		defer file.Close()
		if g, err = sssp.ReadDIMACS(file, spec); err != nil {
			return stratGraph{}, err
		}
		if g.N == 0 {
			return stratGraph{}, fmt.Errorf("bench strategies: %s has no vertices", spec)
		}
	default:
		return stratGraph{}, bad
	}
	// From the vertex of the largest out-degree: it reaches the most.
	src := 0
	for v := 1; v < g.N; v++ {
		if g.OutDegree(v) > g.OutDegree(src) {
			src = v
		}
	}
	return stratGraph{spec, g, src}, nil
}

// stratCell is one way of balancing on one workload.
type stratCell struct {
	time         Stats // median of the repetitions' GPU times
	iterations   int
	critical     uint64
	ideal        float64
	balances     int
	speedup      float64 // Never's median over this one's; 0 without Never
	lanes, chunk []int   // distinct values seen (strategies size them per run)
}

func (c *stratCell) imbalance() float64 {
	if c.ideal == 0 {
		return 0
	}
	return float64(c.critical) / c.ideal
}

// stratRow is one workload under every way of balancing.
type stratRow struct {
	workload string
	cells    []stratCell
}

type stratOpts struct {
	size, res    int
	views        []view.View
	sets         []string
	configs      []stratConfig
	graphs       []string
	graphSpec    string // -graphs as given
	cost         float64
	lanes, chunk int
	calPath      string
	seed         uint64
	warmup, reps int
	verbose      bool
	warnings     []string // found while parsing, printed when the run starts
}

// stratAccount adds one loop run to a cell.
func (c *stratCell) account(st *balancer.Stats) {
	c.iterations += st.Iterations
	c.critical += st.CriticalPath
	c.balances += st.Balances
	if st.Lanes > 0 {
		c.ideal += float64(st.Tasks) / float64(st.Lanes)
	}
	if st.Tasks > 0 && !slices.Contains(c.lanes, st.Lanes) {
		c.lanes = append(c.lanes, st.Lanes)
	}
	if st.Chunk > 0 && !slices.Contains(c.chunk, st.Chunk) {
		c.chunk = append(c.chunk, st.Chunk)
	}
}

// stratCosts returns the cost of each renderer loop for the cost-driven
// policies: given, calibrated (bench calibrate), or the default.
func stratCosts(c *gpu.Context, o *stratOpts) (scanCost, zCost float64, source string) {
	if o.cost > 0 {
		return o.cost, o.cost, "given with -cost"
	}
	// A file with unreadable entries still gives its readable ones
	// (parseStrategies refused a foreign one).
	cal, _ := balancer.LoadCalibration(o.calPath)
	cs, err := rasterizer.LoadCosts(cal, c.Caps().Renderer)
	if err == nil {
		return cs.ScanConversion.CostIterations, cs.ZBuffer.CostIterations, "calibrated, from " + o.calPath
	}
	if _, ok := errors.AsType[*balancer.EntryError](err); ok {
		return balancer.DefaultCostIterations, balancer.DefaultCostIterations, fmt.Sprintf("balancer.DefaultCostIterations: %v", err)
	}
	return balancer.DefaultCostIterations, balancer.DefaultCostIterations,
		fmt.Sprintf("balancer.DefaultCostIterations: %s has no calibration for this GPU's renderer loops (run bench calibrate)", o.calPath)
}

// stratRenderer measures the renderer's two loops, per polygon set, under
// every configuration; every frame's primitive ids must equal Never's.
func stratRenderer(c *gpu.Context, s *scan.Scanner, o *stratOpts, w io.Writer, pr *progress) ([]stratRow, error) {
	var pair *dataset.Pair
	reduction := dataset.DefaultReduction
	if !slices.Contains(o.sets, "unbalanced") {
		reduction = 1 // the unbalanced set is not drawn: no decimation
	}
	if o.res == dataset.DefaultResolution && reduction != 1 {
		pair = dataset.Default()
	} else {
		var err error
		if pair, err = dataset.Sample(volume.Default(), o.res, reduction); err != nil {
			return nil, fmt.Errorf("bench strategies: -res %d: %w", o.res, err)
		}
	}
	scanCost, zCost, source := stratCosts(c, o)
	fmt.Fprintf(w, "renderer: %s, %dx%d, views %s; cost %.1f (scan conversion), %.1f (z-buffer) iterations (%s)\n",
		pair.Name, o.size, o.size, stratViewNames(o.views), scanCost, zCost, source)
	opts := rasterizer.DefaultOptions()
	opts.Width, opts.Height = o.size, o.size
	r, err := rasterizer.New(s, opts)
	if err != nil {
		return nil, err
	}
	defer r.Delete()
	var rows []stratRow
	for _, set := range o.sets {
		m := pair.Balanced
		if set == "unbalanced" {
			m = pair.Unbalanced
		}
		g, err := mesh.Upload(c, m)
		if err != nil {
			return nil, err
		}
		scanRow := stratRow{workload: "scan conversion, " + set}
		zRow := stratRow{workload: "z-buffer, " + set}
		ref := map[string][]uint32{} // Never's primitive ids per view
		for k, sc := range o.configs {
			sCfg, zCfg := sc.cfg, sc.cfg
			sCfg.CostIterations, zCfg.CostIterations = scanCost, zCost
			sCfg.Logf, zCfg.Logf = func(string, ...any) {}, func(string, ...any) {}
			opts.ScanConversion, opts.ZBuffer = sCfg, zCfg
			if err := r.SetOptions(opts); err != nil {
				g.Delete()
				return nil, err
			}
			sCell, zCell, err := stratFrames(r, g, pair, o, set, k, ref)
			if err != nil {
				g.Delete()
				return nil, err
			}
			scanRow.cells = append(scanRow.cells, sCell)
			zRow.cells = append(zRow.cells, zCell)
			pr.step(fmt.Sprintf("%s %s", set, o.configs[k].name))
		}
		g.Delete()
		rows = append(rows, scanRow, zRow)
	}
	return rows, nil
}

// stratFrames renders a set at every view under the k-th configuration,
// warmup+reps times, and sums each loop's times over the views; the first
// counted repetition's primitive ids must equal the first configuration's
// (ref, by view).
func stratFrames(r *rasterizer.Renderer, g *mesh.GPU, pair *dataset.Pair, o *stratOpts, set string, k int, ref map[string][]uint32) (sCell, zCell stratCell, err error) {
	sc := o.configs[k]
	var sTimes, zTimes, walls []time.Duration
	for rep := 0; rep < o.warmup+o.reps; rep++ {
		var sT, zT, wall time.Duration
		for vi, v := range o.views {
			if rep < o.warmup && k > 0 && vi > 0 {
				// The first configuration's warm-up sized every
				// buffer; the others' need only build their kernels.
				break
			}
			fs, err := r.Render(g, pair.Camera(v, o.size, o.size))
			if err != nil {
				return sCell, zCell, fmt.Errorf("bench strategies: %s, %s, %s: %w", set, v.Name, sc.name, err)
			}
			if rep < o.warmup {
				continue // compiles the kernels' variants
			}
			sT += fs.ScanConversion.Time
			zT += fs.ZBuffer.Time + fs.ZBufferIDs.Time
			wall += fs.Wall
			if rep > o.warmup {
				continue
			}
			sCell.account(&fs.ScanConversion)
			zCell.account(&fs.ZBuffer)
			if fs.ZBufferIDs.Tasks > 0 {
				zCell.account(&fs.ZBufferIDs)
			}
			prims := r.Prims()
			if want, ok := ref[v.Name]; !ok {
				ref[v.Name] = prims
			} else if !slices.Equal(prims, want) {
				return sCell, zCell, fmt.Errorf("bench strategies: %s, view %s: %s drew another image than %s", set, v.Name, sc.name, o.configs[0].name)
			}
		}
		if rep >= o.warmup {
			sTimes, zTimes, walls = append(sTimes, sT), append(zTimes, zT), append(walls, wall)
		}
	}
	sCell.time = summarize(sTimes, slices.Clone(walls))
	zCell.time = summarize(zTimes, walls)
	return sCell, zCell, nil
}

func stratViewNames(vs []view.View) string {
	var names []string
	for _, v := range vs {
		names = append(names, v.Name)
	}
	return strings.Join(names, " ")
}

// stratSSSP measures shortest paths on each graph under every
// configuration; every run's distances must equal Dijkstra's.
func stratSSSP(s *scan.Scanner, o *stratOpts, w io.Writer, pr *progress) ([]stratRow, error) {
	r := rand.New(rand.NewPCG(o.seed, 0x6e7a))
	so, err := sssp.NewSolver(s, balancer.Config{Logf: func(string, ...any) {}})
	if err != nil {
		return nil, err
	}
	defer so.Delete()
	var rows []stratRow
	for _, spec := range o.graphs {
		gr, err := stratParseGraph(spec, r)
		if err != nil {
			return nil, err
		}
		most := 0
		for v := 0; v < gr.g.N; v++ {
			most = max(most, gr.g.OutDegree(v))
		}
		fmt.Fprintf(w, "sssp %s: %d vertices, %d edges, out-degree avg %.1f max %d, from vertex %d\n",
			gr.name, gr.g.N, gr.g.M(), float64(gr.g.M())/float64(gr.g.N), most, gr.source)
		if err := so.Load(gr.g); err != nil {
			return nil, fmt.Errorf("bench strategies: -graphs %s: %w", gr.name, err)
		}
		want := sssp.Dijkstra(gr.g, gr.source)
		label := "sssp " + filepath.Base(gr.name)
		if len(label) > 27 {
			label = label[:26] + "~"
		}
		row := stratRow{workload: label}
		for _, sc := range o.configs {
			cfg := sc.cfg
			cfg.CostIterations = o.cost
			if cfg.CostIterations == 0 {
				cfg.CostIterations = balancer.DefaultCostIterations
			}
			cfg.Logf = func(string, ...any) {}
			if err := so.SetConfig(cfg); err != nil {
				return nil, err
			}
			var cell stratCell
			var times, walls []time.Duration
			for rep := 0; rep < o.warmup+o.reps; rep++ {
				st, err := so.Run(gr.source)
				if err != nil {
					return nil, fmt.Errorf("bench strategies: sssp %s, %s: %w", gr.name, sc.name, err)
				}
				if rep < o.warmup {
					continue
				}
				times, walls = append(times, st.Time), append(walls, st.Wall)
				if rep == o.warmup {
					for i := range st.Loops {
						cell.account(&st.Loops[i])
					}
					if !slices.Equal(so.Distances(), want) {
						return nil, fmt.Errorf("bench strategies: sssp %s, %s: distances differ from Dijkstra's", gr.name, sc.name)
					}
				}
			}
			cell.time = summarize(times, walls)
			row.cells = append(row.cells, cell)
			pr.step(fmt.Sprintf("sssp %s %s", gr.name, sc.name))
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// stratSpeedups fills each cell's speedup over the row's Never.
func stratSpeedups(rows []stratRow, configs []stratConfig) {
	never := slices.IndexFunc(configs, func(c stratConfig) bool {
		return c.cfg.Strategy == balancer.Paper && c.cfg.Policy == balancer.Never
	})
	if never < 0 {
		return
	}
	for _, r := range rows {
		base := r.cells[never].time.Median
		for i := range r.cells {
			if base > 0 && r.cells[i].time.Median > 0 {
				r.cells[i].speedup = float64(base) / float64(r.cells[i].time.Median)
			}
		}
	}
}

func stratInts(v []int) string {
	if len(v) == 0 {
		return "-"
	}
	slices.Sort(v)
	if len(v) > 2 {
		return fmt.Sprintf("%d..%d", v[0], v[len(v)-1])
	}
	var s []string
	for _, x := range v {
		s = append(s, strconv.Itoa(x))
	}
	return strings.Join(s, ",")
}

func printStrategies(w io.Writer, rows []stratRow, configs []stratConfig, verbose bool) {
	fmt.Fprintf(w, "%-27s %-17s %11s %10s %9s %8s", "workload", "balancing", "GPU time", "iterations", "imbalance", "speedup")
	if verbose {
		fmt.Fprintf(w, " %11s %8s %-13s %s", "wall", "balances", "lanes", "chunk")
	}
	fmt.Fprintln(w)
	for _, r := range rows {
		for i, c := range r.cells {
			name := r.workload
			if i > 0 {
				name = ""
			}
			sp := "-"
			if c.speedup > 0 {
				sp = fmt.Sprintf("%.2fx", c.speedup)
			}
			fmt.Fprintf(w, "%-27s %-17s %11s %10d %9.2f %8s", name, configs[i].name, fmtDur(c.time.Median), c.iterations, c.imbalance(), sp)
			if verbose {
				fmt.Fprintf(w, " %11s %8d %-13s %s", fmtDur(c.time.Wall), c.balances, stratInts(c.lanes), stratInts(c.chunk))
			}
			fmt.Fprintln(w)
		}
	}
}

func runStrategies(args []string, w io.Writer) error {
	o, err := parseStrategies(args)
	if err != nil {
		return err
	}
	for _, m := range o.warnings {
		warnf(w, "%s", m)
	}
	rows, err := measureStrategies(o, w)
	if err != nil {
		return err
	}
	fmt.Fprintln(w)
	printStrategies(w, rows, o.configs, o.verbose)
	return nil
}

// measureStrategies runs every workload under every way of balancing and
// returns a row per workload, with the speedups over Never.
func measureStrategies(o *stratOpts, w io.Writer) ([]stratRow, error) {
	c, err := gpu.NewHeadless()
	if err != nil {
		return nil, err
	}
	defer c.Delete()
	if err := o.fillDefaults(c.Caps().Software); err != nil {
		return nil, err
	}
	s, err := scan.New(c)
	if err != nil {
		return nil, err
	}
	defer s.Delete()

	fmt.Fprintf(w, "strategies on %s, %s\n(GPU time: median of %d after %d warm-up, each loop's first phase to its last, host round trips included; iterations:\nof the solution phase, summed over views and rounds; imbalance: critical path over tasks/lanes, 1 = perfectly balanced)\n",
		c.Caps().Renderer, time.Now().Format("2006-01-02"), o.reps, o.warmup)
	pr := newProgress("strategies", len(o.configs)*(len(o.sets)+len(o.graphs)))
	defer pr.clear()
	var rows []stratRow
	if len(o.sets) > 0 {
		rr, err := stratRenderer(c, s, o, w, pr)
		if err != nil {
			return nil, err
		}
		rows = append(rows, rr...)
	}
	if len(o.graphs) > 0 {
		sr, err := stratSSSP(s, o, w, pr)
		if err != nil {
			return nil, err
		}
		rows = append(rows, sr...)
	}
	stratSpeedups(rows, o.configs)
	return rows, nil
}

const strategiesHelp = "Runs the renderer's two loops (scan conversion, z-buffer) on the default dataset's balanced and unbalanced\npolygon sets, and Moore's shortest paths on generated or DIMACS graphs, under each of the paper's policies and\neach other balancing strategy (balancer.Strategy): one table of the loops' GPU time (median over repetitions,\nsummed over the views), iterations of the solution phase, imbalance (critical path over the perfectly balanced\none) and the speedup over Never. Every frame must equal Never's and every distance Dijkstra's."

// parseStrategies reads the strategies command's flags and checks what
// needs no GPU.
func parseStrategies(args []string) (*stratOpts, error) {
	fs := flag.NewFlagSet("strategies", flag.ContinueOnError)
	o := &stratOpts{}
	cliflag.Int(fs, &o.size, "size", 0, "image size, square (default: 512 on a GPU, 128 on a software renderer)", 0, raster.MaxImageSize)
	cliflag.Int(fs, &o.res, "res", dataset.DefaultResolution, "the dataset's grid resolution (the default dataset at 128)", 2, math.MaxInt)
	views := fs.String("views", "", "views, separated by semicolons, spaces or commas outside parentheses: "+view.Usage+", or \"all\" (default: the paper's four)")
	sets := fs.String("sets", "balanced,unbalanced", "polygon sets: balanced, unbalanced")
	configs := fs.String("strategies", "Never,Always,CostEffective,Bounded,RoundRobin,Random,WorkPool,LeftRightHandoff,Search,LeftRightHandoffRace,RandomAssignment",
		"policies of the paper's loop and other strategies (Never first gives the speedups)")
	fs.StringVar(&o.graphSpec, "graphs", "", "SSSP graphs: rmat:SCALE:EDGEFACTOR, grid:WxH, uniform:VERTICES:EDGES, FILE.gr (default: rmat:12:8,grid:48x48 on a software renderer, rmat:18:16,grid:512x512 on a GPU; \"none\" for none)")
	cliflag.Int(fs, &o.lanes, "lanes", 0, "balancer.Config.Lanes of every loop (0: one per processor; the strategies raise it on a software renderer)", 0, math.MaxInt)
	cliflag.Int(fs, &o.chunk, "chunk", 0, "balancer.Config.Chunk: WorkPool's tasks per grab, LeftRightHandoff's quota (0: the strategy's default)", 0, math.MaxInt)
	cliflag.Float(fs, &o.cost, "cost", 0, "cost in iterations for CostEffective and Bounded (0: the renderer's calibration, else the default)", cliflag.NonNegative)
	fs.StringVar(&o.calPath, "calibration", balancer.DefaultCalibrationPath(), "the calibration file")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the generated graphs")
	fs.BoolVar(&o.verbose, "v", false, "also the wall time, balancing operations, and the lanes and chunks the strategies used")
	cf := addCommonFlags(fs, 1, 1)
	fs.Usage = usageFor(fs, "strategies", strategiesHelp)
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	o.warmup, o.reps = cf.warmup, cf.reps
	// The same rule as render's and balance's: a calibration file the
	// run would read is refused before any work when it is not one.
	if o.cost == 0 {
		if err := checkCalibration(o.calPath, false); err != nil {
			return nil, fmt.Errorf("bench strategies: %w", err)
		}
	} else if m := ignoredCalibration(fs, o.cost); m != "" {
		o.warnings = append(o.warnings, m)
	}
	var err error
	if o.configs, err = stratParseConfigs(*configs); err != nil {
		return nil, err
	}
	for i := range o.configs {
		o.configs[i].cfg.Lanes = o.lanes
		if o.configs[i].cfg.Strategy == balancer.WorkPool || o.configs[i].cfg.Strategy == balancer.LeftRightHandoff {
			o.configs[i].cfg.Chunk = o.chunk
		}
	}
	if *views == "" {
		o.views = view.Paper()
	} else if o.views, err = view.ParseList(*views); err != nil {
		return nil, fmt.Errorf("bench strategies: %w", cliflag.Errorf("views", *views, "%v", err))
	}
	for _, s := range strings.Split(*sets, ",") {
		s = strings.TrimSpace(s)
		switch s {
		case "balanced", "unbalanced":
			o.sets = append(o.sets, s)
		case "", "none":
		default:
			return nil, fmt.Errorf("bench strategies: %w", cliflag.Errorf("sets", *sets, "unknown polygon set %q (want balanced, unbalanced or none)", s))
		}
	}
	return o, nil
}

// fillDefaults sets the image size and graphs the GPU decides, and checks
// the grid and every graph before the renderer's part, which takes
// minutes.
func (o *stratOpts) fillDefaults(soft bool) error {
	if o.size == 0 {
		o.size = 512
		if soft {
			o.size = 128
		}
	}
	switch o.graphSpec {
	case "":
		o.graphs = []string{"rmat:18:16", "grid:512x512"}
		if soft {
			o.graphs = []string{"rmat:12:8", "grid:48x48"}
		}
	case "none":
	default:
		o.graphs = strings.Split(o.graphSpec, ",")
	}
	if len(o.sets) > 0 {
		if err := volume.CheckGrid([3]int{o.res, o.res, o.res}); err != nil {
			return fmt.Errorf("bench strategies: %w", cliflag.Errorf("res", strconv.Itoa(o.res), "%v", err))
		}
	}
	for _, g := range o.graphs {
		if err := stratCheckGraph(g); err != nil {
			return fmt.Errorf("bench strategies: %w", cliflag.Errorf("graphs", o.graphSpec, "%v", err))
		}
	}
	return nil
}
