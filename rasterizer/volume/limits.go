package volume

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// The limits on the size of a request. A volume and everything made from it
// (its surface, the decimated surface, the renderer's buffers) live in host
// memory at once, so a request is refused, with an error naming its size,
// before anything is allocated when it cannot fit:
//
//   - MemoryLimit: the host memory one request may use, by default half of
//     the machine's physical memory (the smaller of /proc/meminfo's MemTotal
//     and the cgroup's memory.max), 4 GiB where neither can be read.
//   - A volume's samples (4 bytes each as float32) may take at most half of
//     MemoryLimit, leaving the other half for what is made from them, and
//     number at most MaxSamples, the largest count the GPU kernels index.
//   - On the GPU, a volume is one storage buffer: at most the driver's
//     largest storage block (gpu.Caps.MaxSSBOSize: 128 MiB, 2^25 samples or
//     322^3, on llvmpipe).
//
// CheckGrid and CheckStorage apply them; Field.Sample, ReadNIfTI, Resample,
// package isosurface's Extract and package dataset call them, and a command
// line can call them to validate its flags before it starts.
var memoryLimit atomic.Int64

// MaxSamples is the most samples a volume may have: the GPU kernels index
// samples and cells with 32-bit integers, and Go's slices of the CPU
// reference with int.
const MaxSamples = math.MaxInt32

var defaultLimit = sync.OnceValue(func() int64 {
	phys := physicalMemory()
	if phys <= 0 {
		return 4 << 30
	}
	return phys / 2
})

// MemoryLimit is the host memory, in bytes, that one request may use (see
// above): SetMemoryLimit's value, or half of the machine's physical memory.
func MemoryLimit() int64 {
	if l := memoryLimit.Load(); l > 0 {
		return l
	}
	return defaultLimit()
}

// SetMemoryLimit sets MemoryLimit (bytes <= 0 restores the default) and
// returns the previous setting (0 for the default), for a command's flag and
// for tests.
func SetMemoryLimit(bytes int64) (previous int64) {
	return memoryLimit.Swap(max(bytes, 0))
}

// physicalMemory is the memory this process can have: MemTotal, lowered to
// the cgroup v2 limit when there is one. 0 when unknown.
func physicalMemory() int64 {
	var total int64
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == "MemTotal:" {
				if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil {
					total = kb << 10
				}
			}
		}
		f.Close()
	}
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if l, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && l > 0 && (total == 0 || l < total) {
			total = l
		}
	}
	return total
}

// FormatBytes writes a byte count for people: "512 B", "3.9 GiB".
func FormatBytes(b int64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%d B", b)
	}
	f, i := float64(b), 0
	for f >= unit && i < 6 {
		f /= unit
		i++
	}
	return fmt.Sprintf("%.1f %ciB", f, "KMGTPE"[i-1])
}

// CheckGrid reports whether a volume with the given dimensions may be made
// (see the limits above): every side at least 1, at most MaxSamples samples,
// whose float32 values take at most half of MemoryLimit. Its error names
// the dimensions, the bytes they need and the limit, and it allocates
// nothing, so it can be called with any request, 100000^3 included.
func CheckGrid(dims [3]int) error {
	for i, d := range dims {
		if d < 1 {
			return fmt.Errorf("volume: dims[%d] = %d: every side of a volume needs at least 1 sample", i, d)
		}
	}
	n, ok := samples(dims)
	if !ok || n > MaxSamples {
		return fmt.Errorf("volume: a %dx%dx%d volume has %s samples, more than the %d (2^31-1) the kernels can index",
			dims[0], dims[1], dims[2], samplesString(dims), MaxSamples)
	}
	if need, limit := 4*n, MemoryLimit()/2; need > limit {
		return fmt.Errorf("volume: a %dx%dx%d volume needs %s as float32, more than the %s a volume may use (half of the memory limit, %s)",
			dims[0], dims[1], dims[2], FormatBytes(need), FormatBytes(limit), FormatBytes(MemoryLimit()))
	}
	return nil
}

// CheckStorage reports whether a volume with the given dimensions fits in
// one GPU storage buffer of at most maxBlock bytes (gpu.Caps.MaxSSBOSize),
// as Upload and package isosurface's Extractor need.
func CheckStorage(dims [3]int, maxBlock int64) error {
	if err := CheckGrid(dims); err != nil {
		return err
	}
	n, _ := samples(dims)
	if 4*n > maxBlock {
		return fmt.Errorf("volume: a %dx%dx%d volume needs %s as float32, more than the driver's largest storage block (%s): shrink it (volume.Resample) to at most %d samples",
			dims[0], dims[1], dims[2], FormatBytes(4*n), FormatBytes(maxBlock), maxBlock/4)
	}
	return nil
}

// samples is dims[0]*dims[1]*dims[2], or ok false when that overflows.
func samples(dims [3]int) (n int64, ok bool) {
	n = 1
	for _, d := range dims {
		if d < 1 {
			return 0, false
		}
		if n > math.MaxInt64/int64(d) {
			return 0, false
		}
		n *= int64(d)
	}
	return n, true
}

func samplesString(dims [3]int) string {
	if n, ok := samples(dims); ok {
		return strconv.FormatInt(n, 10)
	}
	return fmt.Sprintf("%.3g", float64(dims[0])*float64(dims[1])*float64(dims[2]))
}
