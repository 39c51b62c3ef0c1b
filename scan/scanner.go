package scan

import (
	"fmt"
	"math/bits"
	"reflect"
	"strconv"
	"sync"
	"unsafe"

	"github.com/dpgl/dpgl/gpu"
)

// Op is an associative operator with an identity.
type Op int

const (
	Add Op = iota // identity 0; wraps around on integers
	Max           // identity: the lowest value (0, math.MinInt32, -Inf)
	Min           // identity: the highest value (math.MaxUint32, math.MaxInt32, +Inf)
	And           // bitwise and, on integers only; identity: all bits set
	Or            // bitwise or, on integers only; identity 0
	Xor           // bitwise exclusive or, on integers only; identity 0
)

func (o Op) String() string {
	switch o {
	case Add:
		return "Add"
	case Max:
		return "Max"
	case Min:
		return "Min"
	case And:
		return "And"
	case Or:
		return "Or"
	case Xor:
		return "Xor"
	}
	return "Op(" + strconv.Itoa(int(o)) + ")"
}

// Elem is an element type that scans and reductions combine.
type Elem interface{ ~uint32 | ~int32 | ~float32 }

// Path is how the tiles of a scan learn the op of everything before them.
type Path int

const (
	// PathAuto picks PathLookBack for arrays of more than one tile
	// (except float Add, see the package doc, and on CPU drivers such as
	// llvmpipe, where a tile's look-back waits on threads that may be
	// descheduled and reduce-then-scan is faster), else
	// PathReduceThenScan.
	PathAuto Path = iota
	// PathReduceThenScan reduces every tile, scans the tile totals
	// (recursively, until they fit in one tile), then scans every tile
	// again starting from its scanned total: 2L+1 dispatches for L levels,
	// reading the input twice. Deterministic for every type and operator.
	PathReduceThenScan
	// PathLookBack scans in one dispatch: each tile takes a ticket and
	// combines the published totals of the tiles before it (decoupled
	// look-back). Reads the input once. Float Add never takes it: it
	// falls back to PathReduceThenScan, whose rounding does not depend on
	// timing.
	PathLookBack
)

func (p Path) String() string {
	switch p {
	case PathAuto:
		return "auto"
	case PathReduceThenScan:
		return "reduce-then-scan"
	case PathLookBack:
		return "look-back"
	}
	return "Path(" + strconv.Itoa(int(p)) + ")"
}

// Options tune a Scanner. The zero value picks everything from the
// context's capabilities.
type Options struct {
	// Path forces how scans cross tiles (benchmarks and tests run each).
	Path Path
	// NoSubgroups keeps the shared-memory work-group code even where the
	// driver offers subgroup arithmetic (GL_KHR_shader_subgroup).
	NoSubgroups bool
	// GroupSize is the work-group size of the scan and reduce kernels: a
	// power of two from 8 to 1024 (0: the default for the device).
	GroupSize int
	// Vectors is the number of 4-element vectors each invocation scans, 1
	// to 16 (0: the default). A tile holds 4*Vectors*GroupSize elements.
	// Tests use small tiles to reach every level of the multi-level scheme
	// with small arrays.
	Vectors int
}

// Plan says how the last call of a Scanner ran; tests and the benchmark
// log it.
type Plan struct {
	Path       Path // PathReduceThenScan or PathLookBack (PathAuto: nothing ran)
	Subgroups  bool // the work-group code used subgroup arithmetic
	Levels     int  // tile levels: 1 when the data fit in one tile or ran in one pass
	Dispatches int

	// With Subgroups: the subgroup size the kernels were built for, and
	// whether the subgroup operations were the driver's own or the tests'
	// shared-memory stand-ins (shaders/scan/sgemu.glsl).
	SubgroupSize int
	Emulated     bool
}

func (p Plan) String() string {
	wg := "shared-memory"
	if p.Subgroups {
		wg = fmt.Sprintf("subgroup(%d)", p.SubgroupSize)
		if p.Emulated {
			wg = "emulated " + wg
		}
	}
	return fmt.Sprintf("%s, %s tiles, %d levels, %d dispatches", p.Path, wg, p.Levels, p.Dispatches)
}

// Scanner owns the compiled programs and the reusable scratch memory of the
// package's functions for one gpu.Context. It is safe for use from any
// goroutine: calls run on the context's GL thread, one at a time.
type Scanner struct {
	c         *gpu.Context
	opt       Options // resolved: Path may still be PathAuto
	subgroups bool    // subgroup kernels allowed (caps, options, and they compiled)
	segSub    bool    // also for segmented scans (they need shuffles)
	sgSize    int
	primGroup int    // WG_SIZE of the kernels other than scan.comp and reduce.comp
	tile      int    // elements per tile
	tune      tuning // the driver-dependent choices (tuning.go)
	spin      int    // look-back polls per tile before falling back to reducing a predecessor
	nopub     bool   // tests: look-back tiles publish nothing
	emulate   bool   // tests: subgroup kernels on shared-memory stand-ins (sgemu.glsl)

	progs map[progKey]*gpu.Program

	// Scratch, grown on demand and reused.
	levels     []*gpu.Buffer[uint32] // levels[k]: tile totals of level k-1 (levels[0] unused)
	levelHeads []*gpu.Buffer[uint32] // the same for segmented scans: head flags
	state      *gpu.Buffer[uint32]   // look-back: ticket counter, then 4 words per tile
	epoch      uint32                // tag of the last look-back call
	ticket     uint32                // the ticket counter's value after the last look-back dispatch
	winner     *gpu.Buffer[uint32]   // Send: per dst element, the winning i+1 (kept all zero between calls)
	result     *gpu.Buffer[uint32]   // host-bound results
	prim       primScratch           // the primitives built on the scans (prims.go)
	smallPath  *smallScratch         // Offsets' and MarkedIndices' (small.go)

	mu      sync.Mutex
	last    Plan
	deleted bool
}

// maxEpoch bounds the epoch tags (15 bits of each look-back word).
const maxEpoch = 1 << 15

// New returns a Scanner with paths chosen from c's capabilities.
func New(c *gpu.Context) (*Scanner, error) { return NewWithOptions(c, Options{}) }

// NewWithOptions returns a Scanner tuned by o. Invalid options panic.
func NewWithOptions(c *gpu.Context, o Options) (*Scanner, error) {
	if c == nil {
		panic("scan: New: c is nil")
	}
	caps := c.Caps()
	if o.Path < PathAuto || o.Path > PathLookBack {
		panic(fmt.Sprintf("scan: NewWithOptions: o.Path %d is not a Path", int(o.Path)))
	}
	// The default tile shape and every other driver-dependent choice come
	// from tuning.go's policies.
	sg := caps.SubgroupSize
	need := uint32(gpu.SubgroupBasic | gpu.SubgroupVote | gpu.SubgroupArithmetic | gpu.SubgroupBallot)
	sgOK := !o.NoSubgroups && caps.HasSubgroup(need) && sg >= 4 && bits.OnesCount(uint(sg)) == 1
	tune := tuningFor(caps, sgOK)
	primGroup := o.GroupSize // the other kernels' group size (prims.go)
	if o.GroupSize == 0 {
		o.GroupSize, primGroup = tune.groupSize, tune.primGroup
	}
	if o.Vectors == 0 {
		o.Vectors = tune.vectors
	}
	if o.GroupSize < 8 || o.GroupSize > 1024 || bits.OnesCount(uint(o.GroupSize)) != 1 || o.GroupSize > caps.MaxWorkGroupInvocations {
		panic(fmt.Sprintf("scan: NewWithOptions: o.GroupSize %d is not a power of two from 8 to min(1024, %d)", o.GroupSize, caps.MaxWorkGroupInvocations))
	}
	if o.Vectors < 1 || o.Vectors > 16 {
		panic(fmt.Sprintf("scan: NewWithOptions: o.Vectors %d is not in 1..16", o.Vectors))
	}
	s := &Scanner{
		c:         c,
		opt:       o,
		primGroup: primGroup,
		tile:      4 * o.Vectors * o.GroupSize,
		progs:     map[progKey]*gpu.Program{},
		tune:      tune,
		spin:      tune.spin,
	}
	s.subgroups = sgOK && o.GroupSize%sg == 0 && o.GroupSize <= sg*sg
	s.segSub = s.subgroups && caps.HasSubgroup(gpu.SubgroupShuffleRel)
	s.sgSize = sg
	return s, nil
}

// Context is the context the Scanner runs on.
func (s *Scanner) Context() *gpu.Context { return s.c }

// Options returns the options in effect, with defaults filled in.
func (s *Scanner) Options() Options { return s.opt }

// TileSize is the number of elements one work group scans.
func (s *Scanner) TileSize() int { return s.tile }

// Subgroups reports whether the Scanner's kernels use subgroup arithmetic.
func (s *Scanner) Subgroups() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.subgroups
}

// LastPlan says how the last completed call ran.
func (s *Scanner) LastPlan() Plan {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// Delete frees the scratch memory. Programs stay in the context's cache.
func (s *Scanner) Delete() {
	if s == nil {
		return
	}
	s.c.Do(func() {
		for _, b := range s.levels {
			b.Delete()
		}
		for _, b := range s.levelHeads {
			b.Delete()
		}
		s.levels, s.levelHeads = nil, nil
		s.state.Delete()
		s.winner.Delete()
		s.result.Delete()
		s.state, s.winner, s.result = nil, nil, nil
		s.prim.delete()
		s.smallPath.delete()
		s.smallPath = nil
		s.mu.Lock()
		s.deleted = true
		s.mu.Unlock()
	})
}

func (s *Scanner) setPlan(p Plan) {
	if p.Subgroups {
		p.SubgroupSize, p.Emulated = s.sgSize, s.emulate
	}
	s.mu.Lock()
	s.last = p
	s.mu.Unlock()
}

// progKey names one build of a kernel; its fields become #defines.
type progKey struct {
	file    string // "scan/scan.comp", ...
	typ     int    // TYPE: 0 uint32, 1 int32, 2 float32
	op      Op
	seg     bool
	mapMode int // reduce.comp's MAP
	carry   int // scan.comp's CARRY
	out     int // scan.comp's OUT
	total   bool
	words   int // RECORD_WORDS
	pass    int // send.comp's PASS
	sub     bool
	spin    int  // lookback.glsl's SPIN (-1: not a look-back kernel)
	nopub   bool // lookback.glsl's PUBLISH=0 (tests)

	lanes    bool       // scankernel.glsl's LANE_CARRY
	keyWords int        // load.glsl's KEY_WORDS: flags are the heads of runs of keys
	predType int        // MAP_PREDICATE: the elements' TYPE (PRED_TYPE)
	pred     string     // MAP_PREDICATE: the user's expression (PRED_EXPR), or
	user     *Predicate // the user's kernel file, built around select.glsl
}

func (k progKey) defines(s *Scanner) map[string]string {
	b := func(v bool) string {
		if v {
			return "1"
		}
		return "0"
	}
	d := map[string]string{"WG_SIZE": strconv.Itoa(s.primGroup)}
	switch k.file {
	case "scan/scan.comp", "scan/reduce.comp":
		d["WG_SIZE"] = strconv.Itoa(s.opt.GroupSize)
		d["VEC"] = strconv.Itoa(s.opt.Vectors)
		d["TYPE"] = strconv.Itoa(k.typ)
		d["OP"] = strconv.Itoa(int(k.op))
		d["SEGMENTED"] = b(k.seg)
		d["SUBGROUP"] = b(k.sub)
		d["SG_SIZE"] = strconv.Itoa(max(s.sgSize, 1))
		if k.sub && s.emulate {
			d["SUBGROUP_EMULATE"] = "1"
		}
		d["MAP"] = strconv.Itoa(k.mapMode)
		if k.keyWords > 0 {
			d["KEY_WORDS"] = strconv.Itoa(k.keyWords)
		}
		if k.lanes {
			d["LANE_CARRY"] = "1"
		}
		if k.mapMode == mapPredicate {
			d["PRED_TYPE"] = strconv.Itoa(k.predType)
			if k.pred != "" {
				d["PRED_EXPR"] = k.pred
			}
		}
		if k.user != nil {
			d["SCAN_KERNEL"] = map[bool]string{true: "0", false: "1"}[k.file == "scan/scan.comp"]
		}
		if k.file == "scan/scan.comp" {
			d["CARRY"] = strconv.Itoa(k.carry)
			d["OUT"] = strconv.Itoa(k.out)
			d["TOTAL"] = b(k.total)
			d["RECORD_WORDS"] = strconv.Itoa(k.words)
			// Compactions whose one-word records are the words the tiles
			// load anyway (a predicate's elements, one-word keys: those
			// jobs have src == flags) write them from registers.
			if (k.out == outCompact || k.out == outPartition) && k.words == 1 && (k.mapMode == mapPredicate || k.keyWords == 1) {
				d["RECORDS_LOADED"] = "1"
			}
			if k.spin >= 0 {
				d["SPIN"] = strconv.Itoa(k.spin)
				// One subgroup polls a window (and combines it with
				// subgroup arithmetic), else up to the tuning's window.
				w := min(s.tune.pollWindow, s.opt.GroupSize)
				if k.sub && !k.seg { // the subgroup walk (lookback.glsl's sgWalk)
					w = s.sgSize
				}
				d["WINDOW"] = strconv.Itoa(w)
			}
			if k.nopub {
				d["PUBLISH"] = "0"
			}
		}
	case "scan/send.comp":
		d["PASS"] = strconv.Itoa(k.pass)
		d["RECORD_WORDS"] = strconv.Itoa(k.words)
	case "scan/gather.comp":
		d["RECORD_WORDS"] = strconv.Itoa(k.words)
	}
	return d
}

// program returns the kernel for k, building it on first use. A subgroup
// kernel that the driver fails to build turns subgroups off for good (for
// segmented kernels only, if it is one) and the shared-memory kernel is
// used; any other build failure is a bug in this package and panics
// (kernels around a user's predicate are built by programErr first, which
// returns their errors).
func (s *Scanner) program(k progKey) (*gpu.Program, progKey) {
	p, k, err := s.programErr(k)
	if err != nil {
		panic(err)
	}
	return p, k
}

func (s *Scanner) programErr(k progKey) (*gpu.Program, progKey, error) {
	if k.sub && (!s.subgroups || k.seg && !s.segSub) {
		k.sub = false
	}
	if p := s.progs[k]; p != nil {
		return p, k, nil
	}
	p, err := s.build(k)
	if err != nil && k.sub {
		// Ours or the user's? Without subgroups the user's code is the
		// same: if that builds, the subgroup code is what the driver
		// refused.
		plain := k
		plain.sub = false
		if _, _, perr := s.programErr(plain); perr != nil {
			return nil, k, perr
		}
		s.mu.Lock()
		if k.seg {
			s.segSub = false
		} else {
			s.subgroups, s.segSub = false, false
		}
		s.mu.Unlock()
		return s.programErr(plain)
	}
	if err != nil {
		return nil, k, err
	}
	s.progs[k] = p
	return p, k, nil
}

// build compiles k: one of the package's files, or the user's kernel.
func (s *Scanner) build(k progKey) (*gpu.Program, error) {
	if k.user == nil {
		return s.c.Program(k.file, k.defines(s))
	}
	if k.user.FS == nil {
		return s.c.UserProgramFile(k.user.Name, k.defines(s))
	}
	return s.c.UserProgram(k.user.FS, k.user.Name, k.defines(s))
}

// grow returns *b with room for n words, replacing it (zero-filled) by one
// of the next power of two when it is smaller. Failing to allocate panics:
// scratch grows inside calls that return no error (Reserve allocates it up
// front, with one).
func (s *Scanner) grow(fn string, b **gpu.Buffer[uint32], n int) *gpu.Buffer[uint32] {
	nb, err := s.growErr(fn, b, n)
	if err != nil {
		panic(err.Error())
	}
	return nb
}

func (s *Scanner) growErr(fn string, b **gpu.Buffer[uint32], n int) (*gpu.Buffer[uint32], error) {
	if *b != nil && (*b).Len() >= n {
		return *b, nil
	}
	size := 1 << bits.Len(uint(max(n, 16)-1))
	if lim := int(s.c.Caps().MaxSSBOSize / 4); size > lim {
		size = max(n, lim)
	}
	nb, err := gpu.NewBuffer[uint32](s.c, size)
	if err != nil {
		return nil, fmt.Errorf("scan: %s: allocating %d words of scratch: %w", fn, size, err)
	}
	(*b).Delete()
	*b = nb
	return nb, nil
}

// Reserve allocates now the scratch memory that the Scanner's calls on
// arrays of up to n elements need (the scans' tile totals and look-back
// state, Send's winners, the primitives' per-element scratch), so that
// those calls allocate nothing on the GPU later. Without it scratch grows
// at the first call that needs it, and a failure to allocate it there
// panics; a renderer that reserves for its largest frame up front learns
// of a lack of memory here instead, as an error, before the frame starts.
// Reserving less than is held frees nothing. On error some scratch may
// have grown, nothing that was held is lost, and the Scanner stays usable.
func (s *Scanner) Reserve(n int) error {
	const fn = "Reserve"
	s.live(fn)
	if n < 0 {
		panic(fmt.Sprintf("scan: Reserve: n is %d", n))
	}
	var err error
	s.c.Do(func() {
		grow := func(b **gpu.Buffer[uint32], words int) {
			if err == nil {
				_, err = s.growErr(fn, b, words)
			}
		}
		tiles := max(1, ceilDiv(n, s.tile))
		old := s.state
		grow(&s.state, 4+4*tiles)
		if s.state != old {
			s.ticket = 0 // a new buffer starts with the counter at zero
		}
		// Reduce-then-scan's levels: tile totals, and heads for segmented
		// scans; compactions' level 1 holds invocations' totals
		// (laneCarry), which the levels above it reduce by tiles.
		level := func(k, size int) {
			for len(s.levels) <= k {
				s.levels = append(s.levels, nil)
				s.levelHeads = append(s.levelHeads, nil)
			}
			grow(&s.levels[k], size)
			grow(&s.levelHeads[k], size)
		}
		for k, size := 1, n; size > s.tile; k++ {
			size = ceilDiv(size, s.tile)
			level(k, size)
		}
		if n > s.tile {
			size := ceilDiv(n, 4*s.opt.Vectors) + 1
			level(1, size)
			for k := 2; size > s.tile; k++ {
				size = ceilDiv(size, s.tile)
				level(k, size)
			}
		}
		grow(&s.result, 4)
		grow(&s.winner, n)
		for k := range s.prim.words {
			if k == scratchCount {
				grow(&s.prim.words[k], 1)
			} else {
				grow(&s.prim.words[k], n)
			}
		}
	})
	return err
}

// typeOf is the TYPE define of T.
func typeOf[T Elem]() int {
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Uint32:
		return 0
	case reflect.Int32:
		return 1
	}
	return 2
}

func bitsOf[T Elem](v T) uint32 { return *(*uint32)(unsafe.Pointer(&v)) }

func fromBits[T Elem](b uint32) T { return *(*T)(unsafe.Pointer(&b)) }

// identity returns op's identity for T, as bits.
func identity[T Elem](op Op) uint32 {
	switch op {
	case Max:
		switch typeOf[T]() {
		case 0:
			return 0
		case 1:
			return 0x80000000
		}
		return 0xFF800000 // -Inf
	case Min:
		switch typeOf[T]() {
		case 0:
			return 0xFFFFFFFF
		case 1:
			return 0x7FFFFFFF
		}
		return 0x7F800000 // +Inf
	case And:
		return 0xFFFFFFFF
	}
	return 0
}
