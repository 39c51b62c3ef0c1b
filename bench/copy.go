package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/internal/cliflag"
)

func init() {
	commands["copy"] = command{runCopy, "memory bandwidth of the compute copy kernel and the driver's copy"}
}

// copyKernel is one tuning of shaders/copy/copy.comp.
type copyKernel struct{ wg, items int }

func (k copyKernel) String() string { return fmt.Sprintf("wg%d x%d", k.wg, k.items) }

var copyKernels = []copyKernel{{256, 1}, {256, 4}, {128, 8}, {512, 2}}

// copyResult is the copy bandwidth at one size.
type copyResult struct {
	Bytes      int64
	Best       copyKernel
	GPU        Stats   // the best kernel's timing
	GBps       float64 // bytes read + written per second
	Driver     Stats   // glCopyBufferSubData, the driver's own copy
	DriverGBps float64
}

// measureCopy times every copy kernel and the driver's copy on buffers of
// the given size (a multiple of 16 bytes).
func measureCopy(c *gpu.Context, bytes int64, warm, reps int) (copyResult, error) {
	n4 := int(bytes / 16)
	src, err := gpu.NewBuffer[[4]uint32](c, n4)
	if err != nil {
		return copyResult{}, err
	}
	defer src.Delete()
	dst, err := gpu.NewBuffer[[4]uint32](c, n4)
	if err != nil {
		return copyResult{}, err
	}
	defer dst.Delete()
	src.Fill([4]uint32{1, 2, 3, 4})
	r := copyResult{Bytes: bytes}
	for _, k := range copyKernels {
		p, err := c.Program("copy/copy.comp", map[string]string{"WG_SIZE": strconv.Itoa(k.wg), "ITEMS": strconv.Itoa(k.items)})
		if err != nil {
			return r, err
		}
		s := timeGPU(c, warm, reps, func() {
			c.BindStorage(0, src)
			c.BindStorage(1, dst)
			p.SetUint("n4", uint32(n4))
			p.DispatchItems(n4, k.items)
		})
		if r.GPU.Median == 0 || s.Median < r.GPU.Median {
			r.GPU, r.Best = s, k
		}
	}
	if got := dst.Get(n4 - 1); got != [4]uint32{1, 2, 3, 4} {
		return r, fmt.Errorf("bench: copy kernel produced %v at the last element", got)
	}
	r.Driver = timeGPU(c, warm, reps, func() { dst.CopyFrom(src) })
	r.GBps = gbps(2*bytes, r.GPU)
	r.DriverGBps = gbps(2*bytes, r.Driver)
	return r, nil
}

func gbps(bytes int64, s Stats) float64 {
	if s.Median <= 0 {
		return 0
	}
	return float64(bytes) / s.Median.Seconds() / 1e9
}

// defaultCopySizes are powers of four from 1 MiB up to the device's limit
// (capped at 1 GiB).
func defaultCopySizes(c *gpu.Context) []int64 {
	var out []int64
	max := min(c.Caps().MaxSSBOSize, 1<<30)
	for b := int64(1 << 20); b <= max; b *= 4 {
		out = append(out, b)
	}
	if last := max &^ 15; out[len(out)-1] != last {
		out = append(out, last)
	}
	return out
}

// maxCopyBytes bounds a -sizes value far above any storage block, so that
// it cannot overflow; the device's own limit is checked at the copy.
const maxCopyBytes = 1 << 40

func parseSizes(s string) ([]int64, error) {
	var out []int64
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		mul := int64(1 << 20)
		switch {
		case strings.HasSuffix(f, "K"):
			mul, f = 1<<10, strings.TrimSuffix(f, "K")
		case strings.HasSuffix(f, "G"):
			mul, f = 1<<30, strings.TrimSuffix(f, "G")
		case strings.HasSuffix(f, "M"):
			f = strings.TrimSuffix(f, "M")
		}
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil || v <= 0 || v > maxCopyBytes/mul || v*mul < 16 {
			return nil, fmt.Errorf("%q is not a size of 16 bytes to 1T (e.g. 64M, 512K, 1G)", f)
		}
		out = append(out, v*mul&^15)
	}
	return out, nil
}

func runCopy(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("copy", flag.ContinueOnError)
	sizes := fs.String("sizes", "", "buffer sizes to copy, comma-separated with K/M/G suffixes (default: 1M, 4M, ... up to the device's storage-block limit, at most 1G)")
	cf := addCommonFlags(fs, 2, 5)
	fs.Usage = usageFor(fs, "copy", "Measures the device's memory bandwidth with the compute copy kernel (the limit every other kernel is compared against) and the driver's glCopyBufferSubData.")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var list []int64
	if *sizes != "" {
		var err error
		if list, err = parseSizes(*sizes); err != nil {
			return fmt.Errorf("bench copy: %w", cliflag.Errorf("sizes", *sizes, "%v", err))
		}
	}
	c, err := gpu.NewHeadless()
	if err != nil {
		return err
	}
	defer c.Delete()
	if list == nil {
		list = defaultCopySizes(c)
	}
	for _, b := range list {
		if b > c.Caps().MaxSSBOSize {
			return fmt.Errorf("bench copy: %w", cliflag.Errorf("sizes", *sizes, "%s exceeds the device's storage-block limit of %s", fmtBytes(b), fmtBytes(c.Caps().MaxSSBOSize)))
		}
	}
	fmt.Fprintf(w, "copy bandwidth on %s\n  (%s; GB/s counts bytes read + written; median of %d after %d warm-up)\n\n", c.Caps().Renderer, c.Caps().Version, cf.reps, cf.warmup)
	fmt.Fprintf(w, "%10s  %-9s %11s %9s %8s   %11s %9s\n", "bytes", "kernel", "GPU time", "GB/s", "spread", "driver copy", "GB/s")
	pr := newProgress("copy", len(list))
	for _, b := range list {
		r, err := measureCopy(c, b, cf.warmup, cf.reps)
		pr.step(fmtBytes(b))
		pr.clear()
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%10s  %-9s %11s %9.1f %7.0f%%   %11s %9.1f\n", fmtBytes(b), r.Best, fmtDur(r.GPU.Median), r.GBps, 100*r.GPU.Spread(), fmtDur(r.Driver.Median), r.DriverGBps)
	}
	return nil
}
