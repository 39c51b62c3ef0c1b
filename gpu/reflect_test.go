package gpu_test

import (
	"testing"
	"testing/fstest"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
)

// TestStorageBlocks reads back a kernel's storage blocks: bindings in
// order, and std430's offsets and strides of a struct with a vec3 (16-byte
// aligned, 12 bytes, a float packed after it) and of an array of scalars.
func TestStorageBlocks(t *testing.T) {
	c := gputest.Context(t)
	src := `#version 450
layout(local_size_x = 1) in;
struct Rec { uint a; vec3 v; float f; uvec2 b; };
layout(std430, binding = 5) buffer Recs { Rec recs[]; };
layout(std430, binding = 2) buffer Words { uint head; uint words[]; };
void main() {
    Rec r = recs[0];
    words[0] = head + r.a + uint(r.v.x + r.f) + r.b.y;
}
`
	p, err := c.UserProgram(fstest.MapFS{"k.comp": {Data: []byte(src)}}, "k.comp", nil)
	if err != nil {
		t.Fatal(err)
	}
	bs := p.StorageBlocks()
	if len(bs) != 2 || bs[0].Name != "Words" || bs[0].Binding != 2 || bs[1].Name != "Recs" || bs[1].Binding != 5 {
		t.Fatalf("blocks %+v, want Words at 2 and Recs at 5", bs)
	}
	want := []gpu.BufferVariable{
		{Name: "recs[0].a", Offset: 0, TopLevelArrayStride: 48},
		{Name: "recs[0].v", Offset: 16, TopLevelArrayStride: 48},
		{Name: "recs[0].f", Offset: 28, TopLevelArrayStride: 48},
		{Name: "recs[0].b", Offset: 32, TopLevelArrayStride: 48},
	}
	if got := bs[1].Vars; len(got) != len(want) {
		t.Fatalf("Recs members %+v, want %+v", got, want)
	}
	for i, v := range bs[1].Vars {
		if v != want[i] {
			t.Errorf("Recs member %d: %+v, want %+v", i, v, want[i])
		}
	}
	words := bs[0].Vars
	// An array of scalars is its own top-level array: ArrayStride gives
	// the stride (Mesa reports a TopLevelArrayStride of 0 for it).
	if len(words) != 2 || words[0].Name != "head" || words[0].Offset != 0 || words[1].Name != "words[0]" || words[1].Offset != 4 ||
		words[1].ArrayStride != 4 || words[1].TopLevelArrayStride != 0 && words[1].TopLevelArrayStride != 4 {
		t.Errorf("Words members %+v, want head at 0 and words[0] at 4, stride 4", words)
	}
}
