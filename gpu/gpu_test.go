package gpu_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"unsafe"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/shaders"
)

func TestCaps(t *testing.T) {
	c := gputest.Context(t)
	cp := c.Caps()
	t.Logf("%s", cp)
	if cp.Major < 4 || cp.Major == 4 && cp.Minor < 3 {
		t.Fatalf("context is OpenGL %d.%d, want >= 4.3", cp.Major, cp.Minor)
	}
	if cp.Renderer == "" || cp.Version == "" || cp.Vendor == "" {
		t.Fatalf("empty renderer/version/vendor: %+v", cp)
	}
	if cp.MaxWorkGroupCount[0] < 65535 || cp.MaxWorkGroupInvocations < 1024 || cp.MaxSharedMemory < 32768 {
		t.Fatalf("limits below the GL 4.3 minimums: %+v", cp)
	}
	if cp.MaxSSBOSize < 1<<24 || cp.SSBOOffsetAlignment <= 0 {
		t.Fatalf("storage limits: %d bytes, alignment %d", cp.MaxSSBOSize, cp.SSBOOffsetAlignment)
	}
	if !cp.HasExtension("GL_ARB_compute_shader") {
		t.Fatal("HasExtension(GL_ARB_compute_shader) is false on a 4.3+ context")
	}
	if cp.HasExtension("GL_DPGL_no_such_extension") {
		t.Fatal("HasExtension reports an invented extension")
	}
	// Capabilities follow the driver's answers, whatever its name (zink
	// over lavapipe names llvmpipe and has what llvmpipe lacks).
	if cp.Subgroup && !cp.HasExtension("GL_KHR_shader_subgroup") {
		t.Fatalf("subgroups %v without GL_KHR_shader_subgroup", cp.Subgroup)
	}
	if cp.Subgroup {
		// The spec: a power of two, at least 1; every stage that has
		// subgroups has the basic operations.
		if sz := cp.SubgroupSize; sz < 1 || sz > 1024 || sz&(sz-1) != 0 || !cp.HasSubgroup(gpu.SubgroupBasic) {
			t.Fatalf("subgroup size %d, features 0x%x", sz, cp.SubgroupFeatures)
		}
	} else if cp.SubgroupSize != 0 || cp.SubgroupFeatures != 0 || cp.HasSubgroup(0) {
		t.Fatalf("no subgroups, yet size %d and features 0x%x", cp.SubgroupSize, cp.SubgroupFeatures)
	}
	if cp.Atomic64 != (cp.Int64 && cp.HasExtension("GL_NV_shader_atomic_int64")) || cp.Int64 != cp.HasExtension("GL_ARB_gpu_shader_int64") {
		t.Fatalf("int64 %v, atomic64 %v, extensions: %v", cp.Int64, cp.Atomic64, cp.Extensions)
	}
	if cp.LoopLimit < 0 {
		t.Fatalf("loop limit %d", cp.LoopLimit)
	}
	if got := gpu.LockstepLanes(cp.Renderer); cp.LockstepLanes != got {
		t.Fatalf("LockstepLanes %d, and %d from the renderer %q", cp.LockstepLanes, got, cp.Renderer)
	}
}

// TestLockstepLanes reads llvmpipe's vector width from its renderer
// string, and no width from any other driver's, zink over lavapipe's
// included, which names llvmpipe inside its own.
func TestLockstepLanes(t *testing.T) {
	for _, c := range []struct {
		renderer string
		lanes    int
	}{
		{"llvmpipe (LLVM 15.0.6, 256 bits)", 8},
		{"llvmpipe (LLVM 15.0.6, 128 bits)", 4},
		{"llvmpipe (LLVM 19.1.7, 512 bits)", 16},
		{"llvmpipe (LLVM 19.1.7, 1024 bits)", 16}, // its compute shaders take at most 16 lanes
		{"llvmpipe (LLVM 12.0.0, 16 bits)", 0},
		{"zink Vulkan 1.4(llvmpipe (LLVM 19.1.7, 256 bits) (MESA_LLVMPIPE))", 0},
		{"softpipe", 0},
		{"NVIDIA H200/PCIe/SSE2", 0},
		{"llvmpipe", 0},
		{"llvmpipe (LLVM 15.0.6, 99999999999999999999 bits)", 0},
		{"", 0},
	} {
		if got := gpu.LockstepLanes(c.renderer); got != c.lanes {
			t.Errorf("LockstepLanes(%q) = %d, want %d", c.renderer, got, c.lanes)
		}
	}
}

// Caps.LoopLimit says what a loop longer than it does: ends early, silently,
// where it is nonzero, and runs to its end where it is zero. The loops here
// are nested, unlike the probe's, and 50% past the limit.
func TestLoopLimit(t *testing.T) {
	c := gputest.Context(t)
	lim := c.Caps().LoopLimit
	fsys := fstest.MapFS{"k/loops.comp": {Data: []byte(`#version 430
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { uint count; };
uniform uint outer;
void main() {
    uint c = 0u;
    for (uint i = 0u; i < outer; i++) {
        for (uint j = 0u; j < 1000u; j++) {
            c += (i ^ j) | 1u;
        }
    }
    count = c;
}
`)}}
	p, err := c.ProgramFS(fsys, "k/loops.comp", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := gpu.NewBuffer[uint32](c, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Delete()
	outer := 200 // 200,000 iterations of the inner loop when there is no limit
	if lim > 0 {
		outer = (lim + lim/2 + 999) / 1000
	}
	var want uint32
	for i := 0; i < outer; i++ {
		for j := 0; j < 1000; j++ {
			want += uint32(i^j) | 1
		}
	}
	c.Do(func() {
		c.BindStorage(0, b)
		p.SetUint("outer", uint32(outer))
		p.Dispatch(1, 1, 1)
	})
	got := b.Get(0)
	t.Logf("loop limit %d: %d x 1000 iterations summed to %d, the CPU to %d", lim, outer, got, want)
	if lim == 0 && got != want {
		t.Fatalf("LoopLimit is 0, and %d x 1000 iterations of a loop summed to %d, not %d: the driver cuts loops", outer, got, want)
	}
	if lim > 0 && got == want {
		t.Fatalf("LoopLimit is %d, and %d x 1000 iterations ran to the end", lim, outer)
	}
}

func TestDoFromManyGoroutines(t *testing.T) {
	c := gputest.Context(t)
	if c.OnThread() {
		t.Fatal("test goroutine claims to be the GL thread")
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	on := 0
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Do(func() {
				c.Do(func() { // nested Do runs at once
					mu.Lock()
					if c.OnThread() {
						on++
					}
					mu.Unlock()
				})
			})
		}()
	}
	wg.Wait()
	if on != 16 {
		t.Fatalf("%d of 16 calls ran on the GL thread", on)
	}
	defer func() {
		if p := recover(); p == nil || fmt.Sprint(p) != "boom" {
			t.Fatalf("panic on the GL thread reached the caller as %v", p)
		}
	}()
	c.Do(func() { panic("boom") })
}

func TestGLCallOffThreadPanics(t *testing.T) {
	c := gputest.Context(t)
	p := c.MustProgram("copy/copy.comp", nil)
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "off the GL thread") {
			t.Fatalf("dispatch off the GL thread: recovered %v", r)
		}
	}()
	p.Dispatch(1, 1, 1)
}

func TestBufferRoundTrip(t *testing.T) {
	c := gputest.Context(t)
	for _, n := range []int{0, 1, 2, 4095, 4096, 4097, 1 << 24} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			src := make([]uint32, n)
			for i := range src {
				src[i] = uint32(i)*2654435761 + 7
			}
			b, err := gpu.NewBufferFrom(c, src)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Delete()
			if b.Len() != n || b.ByteSize() != 4*n {
				t.Fatalf("Len %d ByteSize %d", b.Len(), b.ByteSize())
			}
			got := b.Download()
			for i := range src {
				if got[i] != src[i] {
					t.Fatalf("element %d: got %d want %d", i, got[i], src[i])
				}
			}
			if n < 3 {
				return
			}
			// Partial write, read, fill and copy at odd offsets.
			b.Write(1, []uint32{11, 12})
			b.FillRange(n-2, 2, 99)
			part := make([]uint32, 4)
			b.Read(0, part)
			if part[0] != src[0] || part[1] != 11 || part[2] != 12 {
				t.Fatalf("after Write: %v", part)
			}
			if b.Get(n-1) != 99 || b.Get(n-2) != 99 || b.Get(n-3) != src[n-3] {
				t.Fatalf("FillRange wrote outside its range")
			}
			d, err := gpu.NewBuffer[uint32](c, n)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Delete()
			if d.Get(n/2) != 0 {
				t.Fatal("new buffer not zeroed")
			}
			d.CopyRange(1, b, 0, n-1)
			if d.Get(0) != 0 || d.Get(2) != 11 || d.Get(n-1) != 99 {
				t.Fatalf("CopyRange: %d %d %d", d.Get(0), d.Get(2), d.Get(n-1))
			}
			d.CopyFrom(b)
			if d.Get(n/2) != b.Get(n/2) {
				t.Fatal("CopyFrom")
			}
		})
	}
}

type rec12 struct{ A, B, C uint32 }
type rec20 struct {
	A    float32
	B    [3]int32
	Flag uint32
}

func TestFillAnySize(t *testing.T) {
	c := gputest.Context(t)
	b12, _ := gpu.NewBuffer[rec12](c, 5000)
	defer b12.Delete()
	b12.Fill(rec12{1, 2, 3})
	b20, _ := gpu.NewBuffer[rec20](c, 9000)
	defer b20.Delete()
	v := rec20{1.5, [3]int32{-1, 2, -3}, 7}
	b20.FillRange(1, 8998, v)
	g12, g20 := b12.Download(), b20.Download()
	for i, x := range g12 {
		if x != (rec12{1, 2, 3}) {
			t.Fatalf("rec12[%d] = %v", i, x)
		}
	}
	for i, x := range g20 {
		want := v
		if i == 0 || i == len(g20)-1 {
			want = rec20{}
		}
		if x != want {
			t.Fatalf("rec20[%d] = %v, want %v", i, x, want)
		}
	}
}

// TestFillRepeatedWords fills wider elements whose 32-bit words are all
// the same (filled as words) and ones whose words differ, over a range
// with an element left untouched each side.
func TestFillRepeatedWords(t *testing.T) {
	c := gputest.Context(t)
	check := func(name string, got []uint32, perElem, n int, fill func(i int) uint32) {
		t.Helper()
		for i, w := range got {
			want := uint32(0xdeadbeef) // the guards
			if e := i / perElem; e >= 1 && e <= n {
				want = fill(i % perElem)
			}
			if w != want {
				t.Fatalf("%s: word %d (element %d) = %#x, want %#x", name, i, i/perElem, w, want)
			}
		}
	}
	const n = 5001
	guard := func(words int) []uint32 {
		g := make([]uint32, words)
		for i := range g {
			g[i] = 0xdeadbeef
		}
		return g
	}
	b2, _ := gpu.NewBuffer[[2]uint32](c, n+2)
	defer b2.Delete()
	for _, v := range [][2]uint32{{0xffffffff, 0xffffffff}, {0, 0}, {0xffffffff, 0x00ffffff}} {
		b2.Write(0, unsafe.Slice((*[2]uint32)(unsafe.Pointer(&guard(2 * (n + 2))[0])), n+2))
		b2.FillRange(1, n, v)
		got := b2.Download()
		check(fmt.Sprintf("[2]uint32 %#x", v), unsafe.Slice(&got[0][0], 2*len(got)), 2, n, func(k int) uint32 { return v[k] })
	}
	b12, _ := gpu.NewBuffer[rec12](c, n+2)
	defer b12.Delete()
	b12.Write(0, unsafe.Slice((*rec12)(unsafe.Pointer(&guard(3 * (n + 2))[0])), n+2))
	b12.FillRange(1, n, rec12{42, 42, 42})
	g12 := b12.Download()
	check("rec12 of one word", unsafe.Slice(&g12[0].A, 3*len(g12)), 3, n, func(int) uint32 { return 42 })
	b16, _ := gpu.NewBuffer[[4]uint32](c, n+2)
	defer b16.Delete()
	b16.Write(0, unsafe.Slice((*[4]uint32)(unsafe.Pointer(&guard(4 * (n + 2))[0])), n+2))
	b16.FillRange(1, n, [4]uint32{7, 7, 7, 7})
	g16 := b16.Download()
	check("[4]uint32 of one word", unsafe.Slice(&g16[0][0], 4*len(g16)), 4, n, func(int) uint32 { return 7 })
}

func TestBufferMisuse(t *testing.T) {
	c := gputest.Context(t)
	expectPanic := func(what, want string, f func()) {
		t.Helper()
		defer func() {
			r := recover()
			if r == nil || !strings.Contains(fmt.Sprint(r), want) {
				t.Errorf("%s: recovered %v, want a panic with %q", what, r, want)
			}
		}()
		f()
	}
	b, _ := gpu.NewBuffer[uint32](c, 10)
	expectPanic("write past end", "out of range", func() { b.Write(8, make([]uint32, 3)) })
	expectPanic("negative read", "out of range", func() { b.Read(-1, make([]uint32, 1)) })
	expectPanic("copy length", "src has 5 elements", func() {
		o, _ := gpu.NewBuffer[uint32](c, 5)
		defer o.Delete()
		b.CopyFrom(o)
	})
	expectPanic("overlap", "overlapping", func() { b.CopyRange(2, b, 0, 4) })
	expectPanic("pointer type", "cannot live in GPU memory", func() { gpu.NewBuffer[*int](c, 1) })
	expectPanic("string field", "cannot live in GPU memory", func() { gpu.NewBuffer[struct{ S string }](c, 1) })
	b.Delete()
	b.Delete() // idempotent
	expectPanic("deleted", "deleted Buffer", func() { b.Get(0) })
	var nb *gpu.Buffer[uint32]
	expectPanic("nil", "nil *Buffer", func() { nb.Download() })
}

func TestBufferOverLimitRefused(t *testing.T) {
	c := gputest.Context(t)
	max := c.Caps().MaxSSBOSize
	n := int(max/4) + 1
	b, err := gpu.NewBuffer[uint32](c, n)
	if err == nil {
		b.Delete()
		t.Fatalf("a buffer of %d bytes over the %d-byte limit was made", 4*int64(n), max)
	}
	if !strings.Contains(err.Error(), "GL_MAX_SHADER_STORAGE_BLOCK_SIZE") || !strings.Contains(err.Error(), fmt.Sprint(n)) {
		t.Fatalf("error does not name the limit and the length: %v", err)
	}
	// Exactly the limit is allowed (on drivers where that fits in memory).
	if max <= 1<<28 {
		b, err := gpu.NewBuffer[byte](c, int(max))
		if err != nil {
			t.Fatalf("a buffer of exactly the limit: %v", err)
		}
		b.Delete()
	}
}

// copyRun copies n 16-byte vectors with the copy kernel.
func copyRun(t *testing.T, c *gpu.Context, wg, items, n4 int) {
	src := make([]uint32, 4*n4)
	for i := range src {
		src[i] = uint32(i ^ 0x5a5a)
	}
	sb, err := gpu.NewBufferFrom(c, src)
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Delete()
	g := gputest.NewGuarded[uint32](t, c, 4*n4, 0xdeadbeef, nil)
	defer g.Delete()
	p, err := c.Program("copy/copy.comp", map[string]string{"WG_SIZE": fmt.Sprint(wg), "ITEMS": fmt.Sprint(items)})
	if err != nil {
		t.Fatal(err)
	}
	if p.LocalSize != [3]int{wg, 1, 1} {
		t.Fatalf("local size %v", p.LocalSize)
	}
	c.Do(func() {
		c.BindStorage(0, sb)
		c.BindStorage(1, g.View)
		p.SetUint("n4", uint32(n4))
		p.DispatchItems(n4, items)
	})
	got := g.Check(t, "copy")
	for i := range src {
		if got[i] != src[i] {
			t.Fatalf("copy element %d: %x want %x", i, got[i], src[i])
		}
	}
}

func TestCopyKernel(t *testing.T) {
	c := gputest.Context(t)
	for _, n4 := range []int{1, 255, 256, 1023, 1024, 1025, 100000} {
		copyRun(t, c, 256, 4, n4)
	}
}

func TestDispatchBeyondXLimitUsesGrid(t *testing.T) {
	c := gputest.Context(t)
	max := c.Caps().MaxWorkGroupCount[0]
	groups := max + 3
	x, y := c.Grid(groups)
	if x > max || x*y < groups || x*(y-1) >= groups {
		t.Fatalf("Grid(%d) = %d x %d", groups, x, y)
	}
	if max > 1<<20 {
		t.Skipf("x limit %d: a grid test would need too much memory", max)
	}
	copyRun(t, c, 32, 1, groups*32)
}

func TestCompileErrorNamesIncludeFileAndLine(t *testing.T) {
	c := gputest.Context(t)
	fsys := fstest.MapFS{
		"k/bad.comp":     {Data: []byte("#version 450\nlayout(local_size_x = 1) in;\n#include \"include/common.glsl\"\n#include \"../lib/oops.glsl\"\nvoid main() { f(); }\n")},
		"lib/oops.glsl":  {Data: []byte("// fine\nvoid f() {\n    undeclared_thing = 1;\n}\n")},
		"k/badmain.comp": {Data: []byte("#version 450\nlayout(local_size_x = 1) in;\n\nvoid main() { int x = ; }\n")},
	}
	inc, _ := shaders.FS.ReadFile("include/common.glsl")
	fsys["include/common.glsl"] = &fstest.MapFile{Data: inc}
	before := c.Live()
	_, err := c.ProgramFS(fsys, "k/bad.comp", map[string]string{"Q": "1"})
	if err == nil {
		t.Fatal("a shader with an error compiled")
	}
	if !strings.Contains(err.Error(), "lib/oops.glsl:3") {
		t.Fatalf("error does not point at lib/oops.glsl:3:\n%v", err)
	}
	_, err = c.ProgramFS(fsys, "k/badmain.comp", nil)
	if err == nil || !strings.Contains(err.Error(), "k/badmain.comp:4") {
		t.Fatalf("error does not point at k/badmain.comp:4:\n%v", err)
	}
	if after := c.Live(); after != before {
		t.Fatalf("failed builds leaked GL objects: before %v, after %v", before, after)
	}
}

func TestProgramCache(t *testing.T) {
	c := gputest.Context(t)
	a := c.MustProgram("copy/copy.comp", map[string]string{"WG_SIZE": "64", "ITEMS": "2"})
	b := c.MustProgram("copy/copy.comp", map[string]string{"ITEMS": "2", "WG_SIZE": "64"})
	d := c.MustProgram("copy/copy.comp", map[string]string{"WG_SIZE": "64", "ITEMS": "1"})
	if a != b {
		t.Fatal("same source and defines gave two programs")
	}
	if a == d {
		t.Fatal("different defines gave one program")
	}
	if _, err := c.Program("copy/none.comp", nil); err == nil || !strings.Contains(err.Error(), "copy/none.comp") {
		t.Fatalf("missing shader: %v", err)
	}
}

func TestNoLeaksAndDelete(t *testing.T) {
	gputest.Context(t) // skip like the others when there is no GL
	c, err := gpu.NewHeadless()
	if err != nil {
		t.Fatal(err)
	}
	var bufs []*gpu.Buffer[float32]
	for i := 0; i < 5; i++ {
		b, err := gpu.NewBuffer[float32](c, 100*i)
		if err != nil {
			t.Fatal(err)
		}
		bufs = append(bufs, b)
	}
	tm := c.NewTimer()
	c.MustProgram("copy/copy.comp", nil)
	live := c.Live()
	if live[gpu.KindBuffer] != 4 || live[gpu.KindQuery] != 2 || live[gpu.KindProgram] != 1 || live[gpu.KindShader] != 0 {
		t.Fatalf("live objects %v", live)
	}
	for _, b := range bufs {
		b.Delete()
	}
	tm.Delete()
	c.Delete()
	c.Delete()
	if live := c.Live(); live != (gpu.Objects{}) {
		t.Fatalf("after Delete, live objects: %v (made %v)", live, c.Made())
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "after Delete") {
				t.Fatalf("use after Delete: %v", r)
			}
		}()
		c.Finish()
	}()
}

func TestTimestamps(t *testing.T) {
	c := gputest.Context(t)
	if !c.Caps().Timestamp {
		t.Skip("the driver's GL_TIMESTAMP counter has 0 bits")
	}
	p := c.MustProgram("copy/copy.comp", nil)
	measure := func(n4 int) (uint64, uint64, uint64) {
		s, _ := gpu.NewBuffer[[4]uint32](c, n4)
		d, _ := gpu.NewBuffer[[4]uint32](c, n4)
		defer s.Delete()
		defer d.Delete()
		a, b := c.NewStamp(), c.NewStamp()
		defer a.Delete()
		defer b.Delete()
		c.Do(func() {
			a.Record()
			c.BindStorage(0, s)
			c.BindStorage(1, d)
			p.SetUint("n4", uint32(n4))
			for i := 0; i < 4; i++ {
				p.DispatchItems(n4, 4) // copy.comp: ITEMS 4 by default
			}
			b.Record()
		})
		now := c.GPUTime()
		return a.Nanos(), b.Nanos(), now
	}
	small0, small1, now := measure(1 << 10)
	big0, big1, _ := measure(1 << 22)
	if small1 < small0 || big1 < big0 || big0 < small1 {
		t.Fatalf("timestamps not increasing: %d %d %d %d", small0, small1, big0, big1)
	}
	if now == 0 {
		t.Fatal("GL_TIMESTAMP reads 0")
	}
	small, big := small1-small0, big1-big0
	t.Logf("4 copies of 16 KiB: %d ns; of 64 MiB: %d ns", small, big)
	// 256 MiB moved through memory: more than 10 us on any device, less than 60 s.
	if big < 10_000 || big > 60_000_000_000 {
		t.Fatalf("implausible GPU time %d ns for 4 copies of 64 MiB", big)
	}
	if big <= small {
		t.Fatalf("copying 4096x more data took no longer: %d ns vs %d ns", big, small)
	}
	tm := c.NewTimer()
	defer tm.Delete()
	if _, ok := tm.TryElapsed(); ok {
		t.Fatal("a timer that never ran is ready")
	}
	c.Do(func() { tm.Start(); tm.Stop() })
	c.Finish()
	if d, ok := tm.TryElapsed(); !ok || d < 0 {
		t.Fatalf("timer after Finish: %v %v", d, ok)
	}
}

func TestNewErrorIsDescriptive(t *testing.T) {
	_, err := gpu.New(failing{})
	if err == nil || !strings.Contains(err.Error(), "no display here") {
		t.Fatalf("New with a failing platform: %v", err)
	}
}

type failing struct{}

func (failing) Open(bool) (func(string) unsafe.Pointer, string, error) {
	return nil, "", errors.New("no display here")
}
func (failing) Close() {}
