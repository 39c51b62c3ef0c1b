package radix

import "github.com/dpgl/dpgl/gpu"

// tuning is every choice of the package that depends on the driver, made
// here from gpu.Caps as named policies; the rest of the package reads
// these and never asks which kind of driver it runs on. Each policy gives
// one line of measured reason; TUNING.md keeps the measurements and what
// else was tried.
type tuning struct {
	// Default digit width, work-group size and keys per invocation, when
	// Options leave them 0.
	digitBits, groupSize, items int
	// path is what PathAuto runs.
	path Path
	// spin: look-back polls per digit and round before a tile counts a
	// late predecessor's keys itself.
	spin int
}

func tuningFor(caps *gpu.Caps) tuning {
	if !cpuDriver(caps) {
		return tuning{
			// Not measured on a GPU yet: 4-bit digits keep 256 invocations'
			// counter matrix at 8 KiB of shared memory (8 bits: 130 KiB).
			digitBits: 4, groupSize: 256, items: 16,
			// One read of the keys for all passes' histograms, and no tile
			// waits long where every started group runs (not measured yet).
			path: PathOneSweep,
			spin: 1 << 16,
		}
	}
	return tuning{
		// llvmpipe runs a group 8 lanes at a time as coroutines switching
		// at barriers, and its shared memory is plain memory: 8 bits x
		// 1024 keys took 0.6x the CPU of 4 bits x 256 and 0.8x of 8 x 256.
		digitBits: 8, groupSize: 32, items: 1024,
		// A waiting tile burns the time its predecessor needs on shared
		// cores: counts took 0.8x the CPU of one-sweep at 2^24.
		path: PathCounts,
		// As for the scans: a predecessor on a descheduled thread is better
		// counted than waited for.
		spin: 2048,
	}
}

// cpuDriver says whether caps describe a CPU renderer (llvmpipe, or zink
// over lavapipe), whose invocations are SIMD lanes of threads that share
// cores with everything else.
func cpuDriver(caps *gpu.Caps) bool { return caps.Software }
