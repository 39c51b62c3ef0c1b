package scan

import "github.com/dpgl/dpgl/gpu"

// tuning is every choice of the package that depends on the driver, made
// here, once per Scanner, from gpu.Caps, as named policies; the rest of
// the package reads these and never asks which kind of driver it runs on.
// Each policy gives one line of measured reason; TUNING.md keeps the
// measurements and what else was tried.
type tuning struct {
	// Default tile shape of the scans (GroupSize x Vectors) and group size
	// of the other kernels, when Options leave them 0.
	groupSize, vectors, primGroup int
	// spin: look-back polls per tile before it reduces a late
	// predecessor's input itself.
	spin int
	// pollWindow: at most so many invocations poll predecessors at once
	// (a subgroup walk polls a subgroup's width instead).
	pollWindow int
	// histPrivate: the histogram's automatic path counts in per-invocation
	// bins wherever they fit in shared memory.
	histPrivate bool
	// histMaxGroups: at most so many work groups count one histogram.
	histMaxGroups int
	// reduceThenScan: PathAuto takes reduce-then-scan for segmented scans,
	// and for plain scans unless the subgroup code runs.
	reduceThenScan bool
	// dispatchBound: a dispatch costs more than scanning 10^5 words on one
	// thread, so small inputs take the one-group kernel (small.go).
	dispatchBound bool
}

// tuningFor returns the policies for caps; sgOK says the subgroup code can
// run (subgroup size and operations, unless Options.NoSubgroups).
func tuningFor(caps *gpu.Caps, sgOK bool) tuning {
	sg := caps.SubgroupSize
	if !caps.Software {
		t := tuning{
			// 16 elements per invocation in four 16-byte loads, 512
			// invocations: 2^28 elements make 32768 tiles, which the
			// look-back crosses 32 per memory round trip; subgroup totals
			// must fit one subgroup, at most SG^2 invocations.
			groupSize: 512, vectors: 4,
			// Where every started group runs, a late predecessor is soon
			// there (not measured on a GPU yet).
			spin:          1 << 16,
			pollWindow:    32,
			histMaxGroups: 1024,
		}
		if caps.Subgroup && sg >= 4 && sg*sg < t.groupSize {
			t.groupSize = sg * sg
		}
		t.primGroup = t.groupSize
		return t
	}
	t := tuning{
		// CPU drivers without subgroups (llvmpipe): 8 invocations of 16
		// vectors, one 8-lane chunk of much serial work, and a group total
		// folded after one barrier: 0.25x copy against 0.16x for 64 x 8.
		// With subgroups (zink over lavapipe) the subgroup code wants 64 x 8.
		groupSize: 64, vectors: 8, primGroup: 64,
		// A predecessor on a descheduled thread is better reduced than
		// waited for: 2048 polls ran 1.5x faster than 16384 on 2 busy cores.
		spin: 2048,
		// llvmpipe runs 8 lanes at once; more pollers only wait in turn.
		pollWindow: 8,
		// A CPU's atomics are locked instructions, one per lane; plain adds
		// to an invocation's own bins cost a fraction.
		histPrivate: true,
		// Few cores: few groups, each flushing its bins after many samples.
		histMaxGroups: 64,
		// A look-back tile waits on descheduled threads: segmented scans
		// took 3.5-5x reduce-then-scan's time, plain scans 0.19x copy
		// against 0.25x.
		reduceThenScan: true,
		// llvmpipe spends about 0.1 ms on a dispatch whatever it does;
		// reduce-then-scan takes three for 10^5 words, the one group one.
		dispatchBound: true,
	}
	if !sgOK {
		t.groupSize, t.vectors = 8, 16
	}
	return t
}
