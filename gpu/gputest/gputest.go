package gputest

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/dpgl/dpgl/gpu"
)

var shared struct {
	once sync.Once
	ctx  *gpu.Context
	err  error
	miss string // how the driver falls short of DPGL_EXPECT_*
}

// Context returns the shared headless context, skipping (or failing, under
// DPGL_REQUIRE_GL) when none can be made, and failing when it is not the
// driver DPGL_EXPECT_* asks for.
func Context(tb testing.TB) *gpu.Context {
	tb.Helper()
	shared.once.Do(func() {
		shared.ctx, shared.err = gpu.NewHeadless()
		if shared.err == nil {
			cp := shared.ctx.Caps()
			fmt.Fprintf(os.Stderr, "gputest: %s\n", cp)
			shared.miss = checkExpectations(cp)
		}
	})
	if shared.miss != "" {
		tb.Fatalf("gputest: the driver is not what this run expects: %s", shared.miss)
	}
	if shared.err != nil {
		if os.Getenv("DPGL_REQUIRE_GL") != "" {
			tb.Fatalf("DPGL_REQUIRE_GL is set and no GL context could be made: %v", shared.err)
		}
		tb.Skipf("no OpenGL 4.3+ context: %v", shared.err)
	}
	return shared.ctx
}

// Guard is the number of elements of guard region on each side of a Guarded
// array: 64 elements keep the inner view aligned for any SSBO offset
// alignment up to 64 times the element size.
const Guard = 64

// Guarded is an n-element GPU array with guard regions of known content on
// both sides, to catch kernels writing out of bounds.
type Guarded[T any] struct {
	Buf   *gpu.Buffer[T]
	View  gpu.Range[T]
	guard []T
}

// NewGuarded allocates n elements surrounded by Guard elements of sentinel
// on each side, and fills the inner view with init (when non-nil).
func NewGuarded[T any](tb testing.TB, c *gpu.Context, n int, sentinel T, init []T) *Guarded[T] {
	tb.Helper()
	b, err := gpu.NewBuffer[T](c, n+2*Guard)
	if err != nil {
		tb.Fatalf("gputest.NewGuarded(%d): %v", n, err)
	}
	b.Fill(sentinel)
	g := &Guarded[T]{Buf: b, View: b.Slice(Guard, n), guard: make([]T, Guard)}
	for i := range g.guard {
		g.guard[i] = sentinel
	}
	if init != nil {
		if len(init) != n {
			tb.Fatalf("gputest.NewGuarded: init has %d elements, want %d", len(init), n)
		}
		g.View.Write(0, init)
	}
	return g
}

// Check fails the test if a guard element changed, and returns the inner
// view's contents.
func (g *Guarded[T]) Check(tb testing.TB, what string) []T {
	tb.Helper()
	all := g.Buf.Download()
	n := g.View.N
	for i := 0; i < Guard; i++ {
		if any(all[i]) != any(g.guard[i]) {
			tb.Fatalf("%s: guard element %d before the output was overwritten: %v", what, Guard-i, all[i])
		}
		if any(all[Guard+n+i]) != any(g.guard[i]) {
			tb.Fatalf("%s: guard element %d after the output (index %d) was overwritten: %v", what, i, n+i, all[Guard+n+i])
		}
	}
	return all[Guard : Guard+n]
}

// Delete frees the buffer.
func (g *Guarded[T]) Delete() { g.Buf.Delete() }

// Rand returns a generator with a fixed seed derived from the test's name,
// so that a failure repeats.
func Rand(tb testing.TB) *rand.Rand {
	h := uint64(14695981039346656037)
	for _, c := range tb.Name() {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return rand.New(rand.NewPCG(h, 0x9e3779b97f4a7c15))
}

// MustPanic fails tb unless f panics with a message containing want: the
// check of a programmer's misuse, which dpgl's packages answer with a
// "pkg: ..." panic.
func MustPanic(tb testing.TB, want string, f func()) {
	tb.Helper()
	defer func() {
		tb.Helper()
		p := recover()
		if p == nil {
			tb.Fatalf("no panic, want one with %q", want)
		}
		if msg := fmt.Sprint(p); !strings.Contains(msg, want) {
			tb.Fatalf("panic %q, want it to contain %q", msg, want)
		}
	}()
	f()
}
