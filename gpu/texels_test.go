package gpu_test

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
)

// texelKernel copies texel i of the buffer texture at unit 0 into words
// [4i, 4i+4) of binding 0, for i < n, as the bits of its components (KIND
// 3, one-word texels: its x into word i).
const texelKernel = `#version 450
layout(local_size_x = 64) in;
#if KIND == 0
layout(binding = 0) uniform samplerBuffer tex;
#define BITS(v) floatBitsToUint(v)
#elif KIND == 1
layout(binding = 0) uniform isamplerBuffer tex;
#define BITS(v) uvec4(v)
#else
layout(binding = 0) uniform usamplerBuffer tex;
#define BITS(v) (v)
#endif
layout(std430, binding = 0) writeonly buffer Out { uint o[]; };
uniform uint n;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n) return;
    uvec4 v = BITS(texelFetch(tex, int(i)));
#if KIND == 3
    o[i] = v.x;
    return;
#endif
    o[4u * i] = v.x;
    o[4u * i + 1u] = v.y;
    o[4u * i + 2u] = v.z;
    o[4u * i + 3u] = v.w;
}
`

// TestTexelBufferFetch reads random words through a TexelBuffer in each
// format, over whole buffers and ranges of them, at sizes around a work
// group: every texel's components are the storage's bits (floats random
// finite values, signed integers negative ones too), the output's guards
// stay untouched, and Delete frees the texture.
func TestTexelBufferFetch(t *testing.T) {
	c := gputest.Context(t)
	r := gputest.Rand(t)
	fsys := fstest.MapFS{"k/texels.comp": {Data: []byte(texelKernel)}}
	before := c.Live()
	tex, err := gpu.NewTexelBuffer(c)
	if err != nil {
		t.Fatal(err)
	}
	var align int
	c.Do(func() {
		if c.MaxTexels() < 1<<16 {
			t.Errorf("MaxTexels %d, below GL 4.3's 65536", c.MaxTexels())
		}
	})
	// A range's first texel: 256 bytes is a multiple of every driver's
	// GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT (at most 256 in GL 4.3).
	align = 256 / 4
	for kind, f := range []gpu.TexelFormat{gpu.TexelRGBA32F, gpu.TexelRGBA32I, gpu.TexelRGBA32UI, gpu.TexelR32UI} {
		w := 4 // words a texel
		if f == gpu.TexelR32UI {
			w = 1
		}
		p, err := c.ProgramFS(fsys, "k/texels.comp", map[string]string{"KIND": fmt.Sprint(kind)})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 2, 63, 64, 65, 1000} {
			for _, off := range []int{0, align} {
				words := make([]uint32, off+w*n+4)
				for i := range words {
					switch kind {
					case 0:
						words[i] = math.Float32bits(float32(r.NormFloat64() * 1e6))
					default:
						words[i] = r.Uint32()
					}
				}
				src, err := gpu.NewBufferFrom(c, words)
				if err != nil {
					t.Fatal(err)
				}
				dst := gputest.NewGuarded(t, c, w*n, uint32(0xdeadbeef), nil)
				c.Do(func() {
					var s gpu.Storage = src.Slice(off, w*n)
					c.BindTexels(0, tex, s, f)
					c.BindStorage(0, dst.View)
					p.SetUint("n", uint32(n))
					p.Dispatch((n+63)/64, 1, 1)
					c.Barrier(gpu.BarrierStorage)
				})
				got := dst.Check(t, fmt.Sprintf("format %d, %d texels from word %d", kind, n, off))
				for i, w := range got {
					if w != words[off+i] {
						t.Fatalf("format %d, %d texels from word %d: word %d is %#x, the storage's %#x", kind, n, off, i, w, words[off+i])
					}
				}
				dst.Delete()
				src.Delete()
			}
		}
	}
	tex.Delete()
	tex.Delete() // idempotent
	if after := c.Live(); after[gpu.KindTexture] != before[gpu.KindTexture] {
		t.Fatalf("textures live: %d before, %d after Delete", before[gpu.KindTexture], after[gpu.KindTexture])
	}
}

// TestTexelBufferMisuse checks that BindTexels refuses storage that is not
// whole texels, an unaligned range and a deleted texture, naming the
// problem, and that a zero-size range unbinds the unit.
func TestTexelBufferMisuse(t *testing.T) {
	c := gputest.Context(t)
	tex, err := gpu.NewTexelBuffer(c)
	if err != nil {
		t.Fatal(err)
	}
	defer tex.Delete()
	b, err := gpu.NewBuffer[uint32](c, 64)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Delete()
	bind := func(s gpu.Storage, tb *gpu.TexelBuffer) (msg string) {
		defer func() {
			if e := recover(); e != nil {
				msg = fmt.Sprint(e)
			}
		}()
		c.Do(func() { c.BindTexels(0, tb, s, gpu.TexelRGBA32UI) })
		return ""
	}
	if m := bind(b.Slice(0, 6), tex); !strings.Contains(m, "whole texels") {
		t.Errorf("6 words: %q", m)
	}
	if m := bind(b.Slice(1, 4), tex); !strings.Contains(m, "whole texels") {
		t.Errorf("a range from word 1: %q", m)
	}
	if m := bind(b.Slice(0, 0), tex); m != "" {
		t.Errorf("an empty range: %q", m)
	}
	if m := bind(b, tex); m != "" {
		t.Errorf("a whole buffer of 16 texels: %q", m)
	}
	dead, err := gpu.NewTexelBuffer(c)
	if err != nil {
		t.Fatal(err)
	}
	dead.Delete()
	if m := bind(b, dead); !strings.Contains(m, "deleted") {
		t.Errorf("a deleted texture: %q", m)
	}
}
