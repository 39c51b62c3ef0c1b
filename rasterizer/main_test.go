package rasterizer

import (
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/scan"
)

// ranVisibility checks that a frame's stats name the visibility path the
// renderer and the driver call for, and records it for TestMain's list: the
// one-pass path on the driver's 64-bit atomicMin wherever the driver has
// it, never on the stand-in there.
func ranVisibility(t *testing.T, rd *Renderer, st FrameStats) {
	t.Helper()
	want := "32-bit: the nearest tests' keys by compare-and-swap"
	switch {
	case !rd.Visibility64() && rd.maxKeyWords > 0:
		want = "32-bit: depths, then ids by search" // the fallback, forced
	case rd.Visibility64() && rd.c.Caps().Atomic64:
		want = visibility64
	case rd.Visibility64():
		want = visibility64Emulated
	}
	if st.Visibility != want {
		t.Fatalf("the frame ran visibility %q, want %q (Visibility64 %v, the driver's 64-bit atomics %v)",
			st.Visibility, want, rd.Visibility64(), rd.c.Caps().Atomic64)
	}
	gputest.Ran("visibility: " + st.Visibility)
}

// TestMain lists the visibility paths the tests ran; under
// DPGL_EXPECT_ATOMIC64=1 the one-pass path must have run on the driver's
// 64-bit atomicMin.
func TestMain(m *testing.M) {
	gputest.Main(m, func(*gpu.Caps) []string {
		if gputest.ExpectAtomic64() {
			return []string{"visibility: " + visibility64}
		}
		return nil
	})
}

// renderedWith makes a renderer with options o and tests' overrides test
// and renders m as cam sees it, failing the test on an error; the caller
// deletes the renderer.
func renderedWith(t *testing.T, s *scan.Scanner, o Options, test testOptions, m *mesh.GPU, cam view.Camera) (*Renderer, FrameStats) {
	t.Helper()
	rd, err := newRenderer(s, o, test)
	if err != nil {
		t.Fatal(err)
	}
	st, err := rd.Render(m, cam)
	if err != nil {
		rd.Delete()
		t.Fatal(err)
	}
	return rd, st
}
