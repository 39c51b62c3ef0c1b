package main

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan/radix"
)

func init() {
	commands["sort"] = command{runSort, "radix sort of uint32 keys on both paths, against the copy kernel and slices.Sort"}
}

// sortRowName is what bench primitives' -only matches to print the sort.
const sortRowName = "radix sort"

// sortResult is one path's timing at one size.
type sortResult struct {
	path string
	plan radix.Plan
	gpu  Stats
	// steps are one more, profiled sort's stages (radix.Sorter.SetProfiling):
	// a step's timestamps flush the driver, so they stay out of gpu.
	steps []radix.Step
}

// measureSort times radix.SortKeys of n random uint32 keys on each path
// (the keys restored from a pristine copy before each repetition, outside
// the timing), checks each result against want, and returns the timings.
func measureSort(c *gpu.Context, keys, want []uint32, warm, reps int) ([]sortResult, error) {
	n := len(keys)
	pristine, err := gpu.NewBufferFrom(c, keys)
	if err != nil {
		return nil, err
	}
	defer pristine.Delete()
	kb, err := gpu.NewBuffer[uint32](c, n)
	if err != nil {
		return nil, err
	}
	defer kb.Delete()
	tmp, err := gpu.NewBuffer[uint32](c, n)
	if err != nil {
		return nil, err
	}
	defer tmp.Delete()
	var out []sortResult
	for _, p := range []radix.Path{radix.PathOneSweep, radix.PathCounts} {
		s, err := radix.NewWithOptions(c, radix.Options{Path: p})
		if err != nil {
			return nil, err
		}
		r := sortResult{path: p.String()}
		times := make([]time.Duration, 0, reps)
		walls := make([]time.Duration, 0, reps)
		for i := 0; i < warm+reps; i++ {
			kb.CopyFrom(pristine)
			c.Finish()
			t := c.NewTimer()
			start := time.Now()
			c.Do(func() {
				t.Start()
				err = radix.SortKeys(s, gpu.Array[uint32](kb), tmp, radix.Order{})
				t.Stop()
			})
			c.Finish()
			if i >= warm {
				walls = append(walls, time.Since(start))
				times = append(times, t.Elapsed())
			}
			t.Delete()
			if err != nil {
				s.Delete()
				return nil, err
			}
		}
		r.gpu = summarize(times, walls)
		r.plan = s.LastPlan()
		kb.CopyFrom(pristine)
		s.SetProfiling(true)
		err = radix.SortKeys(s, gpu.Array[uint32](kb), tmp, radix.Order{})
		r.steps = s.LastPlan().Steps
		s.Delete()
		if err != nil {
			return nil, err
		}
		if got := kb.Download(); !slices.Equal(got, want) {
			i := 0
			for got[i] == want[i] {
				i++
			}
			return nil, fmt.Errorf("bench: %s: sort of %d keys gives %d at %d, want %d", p, n, got[i], i, want[i])
		}
		out = append(out, r)
	}
	return out, nil
}

// measureSlicesSort times slices.Sort of keys (a fresh copy each
// repetition, the copying untimed) on the host.
func measureSlicesSort(keys []uint32, warm, reps int) (Stats, []uint32) {
	work := make([]uint32, len(keys))
	times := make([]time.Duration, 0, reps)
	for i := 0; i < warm+reps; i++ {
		copy(work, keys)
		start := time.Now()
		slices.Sort(work)
		if i >= warm {
			times = append(times, time.Since(start))
		}
	}
	return summarize(times, slices.Clone(times)), work
}

// defaultSortSizes are 2^16 .. 2^24 keys, every other power of two, then
// 2^26 and 2^28 where the device's buffers hold them.
func defaultSortSizes(c *gpu.Context) []int {
	var out []int
	lim := c.Caps().MaxSSBOSize / 4
	for k := 16; k <= 28 && int64(1)<<k <= lim; k += 2 {
		out = append(out, 1<<k)
	}
	return out
}

// sortCommand is bench sort's flags, sizes and context.
var sortCommand = sizedCommand{name: "sort", warmup: 1, reps: 3, defaults: defaultSortSizes,
	sizesHelp: "key counts as powers of two, comma-separated exponents (default: 16,18,...,28, capped by the device)",
	about:     "Times radix.SortKeys of random uint32 keys on both paths of package scan/radix, beside the copy kernel moving the same bytes and slices.Sort of the same keys on the host, in the same run; then each pass of one more, profiled sort per path beside the copy kernel."}

func runSort(args []string, w io.Writer) error {
	sw, err := sortCommand.start(args, nil)
	if err != nil {
		return err
	}
	defer sw.c.Delete()
	return printSort(sw.c, w, sw.sizes, sw.warmup, sw.reps)
}

// printSort prints the sort's rows at each size: keys per second, the
// ratio to the copy kernel (its time for the keys' bytes / the sort's
// time) and to slices.Sort (its time / the sort's: above 1, the GPU sort
// is faster).
func printSort(c *gpu.Context, w io.Writer, sizes []int, warm, reps int) error {
	fmt.Fprintf(w, "radix sort of uint32 keys on %s\n  (%s; GPU time, median of %d after %d warm-up; vs copy = the copy kernel's time for the keys' bytes / this time;\n   vs CPU = slices.Sort's time for the same keys on this host, same run / this time: above 1 the GPU sort is faster)\n\n",
		c.Caps().Renderer, c.Caps().Version, reps, warm)
	fmt.Fprintf(w, "%10s %10s %12s  %-10s %10s %9s %8s %7s  %s\n", "keys", "copy", "slices.Sort", "path", "time", "Gkeys/s", "vs copy", "vs CPU", "plan")
	pr := newProgress("sort", len(sizes))
	for _, n := range sizes {
		rng := rand.New(rand.NewPCG(uint64(n), 2))
		keys := make([]uint32, n)
		for i := range keys {
			keys[i] = rng.Uint32()
		}
		cp, err := measureCopy(c, int64(n)*4, warm, reps)
		if err != nil {
			return err
		}
		cpu, want := measureSlicesSort(keys, warm, reps)
		rs, err := measureSort(c, keys, want, warm, reps)
		pr.step(strconv.Itoa(n))
		pr.clear()
		if err != nil {
			return err
		}
		for i, r := range rs {
			label, ct, st := "", "", ""
			if i == 0 {
				label, ct, st = fmtCount(n), fmtDur(cp.GPU.Median), fmtDur(cpu.Median)
			}
			fmt.Fprintf(w, "%10s %10s %12s  %-10s %10s %9s %8s %7s  %v\n", label, ct, st, r.path,
				fmtDur(r.gpu.Median), sig3(gelems(n, r.gpu)), sig3(vsCopy(cp.GPU, r.gpu)), sig3(vsCopy(cpu, r.gpu)), r.plan)
		}
		for _, r := range rs {
			printSortSteps(w, r, cp.GPU.Median)
		}
	}
	return nil
}

// printSortSteps prints one profiled sort's time per pass (and the steps
// before and after the passes) beside the copy kernel's time for the
// keys' bytes: a pass reads and writes the keys once or twice, so its
// "vs copy" should sit near 0.5 or above, and a pass far below that is
// the next thing to look at.
func printSortSteps(w io.Writer, r sortResult, copyT time.Duration) {
	type row struct {
		name  string
		t     time.Duration
		parts []string
	}
	var rows []row
	at := map[int]int{} // pass -> its row
	for _, st := range r.steps {
		if st.Pass < 0 {
			rows = append(rows, row{name: st.Name, t: st.Time})
			continue
		}
		i, ok := at[st.Pass]
		if !ok {
			i = len(rows)
			at[st.Pass] = i
			rows = append(rows, row{name: "pass " + strconv.Itoa(st.Pass)})
		}
		rows[i].t += st.Time
		rows[i].parts = append(rows[i].parts, st.Name+" "+fmtDur(st.Time))
	}
	fmt.Fprintf(w, "%36s  one profiled sort, GPU time per step, vs copy = copy kernel %s / this time\n", r.path, fmtDur(copyT))
	for _, x := range rows {
		v := 0.0
		if x.t > 0 {
			v = float64(copyT) / float64(x.t)
		}
		line := fmt.Sprintf("%36s  %-10s %10s %8s  %s", "", x.name, fmtDur(x.t), sig3(v), strings.Join(x.parts, ", "))
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
}

// sig3 prints a rate or ratio to three significant digits in plain
// decimals: at small sizes the sort is thousands of times slower than
// slices.Sort on llvmpipe, and a loaded machine sorts 2^10 keys at well
// under 0.0001 Gkeys/s, where a fixed number of decimals prints 0.
func sig3(v float64) string {
	if !(v > 0) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'f', max(0, 2-int(math.Floor(math.Log10(v)))), 64)
}
