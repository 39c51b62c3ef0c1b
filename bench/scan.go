package main

import (
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/internal/cliflag"
	"github.com/dpgl/dpgl/scan"
)

func init() {
	commands["scan"] = command{runScan, "exclusive add-scan and segmented copy of uint32 on every path, against the copy kernel"}
}

// scanPath is one way of running package scan.
type scanPath struct {
	name string
	opt  scan.Options
}

// scanPaths lists every path the device offers: both ways across tiles,
// each with the shared-memory work-group code, and with subgroup
// arithmetic where the driver has it.
func scanPaths(c *gpu.Context) []scanPath {
	var out []scanPath
	sub := []bool{false}
	if s, err := scan.New(c); err == nil {
		if s.Subgroups() {
			sub = append(sub, true)
		}
		s.Delete()
	}
	for _, p := range []scan.Path{scan.PathLookBack, scan.PathReduceThenScan} {
		for _, sg := range sub {
			wg := "shared"
			if sg {
				wg = "subgroup"
			}
			out = append(out, scanPath{fmt.Sprintf("%v/%s", p, wg), scan.Options{Path: p, NoSubgroups: !sg}})
		}
	}
	return out
}

// scanResult is one path's timings at one size.
type scanResult struct {
	path    string
	plan    scan.Plan
	scan    Stats // exclusive add-scan of uint32
	segCopy Stats // segmented copy of uint32
}

// measureScan times both primitives on every path at n elements.
func measureScan(c *gpu.Context, paths []scanPath, n, warm, reps int) ([]scanResult, error) {
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	vals := make([]uint32, n)
	heads := make([]uint32, n)
	for i := range vals {
		vals[i] = rng.Uint32() & 0xFF
		if rng.IntN(64) == 0 { // segments of 64 elements on average
			heads[i] = 1
		}
	}
	src, err := gpu.NewBufferFrom(c, vals)
	if err != nil {
		return nil, err
	}
	defer src.Delete()
	flags, err := gpu.NewBufferFrom(c, heads)
	if err != nil {
		return nil, err
	}
	defer flags.Delete()
	dst, err := gpu.NewBuffer[uint32](c, n)
	if err != nil {
		return nil, err
	}
	defer dst.Delete()
	var out []scanResult
	for _, p := range paths {
		s, err := scan.NewWithOptions(c, p.opt)
		if err != nil {
			return nil, err
		}
		r := scanResult{path: p.name}
		r.scan = timeGPU(c, warm, reps, func() { scan.ExclusiveScan(s, gpu.Array[uint32](dst), src, scan.Add, 0) })
		r.plan = s.LastPlan()
		if got, want := dst.Get(n-1), sumBefore(vals); got != want {
			s.Delete()
			return nil, fmt.Errorf("bench: %s: exclusive scan of %d elements ends with %d, want %d", p.name, n, got, want)
		}
		r.segCopy = timeGPU(c, warm, reps, func() { scan.SegmentedCopy(s, gpu.Array[uint32](dst), src, flags) })
		last := 0
		for i := range heads {
			if heads[i] != 0 {
				last = i
			}
		}
		if got := dst.Get(n - 1); got != vals[last] {
			s.Delete()
			return nil, fmt.Errorf("bench: %s: segmented copy of %d elements ends with %d, want %d", p.name, n, got, vals[last])
		}
		s.Delete()
		out = append(out, r)
	}
	return out, nil
}

func sumBefore(v []uint32) uint32 {
	var s uint32
	for _, x := range v[:len(v)-1] {
		s += x
	}
	return s
}

// defaultScanSizes are 2^16 .. 2^28 elements, every other power of two,
// capped by the largest uint32 buffer the device allows.
func defaultScanSizes(c *gpu.Context) []int {
	var out []int
	lim := c.Caps().MaxSSBOSize / 4
	for k := 16; k <= 28 && int64(1)<<k <= lim; k += 2 {
		out = append(out, 1<<k)
	}
	if k := len(out); k > 0 && out[k-1] < 1<<28 && int64(out[k-1])*2 <= lim {
		out = append(out, out[k-1]*2) // the largest power of two that fits
	}
	return out
}

// log2Flag parses a -log2 flag of cmd (nil for "": the defaults) before
// any work, naming the flag in a refusal.
func log2Flag(cmd, value string) ([]int, error) {
	if value == "" {
		return nil, nil
	}
	sizes, err := parseLog2Sizes(value)
	if err != nil {
		return nil, fmt.Errorf("bench %s: %w", cmd, cliflag.Errorf("log2", value, "%v", err))
	}
	return sizes, nil
}

// log2Sizes is what a command measures: with no -log2 (sizes nil, from
// log2Flag) defaults(c); else the -log2 sizes, refused before any of them
// runs when an array of 4-byte elements would exceed the device's
// storage-block limit.
func log2Sizes(cmd, value string, sizes []int, c *gpu.Context, defaults func(*gpu.Context) []int) ([]int, error) {
	if sizes == nil {
		return defaults(c), nil
	}
	for _, n := range sizes {
		if int64(n)*4 > c.Caps().MaxSSBOSize {
			return nil, fmt.Errorf("bench %s: %w", cmd, cliflag.Errorf("log2", value, "2^%d 4-byte elements exceed the device's storage-block limit of %s",
				bits.Len(uint(n))-1, fmtBytes(c.Caps().MaxSSBOSize)))
		}
	}
	return sizes, nil
}

// parseLog2Sizes reads "16,20,24" as 2^16, 2^20, 2^24 elements.
func parseLog2Sizes(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k < 1 || k > 30 {
			return nil, fmt.Errorf("%q: want powers of two as exponents 1..30, e.g. 16,20,24", f)
		}
		out = append(out, 1<<k)
	}
	return out, nil
}

func gelems(n int, s Stats) float64 {
	if s.Median <= 0 {
		return 0
	}
	return float64(n) / s.Median.Seconds() / 1e9
}

func vsCopy(copyT, t Stats) float64 {
	if t.Median <= 0 {
		return 0
	}
	return float64(copyT.Median) / float64(t.Median)
}

// scanCommand is bench scan's flags, sizes and context.
var scanCommand = sizedCommand{name: "scan", warmup: 2, reps: 5, defaults: defaultScanSizes,
	sizesHelp: "element counts as powers of two, comma-separated exponents (default: 16,18,...,28, capped by the device)",
	about:     "Times the exclusive add-scan and the segmented copy of uint32 arrays (segments of 64 on average) on every path of package scan, and compares each with the copy kernel moving the same bytes in the same run."}

func runScan(args []string, w io.Writer) error {
	sw, err := scanCommand.start(args, nil)
	if err != nil {
		return err
	}
	c, sizes, cf := sw.c, sw.sizes, sw.commonFlags
	defer c.Delete()
	paths := scanPaths(c)
	fmt.Fprintf(w, "scan on %s\n  (%s; GPU time, median of %d after %d warm-up; vs copy = the copy kernel's time for the same bytes / this time, 1.00 = copy speed)\n\n",
		c.Caps().Renderer, c.Caps().Version, cf.reps, cf.warmup)
	fmt.Fprintf(w, "%10s %10s  %-26s %10s %8s %7s   %10s %8s %7s\n", "", "", "", "exclusive", "add-scan", "", "segmented", "copy", "")
	fmt.Fprintf(w, "%10s %10s  %-26s %10s %8s %7s   %10s %8s %7s\n", "elements", "copy", "path", "time", "Gelem/s", "vs copy", "time", "Gelem/s", "vs copy")
	pr := newProgress("scan", len(sizes))
	for _, n := range sizes {
		cp, err := measureCopy(c, int64(n)*4, cf.warmup, cf.reps)
		if err != nil {
			return err
		}
		rs, err := measureScan(c, paths, n, cf.warmup, cf.reps)
		pr.step(strconv.Itoa(n))
		pr.clear()
		if err != nil {
			return err
		}
		for i, r := range rs {
			label, ct := "", ""
			if i == 0 {
				label, ct = fmtCount(n), fmtDur(cp.GPU.Median)
			}
			fmt.Fprintf(w, "%10s %10s  %-26s %10s %8s %7s   %10s %8s %7s\n", label, ct, r.path,
				fmtDur(r.scan.Median), sig3(gelems(n, r.scan)), sig3(vsCopy(cp.GPU, r.scan)),
				fmtDur(r.segCopy.Median), sig3(gelems(n, r.segCopy)), sig3(vsCopy(cp.GPU, r.segCopy)))
		}
	}
	return nil
}

// fmtCount writes 2^k counts as 2^k.
func fmtCount(n int) string {
	if n > 0 && n&(n-1) == 0 {
		k := 0
		for 1<<k < n {
			k++
		}
		return fmt.Sprintf("2^%d", k)
	}
	return strconv.Itoa(n)
}
