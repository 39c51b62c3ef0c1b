package radix

import (
	"fmt"
	"math/bits"
	"strconv"
	"sync"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan"
)

// Path is how the scatter of each pass learns where each tile's keys of
// each digit go.
type Path int

const (
	// PathAuto picks PathOneSweep on GPUs and PathCounts on CPU drivers,
	// whose threads share cores with everything else: there a waiting
	// tile burns the time its predecessor needs (tuning.go).
	PathAuto Path = iota
	// PathOneSweep reads the keys once for the digit histograms of every
	// pass, then sorts each pass in one dispatch whose tiles take their
	// offsets from a decoupled look-back over the counts the tiles before
	// them publish (waiting a bounded time, then counting a silent
	// predecessor's keys themselves): 2+P dispatches for P passes.
	PathOneSweep
	// PathCounts counts each tile's digits, scans the counts with package
	// scan's reduce-then-scan, then scatters: no tile ever waits for
	// another. 3+2L dispatches per pass, L the levels of the scan; the
	// keys are read twice per pass.
	PathCounts
)

func (p Path) String() string {
	switch p {
	case PathAuto:
		return "auto"
	case PathOneSweep:
		return "one-sweep"
	case PathCounts:
		return "counts"
	}
	return "Path(" + strconv.Itoa(int(p)) + ")"
}

// Options tune a Sorter. The zero value picks everything from the
// context's capabilities.
type Options struct {
	// Path forces how passes cross tiles (benchmarks and tests run each).
	Path Path
	// DigitBits is the width of a pass's digit, 1 to 8 (0: the default);
	// 32 bits of key take ceil(32/DigitBits) passes.
	DigitBits int
	// GroupSize is the work-group size: a power of two from 8 to 1024 (0:
	// the default for the device).
	GroupSize int
	// Items is the number of consecutive keys each invocation ranks, a
	// multiple of 4 from 4 to 1024 (0: the default). A tile holds
	// GroupSize*Items keys, at most 32768.
	Items int
}

// Plan says how the last sort of a Sorter ran; tests and the benchmark log
// it.
type Plan struct {
	Path       Path // PathOneSweep or PathCounts (PathAuto: nothing ran)
	DigitBits  int
	Passes     int
	Tiles      int
	Dispatches int
	Copied     bool   // an odd number of passes ended in the scratch arrays, copied back
	Steps      []Step // each step's GPU time, when the Sorter profiles
}

func (p Plan) String() string {
	return fmt.Sprintf("%s, %d passes of %d bits, %d tiles, %d dispatches, copied back %v",
		p.Path, p.Passes, p.DigitBits, p.Tiles, p.Dispatches, p.Copied)
}

// Sorter owns the scratch memory of the package's sorts for one
// gpu.Context. It is safe for use from any goroutine: calls run on the
// context's GL thread, one at a time.
type Sorter struct {
	c     *gpu.Context
	opt   Options // resolved
	tile  int
	spin  int  // look-back polls per digit and round before counting a predecessor
	nopub bool // tests: look-back tiles publish nothing

	scanner *scan.Scanner // PathCounts: scans the tile counts (reduce-then-scan)
	progs   map[progKey]*gpu.Program

	// Scratch, grown on demand and reused.
	hist   *gpu.Buffer[uint32] // histograms, then bases: RADIX words per pass
	state  *gpu.Buffer[uint32] // look-back: header, then RADIX words per tile
	counts *gpu.Buffer[uint32] // PathCounts: RADIX words per tile
	cols   *gpu.Buffer[uint32] // PathCounts: each tile's scanned counter matrix (columnWords)

	mu        sync.Mutex
	last      Plan
	deleted   bool
	profiling bool
}

// New returns a Sorter tuned for c's device.
func New(c *gpu.Context) (*Sorter, error) { return NewWithOptions(c, Options{}) }

// NewWithOptions returns a Sorter tuned by o. Invalid options panic.
func NewWithOptions(c *gpu.Context, o Options) (*Sorter, error) {
	if c == nil {
		panic("radix: New: c is nil")
	}
	caps := c.Caps()
	if o.Path < PathAuto || o.Path > PathCounts {
		panic(fmt.Sprintf("radix: NewWithOptions: o.Path %d is not a Path", int(o.Path)))
	}
	tune := tuningFor(caps) // the defaults, from tuning.go's policies
	if o.DigitBits == 0 {
		o.DigitBits = tune.digitBits
	}
	if o.GroupSize == 0 {
		o.GroupSize = tune.groupSize
	}
	if o.Items == 0 {
		o.Items = tune.items
	}
	if o.DigitBits < 1 || o.DigitBits > 8 {
		panic(fmt.Sprintf("radix: NewWithOptions: o.DigitBits %d is not in 1..8", o.DigitBits))
	}
	if o.GroupSize < 8 || o.GroupSize > 1024 || bits.OnesCount(uint(o.GroupSize)) != 1 || o.GroupSize > caps.MaxWorkGroupInvocations {
		panic(fmt.Sprintf("radix: NewWithOptions: o.GroupSize %d is not a power of two from 8 to min(1024, %d)", o.GroupSize, caps.MaxWorkGroupInvocations))
	}
	if o.Items < 4 || o.Items > 1024 || o.Items%4 != 0 {
		panic(fmt.Sprintf("radix: NewWithOptions: o.Items %d is not a multiple of 4 from 4 to 1024", o.Items))
	}
	if t := o.GroupSize * o.Items; t > 1<<15 {
		panic(fmt.Sprintf("radix: NewWithOptions: a tile of o.GroupSize*o.Items = %d keys exceeds 32768", t))
	}
	// The counter matrix, the tile's counts and bases, and the look-back's
	// histogram.
	radix := 1 << o.DigitBits
	shared := 4 * (max(radix/2, 1)*o.GroupSize + 3*radix + 8)
	if shared > caps.MaxSharedMemory {
		panic(fmt.Sprintf("radix: NewWithOptions: o.DigitBits %d with o.GroupSize %d needs %d bytes of shared memory, more than the driver's %d",
			o.DigitBits, o.GroupSize, shared, caps.MaxSharedMemory))
	}
	sc, err := scan.NewWithOptions(c, scan.Options{Path: scan.PathReduceThenScan})
	if err != nil {
		return nil, err
	}
	if o.Path == PathAuto {
		o.Path = tune.path
	}
	return &Sorter{c: c, opt: o, tile: o.GroupSize * o.Items, spin: tune.spin, scanner: sc, progs: map[progKey]*gpu.Program{}}, nil
}

// Context is the context the Sorter runs on.
func (s *Sorter) Context() *gpu.Context { return s.c }

// Options returns the options in effect, with defaults (and the path
// PathAuto picked) filled in.
func (s *Sorter) Options() Options { return s.opt }

// TileSize is the number of keys one work group ranks.
func (s *Sorter) TileSize() int { return s.tile }

// LastPlan says how the last completed sort ran.
func (s *Sorter) LastPlan() Plan {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// Delete frees the scratch memory. Programs stay in the context's cache.
func (s *Sorter) Delete() {
	if s == nil {
		return
	}
	s.c.Do(func() {
		s.hist.Delete()
		s.state.Delete()
		s.counts.Delete()
		s.cols.Delete()
		s.hist, s.state, s.counts, s.cols = nil, nil, nil, nil
		s.scanner.Delete()
		s.mu.Lock()
		s.deleted = true
		s.mu.Unlock()
	})
}

// grow returns *b with room for n words, replacing it by one of the next
// power of two (capped by the driver's largest) when it is smaller.
func (s *Sorter) grow(fn string, b **gpu.Buffer[uint32], n int) (*gpu.Buffer[uint32], error) {
	if *b != nil && (*b).Len() >= n {
		return *b, nil
	}
	lim := int(s.c.Caps().MaxSSBOSize / 4)
	if n > lim {
		return nil, fmt.Errorf("radix: %s needs %d words of scratch, more than the driver's largest buffer of %d", fn, n, lim)
	}
	size := min(1<<bits.Len(uint(max(n, 64)-1)), lim)
	nb, err := gpu.NewBuffer[uint32](s.c, size)
	if err != nil {
		return nil, fmt.Errorf("radix: %s: allocating %d words of scratch: %w", fn, size, err)
	}
	(*b).Delete()
	*b = nb
	return nb, nil
}

// columnWords is the size of a tile's counter matrix (radix.comp's cnt):
// a word for each pair of digits in each invocation's column.
func (s *Sorter) columnWords() int {
	return max(1<<s.opt.DigitBits/2, 1) * s.opt.GroupSize
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
