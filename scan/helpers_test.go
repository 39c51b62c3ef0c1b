package scan_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// config is one way of running the package: a path and a tile size.
type config struct {
	name string
	opt  scan.Options
	// full runs the whole type x operator matrix; otherwise a sample.
	full bool
	// fallback makes look-back tiles never wait: every predecessor that
	// has not published yet when a tile looks is reduced by the tile
	// itself, including in place, where the predecessor may be writing.
	fallback bool
	// emulate, when nonzero, runs the subgroup kernels on shared-memory
	// stand-ins with subgroups of that many invocations, where the driver
	// has no subgroups.
	emulate int
}

// subgroupCaps are the features the subgroup kernels need.
const subgroupCaps = gpu.SubgroupBasic | gpu.SubgroupVote | gpu.SubgroupArithmetic | gpu.SubgroupBallot

// configs returns every path the driver offers, each with a tiny tile (so
// that small arrays reach every level of reduce-then-scan, and hundreds of
// tiles run through the look-back) and with the default tile.
//
// With -short on a driver that has subgroups (make test-zink: a CPU driver,
// 4-5x slower than llvmpipe) only the subgroup configurations run: the
// shared-memory ones are the llvmpipe leg's, which runs them all.
func configs(t *testing.T, c *gpu.Context) []config {
	var out []config
	if testing.Short() && c.Caps().HasSubgroup(subgroupCaps) {
		t.Logf("-short: the subgroup configurations only; the shared-memory ones run where the driver has no subgroups, or without -short")
		return subgroupConfigs(c)
	}
	for _, p := range []scan.Path{scan.PathReduceThenScan, scan.PathLookBack} {
		out = append(out,
			config{fmt.Sprintf("%v/shared/tile32", p), scan.Options{Path: p, NoSubgroups: true, GroupSize: 8, Vectors: 1}, true, false, 0},
			config{fmt.Sprintf("%v/shared/tile256", p), scan.Options{Path: p, NoSubgroups: true, GroupSize: 64, Vectors: 1}, true, false, 0},
			config{fmt.Sprintf("%v/shared/default", p), scan.Options{Path: p, NoSubgroups: true}, false, false, 0},
		)
	}
	out = append(out,
		config{"look-back/fallback/tile32", scan.Options{Path: scan.PathLookBack, NoSubgroups: true, GroupSize: 8, Vectors: 1}, true, true, 0},
		config{"look-back/fallback/tile256", scan.Options{Path: scan.PathLookBack, NoSubgroups: true, GroupSize: 64, Vectors: 1}, false, true, 0},
	)
	if cp := c.Caps(); cp.HasSubgroup(subgroupCaps) {
		out = append(out, subgroupConfigs(c)...)
	} else {
		// The subgroup kernels' logic still runs, on stand-ins: one
		// subgroup per group (the look-back walk of subgroup 0 runs only
		// so), and four.
		t.Logf("subgroup paths: emulated, the driver (%s) lacks GL_KHR_shader_subgroup arithmetic", cp.Renderer)
		out = append(out,
			config{name: "look-back/emulated-subgroup/tile64", opt: scan.Options{Path: scan.PathLookBack, GroupSize: 8, Vectors: 2}, full: true, emulate: 8},
			config{name: "look-back/emulated-subgroup-fallback/tile64", opt: scan.Options{Path: scan.PathLookBack, GroupSize: 8, Vectors: 2}, fallback: true, emulate: 8},
			config{name: "reduce-then-scan/emulated-subgroup/tile32", opt: scan.Options{Path: scan.PathReduceThenScan, GroupSize: 8, Vectors: 1}, emulate: 8},
			config{name: "look-back/emulated-4-subgroups/tile256", opt: scan.Options{Path: scan.PathLookBack, GroupSize: 32, Vectors: 2}, full: true, emulate: 8},
			config{name: "reduce-then-scan/emulated-4-subgroups/tile128", opt: scan.Options{Path: scan.PathReduceThenScan, GroupSize: 32, Vectors: 1}, emulate: 8},
		)
	}
	return out
}

// subgroupConfigs are the configurations on the driver's subgroups: two
// subgroups per group, and the default group.
func subgroupConfigs(c *gpu.Context) []config {
	var out []config
	sg := c.Caps().SubgroupSize
	for _, p := range []scan.Path{scan.PathReduceThenScan, scan.PathLookBack} {
		out = append(out,
			config{fmt.Sprintf("%v/subgroup/tile%d", p, 8*sg), scan.Options{Path: p, GroupSize: 2 * sg, Vectors: 1}, true, false, 0},
			config{fmt.Sprintf("%v/subgroup/default", p), scan.Options{Path: p}, false, false, 0},
		)
	}
	return out
}

// newScanner makes a Scanner for cfg and checks that it uses subgroups
// exactly when the configuration asks for them and the driver has them.
func newScanner(t *testing.T, c *gpu.Context, cfg config) *scan.Scanner {
	t.Helper()
	s, err := scan.NewWithOptions(c, cfg.opt)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.fallback {
		scan.SetSpin(s, 0)
	}
	want := !cfg.opt.NoSubgroups && c.Caps().HasSubgroup(subgroupCaps)
	if cfg.emulate != 0 {
		scan.EmulateSubgroups(s, cfg.emulate)
		want = true
	}
	if s.Subgroups() != want {
		t.Fatalf("%s: Subgroups() = %v, want %v", cfg.name, s.Subgroups(), want)
	}
	return s
}

// expectPlan fails unless the last call ran the configured path, and logs
// it.
func expectPlan(t *testing.T, s *scan.Scanner, cfg config, what string, floatAdd bool) {
	t.Helper()
	p := s.LastPlan()
	want := cfg.opt.Path
	if floatAdd {
		want = scan.PathReduceThenScan
	}
	if p.Path != want {
		t.Fatalf("%s: ran %v, want %v", what, p, want)
	}
	// A subgroup kernel that fails to build turns subgroups off for the
	// Scanner's life: no call may do that on a driver that has them.
	if sg := cfg.emulate != 0 || !cfg.opt.NoSubgroups && s.Context().Caps().HasSubgroup(subgroupCaps); sg && !s.Subgroups() {
		t.Fatalf("%s: ran %v, and the scanner lost its subgroup kernels", what, p)
	}
	// Segmented scans need subgroup shuffles too (segmented copy does not:
	// it max-scans head indices).
	sub := s.Subgroups()
	if segmentedScanName(what) {
		sub = scan.SegmentedSubgroups(s)
	}
	if want := sub && !cfg.opt.NoSubgroups; p.Subgroups != want {
		t.Fatalf("%s: ran %v with subgroups %v, want %v", what, p, p.Subgroups, want)
	}
	// Subgroup kernels run on the stand-ins exactly when the configuration
	// asks for them, and on the size the driver reports otherwise.
	if p.Subgroups && p.Emulated != (cfg.emulate != 0) {
		t.Fatalf("%s: ran %v, want emulated %v", what, p, cfg.emulate != 0)
	}
	if cp := s.Context().Caps(); p.Subgroups && !p.Emulated && p.SubgroupSize != cp.SubgroupSize {
		t.Fatalf("%s: ran %v, and the driver's subgroups have %d invocations", what, p, cp.SubgroupSize)
	}
	gputest.Ran(pathName(p, s.Options().GroupSize, segmentedScanName(what)))
}

// logFallbacks logs how often look-back tiles reduced a predecessor
// themselves (racy even without waiting: TestFallbackOnly counts them).
func logFallbacks(t *testing.T, s *scan.Scanner, cfg config) {
	t.Helper()
	if cfg.opt.Path != scan.PathLookBack {
		return
	}
	t.Logf("%s: %d look-back fallbacks", cfg.name, scan.Fallbacks(s))
}

func segmentedScanName(what string) bool {
	return strings.HasPrefix(what, "SegmentedExclusiveScan") || strings.HasPrefix(what, "SegmentedInclusiveScan")
}

// sizes are the lengths every primitive is tested at for a scanner: the
// edges of a work group and of a tile, several tiles, one more than a
// single level holds, and one more than two (three, for tiny tiles)
// levels hold, so that every level of reduce-then-scan runs.
func sizes(s *scan.Scanner, full bool) []int {
	wg, tile := s.Options().GroupSize, s.TileSize()
	if !full {
		return []int{tile - 1, tile + 1} // TestLargest runs tile*tile+1
	}
	out := []int{0, 1, 2, 3, 4, 5, wg - 1, wg, wg + 1, tile - 1, tile, tile + 1, 3*tile + 5, tile*tile + 1}
	if tile*tile*tile <= 1<<17 {
		out = append(out, tile*tile*tile+3)
	}
	return out
}

// levels is how many tile levels reduce-then-scan needs for n.
func levels(n, tile int) int {
	l := 1
	for ; n > tile; n = (n + tile - 1) / tile {
		l++
	}
	return l
}

func kindOf[T scan.Elem]() string {
	var v T
	switch any(v).(type) {
	case uint32:
		return "uint32"
	case int32:
		return "int32"
	}
	return "float32"
}

// randVals returns n random values: all 32 bits for integers (Add wraps),
// [-1, 1) for floats.
func randVals[T scan.Elem](rng *rand.Rand, n int) []T {
	out := make([]T, n)
	for i := range out {
		u := rng.Uint32()
		switch p := any(&out[i]).(type) {
		case *uint32:
			*p = u
		case *int32:
			*p = int32(u)
		case *float32:
			*p = float32(rng.Float64()*2 - 1)
		}
	}
	return out
}

func ident[T scan.Elem](op scan.Op) T {
	var v T
	switch op {
	case scan.Max:
		switch p := any(&v).(type) {
		case *uint32:
			*p = 0
		case *int32:
			*p = math.MinInt32
		case *float32:
			*p = float32(math.Inf(-1))
		}
	case scan.Min:
		switch p := any(&v).(type) {
		case *uint32:
			*p = math.MaxUint32
		case *int32:
			*p = math.MaxInt32
		case *float32:
			*p = float32(math.Inf(1))
		}
	case scan.And:
		*(*uint32)(unsafe.Pointer(&v)) = 0xFFFFFFFF
	}
	return v
}

func apply[T scan.Elem](op scan.Op, a, b T) T {
	var v T
	w := (*uint32)(unsafe.Pointer(&v))
	switch op {
	case scan.Max:
		return max(a, b)
	case scan.Min:
		return min(a, b)
	case scan.And:
		*w = bitsOf(a) & bitsOf(b)
		return v
	case scan.Or:
		*w = bitsOf(a) | bitsOf(b)
		return v
	case scan.Xor:
		*w = bitsOf(a) ^ bitsOf(b)
		return v
	}
	return a + b
}

func isFloat[T scan.Elem]() bool { return kindOf[T]() == "float32" }

func bitsOf[T scan.Elem](v T) uint32 { return *(*uint32)(unsafe.Pointer(&v)) }

// want is what a scan of in gives, computed by a plain loop: exact values,
// and for float Add the sum in float64 with the sum of magnitudes, which
// bounds the rounding error.
type want[T scan.Elem] struct {
	exact []T
	sum   []float64
	mag   []float64
}

// cpuScan scans in as the GPU should; heads (nil: none) restart it.
func cpuScan[T scan.Elem](in []T, heads []uint32, op scan.Op, init T, inclusive bool) want[T] {
	w := want[T]{exact: make([]T, len(in))}
	fadd := isFloat[T]() && op == scan.Add
	if fadd {
		w.sum, w.mag = make([]float64, len(in)), make([]float64, len(in))
	}
	acc, sum, mag := init, float64(init), math.Abs(float64(init))
	for i, x := range in {
		if heads != nil && (i == 0 || heads[i] != 0) {
			acc, sum, mag = ident[T](op), 0, 0
		}
		if inclusive {
			acc, sum, mag = apply(op, acc, x), sum+float64(x), mag+math.Abs(float64(x))
		}
		w.exact[i] = acc
		if fadd {
			w.sum[i], w.mag[i] = sum, mag
		}
		if !inclusive {
			acc, sum, mag = apply(op, acc, x), sum+float64(x), mag+math.Abs(float64(x))
		}
	}
	return w
}

// check compares got with w: bit for bit, or for float Add within a bound
// of the rounding of a tree of at most 64 serial and 30 pairwise steps.
func (w want[T]) check(t *testing.T, what string, got []T) {
	t.Helper()
	if len(got) != len(w.exact) {
		t.Fatalf("%s: %d results, want %d", what, len(got), len(w.exact))
	}
	for i, g := range got {
		if w.sum != nil {
			tol := 100 * 0x1p-24 * (w.mag[i] + 1)
			if d := math.Abs(float64(g) - w.sum[i]); !(d <= tol) {
				t.Fatalf("%s: [%d] = %v, want %v within %g", what, i, g, w.sum[i], tol)
			}
			continue
		}
		if bitsOf(g) != bitsOf(w.exact[i]) {
			t.Fatalf("%s: [%d] = %v, want %v (input of %d)", what, i, g, w.exact[i], len(got))
		}
	}
}

// sentinel fills guard regions and outputs before a kernel runs.
func sentinel[T scan.Elem]() T {
	var v T
	switch p := any(&v).(type) {
	case *uint32:
		*p = 0xDEADBEEF
	case *int32:
		*p = -559038737
	case *float32:
		*p = 1234.5
	}
	return v
}

// upload copies data into a new buffer, freed with the test.
func upload[T any](t testing.TB, c *gpu.Context, data []T) *gpu.Buffer[T] {
	t.Helper()
	b, err := gpu.NewBufferFrom(c, data)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Delete)
	return b
}

// randHeads returns head flags: a head with probability 1/meanLen, with
// random nonzero values (not just 1) to check that any nonzero counts.
func randHeads(rng *rand.Rand, n, meanLen int) []uint32 {
	f := make([]uint32, n)
	for i := range f {
		if rng.IntN(meanLen) == 0 {
			f[i] = rng.Uint32() | 1
		}
	}
	return f
}

func guarded[T any](t *testing.T, c *gpu.Context, n int, sent T, init []T) *gputest.Guarded[T] {
	t.Helper()
	g := gputest.NewGuarded(t, c, n, sent, init)
	t.Cleanup(g.Delete)
	return g
}
