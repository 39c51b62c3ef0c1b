package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/balancer/synthetic"
	"github.com/dpgl/dpgl/bench/internal/experiment"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/internal/cliflag"
	"github.com/dpgl/dpgl/scan"
)

func init() {
	commands["balance"] = command{runBalance, "the load balancer's policies on synthetic workloads (iterations, balancing, time)"}
}

// balanceOpts are the balance command's settings.
type balanceOpts struct {
	p, lanes     int
	max          uint32
	work         int
	kinds        []synthetic.Kind
	policies     []balancer.Policy
	cost         float64
	calibrate    bool
	calPath      string
	seed         uint64
	warmup, reps int
}

// balanceRow is one policy on one workload.
type balanceRow struct {
	kind    synthetic.Kind
	policy  balancer.Policy
	st      balancer.Stats // of the median repetition's kind (counts are the same in every one)
	time    Stats          // the loop's GPU time (first phase to last, host round trips included)
	speedup float64        // Never's median time over this one's
}

// synthLoop runs the synthetic solution (shaders/balancer/synthetic.comp,
// hashing work per task) on a balancer loop.
type synthLoop struct {
	c    *gpu.Context
	l    *balancer.Loop[uint32]
	prog *gpu.Program
	sink *gpu.Buffer[uint32]
}

func newSynthLoop(c *gpu.Context, s *scan.Scanner, p, work int, cfg balancer.Config) (*synthLoop, error) {
	prog, err := c.Program("balancer/synthetic.comp", map[string]string{"MODE": "1", "WORK": strconv.Itoa(work)})
	if err != nil {
		return nil, err
	}
	l, err := balancer.NewLoop[uint32](s, cfg)
	if err != nil {
		return nil, err
	}
	sink, err := gpu.NewBuffer[uint32](c, max(p, 1))
	if err != nil {
		l.Delete()
		return nil, err
	}
	return &synthLoop{c: c, l: l, prog: prog, sink: sink}, nil
}

func (sl *synthLoop) Solve(it *balancer.Iteration) {
	sl.c.BindStorage(balancer.FirstFreeBinding, sl.sink)
	it.Dispatch(sl.prog)
}

func (sl *synthLoop) delete() {
	sl.l.Delete()
	sl.sink.Delete()
}

// run loads the workload and runs the loop once.
func (sl *synthLoop) run(w []uint32, problem []uint32) (balancer.Stats, error) {
	if err := sl.l.Load(w, nil, problem); err != nil {
		return balancer.Stats{}, err
	}
	return sl.l.Run(sl)
}

// loopName is the calibration key of the synthetic loop with this much work
// per task.
func loopName(work int) string { return fmt.Sprintf("bench synthetic (%d hash rounds per task)", work) }

// calibrateSynthetic measures the overestimated cost with
// balancer.Calibrate: Always on three unbalanced workloads (so that it
// redistributes), each warmed up once and then repeated.
func calibrateSynthetic(sl *synthLoop, o *balanceOpts, r *rand.Rand) (balancer.LoopCost, error) {
	if err := sl.l.SetConfig(balancer.Config{Name: loopName(o.work), Lanes: o.lanes}); err != nil {
		return balancer.LoopCost{}, err
	}
	var loads [][]uint32
	for _, k := range []synthetic.Kind{synthetic.Zipf, synthetic.OneHeavy, synthetic.Uniform} {
		loads = append(loads, synthetic.Workload(k, o.p, o.max, r))
	}
	problem := ids(o.p)
	return balancer.Calibrate(sl.l, sl, len(loads), func(i int) error { return sl.l.Load(loads[i], nil, problem) },
		balancer.CalibrateOptions{Warmup: 1, Reps: max(o.reps, 3), Margin: balancer.DefaultMargin})
}

func ids(p int) []uint32 {
	out := make([]uint32, p)
	for i := range out {
		out[i] = uint32(i)
	}
	return out
}

// balanceCost is the cost for CostEffective and Bounded: -cost, or the
// calibration file's for the synthetic loop, or calibrated now (and saved);
// source says which.
func balanceCost(c *gpu.Context, sl *synthLoop, o *balanceOpts, r *rand.Rand, w io.Writer) (cost float64, source string, calibrated bool, err error) {
	if o.cost != 0 {
		return o.cost, "given with -cost", false, nil
	}
	cal, notes, err := experiment.OpenCalibration(o.calPath)
	if err != nil {
		return 0, "", false, err
	}
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	renderer := c.Caps().Renderer
	lc, lerr := cal.Lookup(renderer, loopName(o.work))
	if o.calibrate || lerr != nil {
		if lc, err = calibrateSynthetic(sl, o, r); err != nil {
			return 0, "", false, err
		}
		cal.Set(renderer, loopName(o.work), lc)
		if err := cal.Save(); err != nil {
			return 0, "", false, err
		}
		calibrated = true
		source = fmt.Sprintf("calibrated now (gather ≤ %v, redistribution ≤ %v, solution ≥ %v, +%g), saved to %s",
			time.Duration(lc.MaxGatherNs), time.Duration(lc.MaxRedistributeNs), time.Duration(lc.MinSolveNs), lc.Margin, o.calPath)
	} else {
		source = fmt.Sprintf("calibrated %s, from %s", lc.Date, o.calPath)
	}
	if m := lc.Warning(); m != "" {
		source += "; warning: " + m
	}
	return lc.CostIterations, source, calibrated, nil
}

// balanceRun is what bench balance measured.
type balanceRun struct {
	cost       float64 // for CostEffective and Bounded
	calibrated bool    // calibrated now (and saved)
	rows       []balanceRow
}

// measureBalance runs every workload kind under every policy.
func measureBalance(c *gpu.Context, o *balanceOpts, w io.Writer) (*balanceRun, error) {
	s, err := scan.New(c)
	if err != nil {
		return nil, err
	}
	defer s.Delete()
	var warnings []string
	logf := func(f string, a ...any) { warnings = append(warnings, fmt.Sprintf(f, a...)) }
	sl, err := newSynthLoop(c, s, o.p, o.work, balancer.Config{Name: loopName(o.work), Lanes: o.lanes, Logf: logf})
	if err != nil {
		return nil, err
	}
	defer sl.delete()
	r := rand.New(rand.NewPCG(o.seed, 0x5eed))

	cost, source, calibrated, err := balanceCost(c, sl, o, r, w)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "cost %.1f iterations (%s)\n\n", cost, source)

	var rows []balanceRow
	pr := newProgress("balance", len(o.kinds)*len(o.policies))
	problem := ids(o.p)
	for _, k := range o.kinds {
		wl := synthetic.Workload(k, o.p, o.max, r)
		var never time.Duration
		for _, pol := range o.policies {
			if err := sl.l.SetConfig(balancer.Config{Name: loopName(o.work), Policy: pol, Lanes: o.lanes, CostIterations: cost, Logf: logf}); err != nil {
				return nil, err
			}
			row := balanceRow{kind: k, policy: pol}
			var gpuTimes, walls []time.Duration
			for i := 0; i < o.warmup+o.reps; i++ {
				st, err := sl.run(wl, problem)
				if err != nil {
					return nil, err
				}
				if i >= o.warmup {
					gpuTimes = append(gpuTimes, st.Time)
					walls = append(walls, st.Wall)
					row.st = st
				}
			}
			row.time = summarize(gpuTimes, walls)
			if pol == balancer.Never {
				never = row.time.Median
			}
			if never > 0 && row.time.Median > 0 {
				row.speedup = float64(never) / float64(row.time.Median)
			}
			rows = append(rows, row)
			pr.step(fmt.Sprintf("%v %v", k, pol))
		}
	}
	pr.clear()
	for _, m := range warnings {
		fmt.Fprintln(w, m)
	}
	return &balanceRun{cost: cost, calibrated: calibrated, rows: rows}, nil
}

func printBalance(w io.Writer, rows []balanceRow, verbose bool) {
	fmt.Fprintf(w, "%-10s %-13s %5s %6s %10s %8s %7s %6s %11s %11s %8s\n",
		"workload", "policy", "max", "avg", "iterations", "balances", "gathers", "counts", "GPU time", "wall", "speedup")
	for i, r := range rows {
		kind := r.kind.String()
		if i > 0 && rows[i-1].kind == r.kind {
			kind = ""
		}
		sp := "-"
		if r.speedup > 0 {
			sp = fmt.Sprintf("%.2fx", r.speedup)
		}
		fmt.Fprintf(w, "%-10s %-13v %5d %6.1f %10d %8d %7d %6d %11s %11s %8s\n", kind, r.policy, r.st.Start.MaxWorkload, r.st.StartAvg(),
			r.st.Iterations, r.st.Balances, r.st.Gathers, r.st.Counts, fmtDur(r.time.Median), fmtDur(r.time.Wall), sp)
		if verbose {
			for _, ph := range []struct {
				name string
				t    balancer.PhaseTimes
			}{{"count", r.st.Count}, {"gather", r.st.Gather}, {"redistribute", r.st.Redistribute}, {"solve", r.st.Solve}} {
				if ph.t.N > 0 {
					fmt.Fprintf(w, "%25s %-12s %5d×  min %9s  avg %9s  max %9s\n", "", ph.name, ph.t.N, fmtDur(ph.t.Min), fmtDur(ph.t.Avg()), fmtDur(ph.t.Max))
				}
			}
			if r.st.Gathers > 0 {
				fmt.Fprintf(w, "%25s largest measured cost %.1f iterations (iteration %d)\n", "", r.st.MaxCost, r.st.MaxCostAt)
			}
		}
	}
}

// Bounds of balance's flags: -p keeps the loop's arrays within 1 GiB of
// host memory, -work within llvmpipe's 65535 loop iterations per
// invocation, -max a processor's tasks within what -p times it may hold.
const (
	maxBalanceP    = 1 << 26
	maxBalanceMax  = 1 << 16
	maxBalanceWork = 1 << 16
)

func runBalance(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("balance", flag.ContinueOnError)
	o := &balanceOpts{}
	cliflag.Int(fs, &o.p, "p", 0, "processors (default: 16384 on a software renderer, 1048576 on a GPU)", 0, maxBalanceP)
	cliflag.Int(fs, &o.lanes, "lanes", 0, "invocations running the solution phase, grid-stride (0: one per processor)", 0, math.MaxInt)
	var maxW int
	cliflag.Int(fs, &maxW, "max", 256, "the largest workload (tasks on one processor)", 1, maxBalanceMax)
	cliflag.Int(fs, &o.work, "work", 16, "hash rounds per task in the synthetic solution phase", 0, maxBalanceWork)
	kinds := fs.String("workloads", "balanced,zipf,one-heavy", "workload shapes: "+strings.Join(kindNames(), ", "))
	policies := fs.String("policies", "Never,Always,CostEffective,Bounded", "policies to run (Never first gives the speedups)")
	cliflag.Float(fs, &o.cost, "cost", 0, "cost in iterations for CostEffective and Bounded (0: from the calibration file, calibrating if it has none)", cliflag.NonNegative)
	fs.BoolVar(&o.calibrate, "calibrate", false, "recalibrate the cost and save it, even if the file has one")
	fs.StringVar(&o.calPath, "calibration", balancer.DefaultCalibrationPath(), "the calibration file")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the workloads")
	verbose := fs.Bool("v", false, "per-phase times (min/avg/max, as the paper's Table 4)")
	cf := addCommonFlags(fs, 1, 3)
	fs.Usage = usageFor(fs, "balance", "Runs synthetic workloads (balanced, Zipf-skewed, one heavy processor) through the load balancer under each policy:\nNever (the paper's Figure 1), Always, CostEffective (the paper) and Bounded (CostEffective's decisions without its\ngathering cost on balanced data). Prints iterations, balancing operations, information gatherings and counts,\nthe loop's GPU time (median) and the speedup over Never.")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	o.warmup, o.reps, o.max = cf.warmup, cf.reps, uint32(maxW)
	if o.cost == 0 {
		if err := checkCalibration(o.calPath, o.calibrate); err != nil {
			return fmt.Errorf("bench balance: %w", err)
		}
	} else if m := ignoredCalibration(fs, o.cost); m != "" {
		warnf(w, "%s", m)
	}
	for _, s := range strings.Split(*kinds, ",") {
		k, err := synthetic.Parse(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("bench balance: %w", cliflag.Errorf("workloads", *kinds, "%v", err))
		}
		o.kinds = append(o.kinds, k)
	}
	for _, s := range strings.Split(*policies, ",") {
		p, err := balancer.ParsePolicy(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("bench balance: %w", cliflag.Errorf("policies", *policies, "%v", err))
		}
		o.policies = append(o.policies, p)
	}
	c, err := gpu.NewHeadless()
	if err != nil {
		return err
	}
	defer c.Delete()
	if o.p == 0 {
		o.p = 1 << 20
		if c.Caps().Software {
			o.p = 1 << 14
		}
	}
	if uint64(o.p)*uint64(o.max) > math.MaxUint32 {
		return fmt.Errorf("bench balance: %w", cliflag.Errorf("max", strconv.Itoa(maxW),
			"%d processors could hold more than 2^32 tasks in all, beyond the balancer's 32-bit counts", o.p))
	}
	lanes := "one per processor"
	if o.lanes > 0 {
		lanes = strconv.Itoa(o.lanes)
	}
	fmt.Fprintf(w, "balance on %s: %d processors (lanes: %s), workloads up to %d tasks, %d hash rounds per task\n(median of %d after %d warm-up; GPU time spans the loop's first phase to its last, host round trips included)\n",
		c.Caps().Renderer, o.p, lanes, o.max, o.work, o.reps, o.warmup)
	run, err := measureBalance(c, o, w)
	if err != nil {
		return err
	}
	printBalance(w, run.rows, *verbose)
	return nil
}

func kindNames() []string {
	var out []string
	for _, k := range synthetic.Kinds {
		out = append(out, k.String())
	}
	return out
}
