package gpu_test

import (
	"testing"
	"testing/fstest"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
)

var drawFS = fstest.MapFS{
	"t.vert": {Data: []byte(`#version 450
layout(std430, binding = 0) readonly buffer P { vec4 pos[]; };
void main() { gl_Position = pos[gl_VertexID]; }
`)},
	"t.frag": {Data: []byte(`#version 450
layout(location = 0) out uint id;
void main() { id = uint(gl_PrimitiveID) + 1u; }
`)},
}

func TestDrawIntoFramebuffer(t *testing.T) {
	c := gputest.Context(t)
	before := c.Live()
	p, err := c.GraphicsProgramFS(drawFS, "t.vert", "t.frag", nil)
	if err != nil {
		t.Fatal(err)
	}
	const w, h = 8, 4
	ids, err := gpu.NewTexture(c, w, h, gpu.R32UI)
	if err != nil {
		t.Fatal(err)
	}
	depth, _ := gpu.NewTexture(c, w, h, gpu.Depth32F)
	fb, err := gpu.NewFramebuffer(c, depth, ids)
	if err != nil {
		t.Fatal(err)
	}
	// Two triangles: a near one over the left half (id 1) drawn after a far
	// full-screen quad (ids 2, 3 as primitives 1, 2): the depth test keeps
	// the near one where they overlap.
	verts := []([4]float32){
		{-1, -1, 0.9, 1}, {1, -1, 0.9, 1}, {1, 1, 0.9, 1}, // far, primitive 0 -> 1
		{-1, -1, 0.9, 1}, {1, 1, 0.9, 1}, {-1, 1, 0.9, 1}, // far, primitive 1 -> 2
		{-1, -1, 0, 1}, {0, -1, 0, 1}, {0, 1, 0, 1}, // near, primitive 2 -> 3 (lower right of left half)
	}
	vb, _ := gpu.NewBufferFrom(c, verts)
	fb.ClearColorUint(0, [4]uint32{})
	fb.ClearDepth(1)
	c.Do(func() {
		c.BindFramebuffer(fb)
		c.DepthTest(true)
		c.BindStorage(0, vb)
		p.DrawTriangles(0, len(verts))
		c.DepthTest(false)
		c.BindFramebuffer(nil)
	})
	got := ids.ReadUint32()
	// Row 0 is the bottom. Pixel (1,0): inside the near triangle (x<0 half,
	// below its diagonal). Pixel (6,3): top right, far primitive 1.
	if v := got[0*w+1]; v != 3 {
		t.Errorf("pixel (1,0) = %d, want 3 (near triangle)", v)
	}
	if v := got[3*w+6]; v != 2 && v != 1 {
		t.Errorf("pixel (6,3) = %d, want a far primitive", v)
	}
	for i, v := range got {
		if v == 0 {
			t.Fatalf("pixel %d not covered", i)
		}
	}
	// Upload from a storage buffer and read back.
	px := make([]uint32, w*h)
	for i := range px {
		px[i] = uint32(i * 7)
	}
	pb, _ := gpu.NewBufferFrom(c, px)
	ids.CopyFromBuffer(pb)
	for i, v := range ids.ReadUint32() {
		if v != px[i] {
			t.Fatalf("CopyFromBuffer pixel %d = %d want %d", i, v, px[i])
		}
	}
	rgba, _ := gpu.NewTexture(c, 2, 1, gpu.RGBA8)
	rgba.Write([]byte{1, 2, 3, 4, 5, 6, 7, 8})
	if b := rgba.Read(); string(b) != string([]byte{1, 2, 3, 4, 5, 6, 7, 8}) {
		t.Fatalf("RGBA8 round trip %v", b)
	}
	for _, x := range []interface{ Delete() }{pb, vb, fb, ids, depth, rgba} {
		x.Delete()
	}
	after := c.Live()
	// The cached program and the empty vertex array live with the context.
	for _, k := range []int{gpu.KindProgram, gpu.KindVertexArray} {
		before[k], after[k] = 0, 0
	}
	if after != before {
		t.Fatalf("leaked: before %v after %v", before, after)
	}
}
