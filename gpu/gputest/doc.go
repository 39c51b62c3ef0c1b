// Package gputest gives tests of GPU packages one shared headless context
// and guard-region helpers.
//
// A test binary makes one context (on first use) and shares it: contexts are
// slow to make on llvmpipe. When no OpenGL 4.3+ context can be made, tests
// skip with the reason, unless DPGL_REQUIRE_GL is set (make test sets it), in
// which case they fail. A driver that falls short of the DPGL_EXPECT_*
// variables (expect.go) fails every test that asks for the context.
//
// # What it offers
//
//	Context     the shared *gpu.Context (skip or fail as above)
//	Guarded     an n-element output with Guard elements of a sentinel on
//	            each side; Check fails the test when a kernel wrote into
//	            them, and returns the inner elements to compare with a
//	            plain loop's
//	Rand        a generator seeded from the test's name, so that a failure
//	            repeats with the same inputs
//	Main, Ran   a TestMain that prints the driver and the kernel paths the
//	            tests ran (Ran), and fails a run under DPGL_EXPECT_SUBGROUPS
//	            or DPGL_EXPECT_ATOMIC64 when a path that the driver should
//	            have taken did not run: a silent fall-back fails instead of
//	            passing
//
// A typical test:
//
//	c := gputest.Context(t)
//	g := gputest.NewGuarded[uint32](t, c, n, 0xdeadbeef, nil)
//	defer g.Delete()
//	kernel(c, g.View)               // the function under test writes g.View
//	got := g.Check(t, "kernel")     // guards intact, or the test fails
//
// The shared context's GL thread serves every test of the binary; tests
// that run in parallel take turns on it (gpu.Context.Do), so a test never
// calls GL itself, only through package gpu. Outputs of Rand are fixed by
// the test's name and the Go release.
package gputest
