package gpu_test

import (
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
)

// Every read-back and copy of package gpu issues the memory barrier that
// a shader's writes owe it, once, without the caller's help: whether
// llvmpipe would show stale data without it cannot be made to fail on
// demand (its barriers and maps both wait for the GPU), so the test
// checks the barriers issued.
func TestReadBacksIssueTheBarrier(t *testing.T) {
	c := gputest.Context(t)
	const n4 = 1000
	src := make([]uint32, 4*n4)
	for i := range src {
		src[i] = uint32(i)*2654435761 + 1
	}
	sb, err := gpu.NewBufferFrom(c, src)
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Delete()
	dst, err := gpu.NewBuffer[uint32](c, 4*n4)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Delete()
	p := c.MustProgram("copy/copy.comp", map[string]string{"WG_SIZE": "64", "ITEMS": "1"})
	run := func(groups int, then ...gpu.Barrier) {
		t.Helper()
		c.Do(func() {
			c.BindStorage(0, sb)
			c.BindStorage(1, dst)
			p.SetUint("n4", n4)
			p.Dispatch1D(groups)
			for _, b := range then {
				c.Barrier(b)
			}
		})
	}
	// issues runs f and checks the barriers it issued: none, or one with
	// exactly the bits want.
	issues := func(what string, want gpu.Barrier, f func()) {
		t.Helper()
		n0, _ := c.Barriers()
		f()
		n, last := c.Barriers()
		switch {
		case want == 0 && n != n0:
			t.Errorf("%s: issued %d barriers (the last 0x%x), want none", what, n-n0, uint32(last))
		case want != 0 && (n != n0+1 || last != want):
			t.Errorf("%s: issued %d barriers, the last 0x%x; want one, 0x%x", what, n-n0, uint32(last), uint32(want))
		}
	}
	groups := (n4 + 63) / 64
	check := func(what string) {
		t.Helper()
		got := dst.Download()
		for i := range src {
			if got[i] != src[i] {
				t.Fatalf("%s: dst[%d] = %d, want %d", what, i, got[i], src[i])
			}
		}
	}

	run(groups)
	issues("Read after a dispatch", gpu.BarrierBufferUpdate, func() { check("first dispatch") })
	issues("a second Read", 0, func() { dst.Get(5) })

	run(groups, gpu.BarrierBufferUpdate)
	issues("Read after the caller's BarrierBufferUpdate", 0, func() { check("caller's barrier") })

	run(groups, gpu.BarrierStorage)
	issues("Read after only BarrierStorage", gpu.BarrierBufferUpdate, func() { check("storage barrier") })

	run(0)
	issues("Read after a dispatch of no groups", 0, func() { dst.Get(0) })

	for _, op := range []struct {
		name string
		f    func()
	}{
		{"Write", func() { dst.Write(0, src[:1]) }},
		{"FillRange", func() { dst.FillRange(0, 1, src[0]) }},
		{"CopyRange", func() { dst.CopyRange(0, sb, 0, 1) }},
	} {
		run(groups)
		issues(op.name+" after a dispatch", gpu.BarrierBufferUpdate, op.f)
		issues(op.name+" again", 0, op.f)
	}
	check("after the writes")

	tex, err := gpu.NewTexture(c, 40, 25, gpu.RGBA8) // 1000 pixels: the first quarter of dst
	if err != nil {
		t.Fatal(err)
	}
	defer tex.Delete()
	run(groups)
	issues("Texture.CopyFromBuffer after a dispatch", gpu.Barrier(pixelBufferBit)|texUpdate, func() { tex.CopyFromBuffer(dst) })
	run(groups)
	issues("Texture.Read after a dispatch", texUpdate, func() {
		for i, v := range tex.ReadUint32() {
			if v != src[i] {
				t.Fatalf("texture pixel %d = %x, want %x", i, v, src[i])
			}
		}
	})
	issues("Texture.Read again", 0, func() { tex.Read() })
}

// GL_PIXEL_BUFFER_BARRIER_BIT and the rest, which Barrier has no names for.
const (
	pixelBufferBit   = 0x80
	textureUpdateBit = 0x100
	framebufferBit   = 0x400
	texUpdate        = gpu.Barrier(textureUpdateBit | framebufferBit)
)

// Overlap and SameRange compare ranges by their bytes in one buffer.
func TestOverlapAndSameRange(t *testing.T) {
	c := gputest.Context(t)
	a, _ := gpu.NewBuffer[uint32](c, 256)
	defer a.Delete()
	b, _ := gpu.NewBuffer[uint32](c, 256)
	defer b.Delete()
	var empty gpu.Buffer[uint32]
	for _, tc := range []struct {
		name          string
		x, y          gpu.Storage
		overlap, same bool
	}{
		{"buffer and itself", a, a, true, true},
		{"buffer and its whole range", a, a.Slice(0, 256), true, true},
		{"two buffers", a, b, false, false},
		{"ranges at one offset", a.Slice(64, 10), a.Slice(64, 10), true, true},
		{"ranges sharing an element", a.Slice(0, 65), a.Slice(64, 10), true, false},
		{"adjacent ranges", a.Slice(0, 64), a.Slice(64, 10), false, false},
		{"same offsets in two buffers", a.Slice(64, 10), b.Slice(64, 10), false, false},
		{"an empty range inside", a.Slice(70, 0), a.Slice(64, 10), false, false},
		{"empty buffers", &empty, &empty, false, false},
	} {
		if o, s := gpu.Overlap(tc.x, tc.y), gpu.SameRange(tc.x, tc.y); o != tc.overlap || s != tc.same {
			t.Errorf("%s: Overlap %v SameRange %v, want %v %v", tc.name, o, s, tc.overlap, tc.same)
		}
		if o := gpu.Overlap(tc.y, tc.x); o != tc.overlap {
			t.Errorf("%s, swapped: Overlap %v", tc.name, o)
		}
	}
}
