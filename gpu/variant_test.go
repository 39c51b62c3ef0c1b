package gpu_test

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/shaders"
)

// uniformsFS holds a kernel that writes its uniforms, times SCALE, to a
// buffer; OTHER adds a uniform of its own that the base program lacks.
func uniformsFS() fstest.MapFS {
	fsys := fstest.MapFS{"k/u.comp": {Data: []byte(`#version 450
#ifndef SCALE
#define SCALE 1
#endif
layout(local_size_x = 1) in;
#include "include/common.glsl"
layout(std430, binding = 0) buffer Out { uint o[]; };
uniform uint u;
uniform int i;
uniform float f;
uniform uvec2 u2;
uniform vec3 f3;
uniform ivec4 i4;
uniform mat4 m;
uniform float arr[3];
uniform bool b;
#if OTHER
uniform uint other;
#endif
void main() {
    o[0] = SCALE * u;
    o[1] = uint(SCALE * i);
    o[2] = floatBitsToUint(SCALE * f);
    o[3] = SCALE * u2.y;
    o[4] = floatBitsToUint(SCALE * f3.z);
    o[5] = uint(SCALE * i4.w);
    o[6] = floatBitsToUint(SCALE * m[2][1]);
    o[7] = floatBitsToUint(SCALE * arr[2]);
    o[8] = b ? 1u : 0u;
#if OTHER
    o[9] = other;
#endif
}
`)}}
	inc, _ := shaders.FS.ReadFile("include/common.glsl")
	fsys["include/common.glsl"] = &fstest.MapFile{Data: inc}
	return fsys
}

func TestVariantAndCopyUniforms(t *testing.T) {
	c := gputest.Context(t)
	fsys := uniformsFS()
	base, err := c.ProgramFS(fsys, "k/u.comp", map[string]string{"SCALE": "1", "OTHER": "0"})
	if err != nil {
		t.Fatal(err)
	}
	if same, err := base.Variant(map[string]string{"SCALE": "1"}); err != nil || same != base {
		t.Fatalf("a variant with the program's own defines is another program (%v)", err)
	}
	v, err := base.Variant(map[string]string{"SCALE": "3", "OTHER": "1"})
	if err != nil {
		t.Fatal(err)
	}
	if v == base || v.Name() != base.Name() {
		t.Fatalf("variant %q is the base program or named otherwise", v.Name())
	}
	if again, _ := base.Variant(map[string]string{"OTHER": "1", "SCALE": "3"}); again != v {
		t.Fatal("the same variant was built twice")
	}
	out, err := gpu.NewBuffer[uint32](c, 10)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Delete()
	var m [16]float32
	m[2*4+1] = 2.5 // column 2, row 1
	c.Do(func() {
		base.SetUint("u", 7)
		base.SetInt("i", -4)
		base.SetFloat("f", 1.5)
		base.SetUvec2("u2", 1, 11)
		base.SetVec3("f3", 0, 0, -0.25)
		base.SetMat4("m", m)
		base.SetFloat("arr[2]", 4)
		base.SetUint("b", 1)
		v.SetUint("other", 99) // the base lacks it: CopyUniforms leaves it
		v.SetInt("i4", 123)    // wrong on purpose: the base's value (0) replaces it
		base.CopyUniforms(v)
		c.BindStorage(0, out)
		v.Dispatch(1, 1, 1)
	})
	got := out.Download()
	f := math.Float32bits
	want := []uint32{21, uint32(0xFFFFFFF4), f(4.5), 33, f(-0.75), 0, f(7.5), f(12), 1, 99}
	for k := range want {
		if got[k] != want[k] {
			t.Fatalf("word %d: got %#x, want %#x (all %x)", k, got[k], want[k], got)
		}
	}
	mustPanic(t, "dst is nil", func() { c.Do(func() { base.CopyUniforms(nil) }) })
	mustPanic(t, "off the GL thread", func() { base.CopyUniforms(v) })
}

func mustPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		if r := fmt.Sprint(recover()); !strings.Contains(r, want) {
			t.Fatalf("panic %q, want one containing %q", r, want)
		}
	}()
	f()
}
