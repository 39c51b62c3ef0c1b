package gpu_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
)

// strideProgram is a kernel whose block V ends in an array of decl's
// type: "vec3", "layout(row_major) mat3x2".
func strideProgram(t *testing.T, c *gpu.Context, decl string) *gpu.Program {
	t.Helper()
	ext := ""
	if strings.Contains(decl, "64") {
		ext = "#extension GL_ARB_gpu_shader_int64 : require\n"
	}
	src := "#version 450\n" + ext + `layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer V { ` + decl + ` v[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
void main() { o[0] = uint(v.length()); }
`
	p, err := c.UserProgramSource("stride.comp", src, nil)
	if err != nil {
		t.Fatalf("%s: %v", decl, err)
	}
	return p
}

// dispatchWith binds a Buffer[T] of 4 elements to V and dispatches p,
// returning what it panicked with.
func dispatchWith[T any](c *gpu.Context, p *gpu.Program, o *gpu.Buffer[uint32]) any {
	b, err := gpu.NewBuffer[T](c, 4)
	if err != nil {
		return err
	}
	defer b.Delete()
	return recovered(func() {
		c.Do(func() {
			c.BindStorage(0, b)
			c.BindStorage(1, o)
			p.DispatchInvocations(1)
		})
	})
}

// dispatchWords is dispatchWith with records of n words, n one of the
// strides of the GLSL types.
func dispatchWords(c *gpu.Context, p *gpu.Program, o *gpu.Buffer[uint32], n int) any {
	switch n {
	case 1:
		return dispatchWith[[1]uint32](c, p, o)
	case 2:
		return dispatchWith[[2]uint32](c, p, o)
	case 4:
		return dispatchWith[[4]uint32](c, p, o)
	case 6:
		return dispatchWith[[6]uint32](c, p, o)
	case 8:
		return dispatchWith[[8]uint32](c, p, o)
	case 12:
		return dispatchWith[[12]uint32](c, p, o)
	case 16:
		return dispatchWith[[16]uint32](c, p, o)
	case 24:
		return dispatchWith[[24]uint32](c, p, o)
	case 32:
		return dispatchWith[[32]uint32](c, p, o)
	}
	return fmt.Sprintf("no Go type of %d words in the test", n)
}

// Every GLSL scalar, vector and matrix type (column- and row-major; the
// 64-bit integers where the driver has them): the stride the layout check
// computes equals the driver's own GL_ARRAY_STRIDE; a Go type of that
// size passes the dispatch, and so do word views of dense types; a size
// that is no view (storageBlock.fits) panics naming the block, both sizes
// and the GLSL type
// (issue 39: Mesa reports these arrays' top-level stride as 0, and the
// check used to let them all pass).
func TestLayoutCheckEveryGLSLType(t *testing.T) {
	c := gputest.Context(t)
	o, _ := gpu.NewBuffer[uint32](c, 1)
	defer o.Delete()
	types := gpu.GLSLTypes()
	slices.Sort(types)
	checked := 0
	for _, typ := range types {
		for _, rowMajor := range []bool{false, true} {
			stride, name, comp, padded := gpu.Std430Elem(typ, rowMajor)
			isMat := strings.Contains(name, "mat")
			if rowMajor && !isMat {
				continue
			}
			if strings.Contains(name, "64") && !c.Caps().Int64 {
				continue
			}
			decl := name
			if rowMajor {
				decl = "layout(row_major) " + name
			}
			p := strideProgram(t, c, decl)
			blocks := p.StorageBlocks()
			if len(blocks) == 0 || len(blocks[0].Vars) != 1 || blocks[0].Name != "V" {
				t.Fatalf("%s: the driver reports %+v", decl, blocks)
			}
			if got := blocks[0].Vars[0].ArrayStride; got != stride {
				t.Errorf("%s v[]: std430 stride %d, the driver's GL_ARRAY_STRIDE %d", decl, stride, got)
				continue
			}
			if r := dispatchWords(c, p, o, stride/4); r != nil {
				t.Errorf("%s v[] with %d-byte elements: %v", decl, stride, r)
			}
			// A dense array is a run of components, which records
			// of whole components may view (20 bytes: five words);
			// a padded one (vec3: 12 bytes of data in 16) is not.
			// The sizes that are no view: a part of a component
			// (3 bytes of 4, 12 of 8), or for a padded type one
			// whose size neither divides the stride nor is a
			// multiple of it (12 or 20).
			if !padded && comp == 4 {
				if r := dispatchWith[[5]uint32](c, p, o); r != nil {
					t.Errorf("%s v[] viewed as 20-byte records: %v", decl, r)
				}
			}
			var r any
			bad := 0
			switch {
			case !padded && comp == 4:
				bad, r = 3, dispatchWith[[3]uint8](c, p, o)
			case !padded:
				bad, r = 12, dispatchWith[[3]float32](c, p, o)
			case stride%12 != 0:
				bad, r = 12, dispatchWith[[3]float32](c, p, o)
			default:
				bad, r = 20, dispatchWith[[5]float32](c, p, o)
			}
			msg := fmt.Sprint(r)
			for _, want := range []string{"storage block V (binding 0)", fmt.Sprintf("array stride of %d bytes in GLSL (an array of %s)", stride, name), fmt.Sprintf("elements of %d bytes", bad)} {
				if !strings.Contains(msg, want) {
					t.Errorf("%s v[] with %d-byte elements: recovered %q, want it to say %q", decl, bad, msg, want)
				}
			}
			checked++
		}
	}
	if checked < 40 {
		t.Fatalf("checked %d types", checked)
	}
	t.Logf("%d GLSL types checked", checked)
}

// The case of issue 39: a Buffer[[3]float32] bound to vec3 v[] (std430
// stride 16) panics at the dispatch and at Bind, naming both sizes; a
// Buffer[[4]float32] reads right.
func TestLayoutCheckVec3(t *testing.T) {
	c := gputest.Context(t)
	p, err := c.UserProgramSource("vec3.comp", `#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer V { vec3 v[]; };
layout(std430, binding = 1) buffer O { float o[]; };
uniform uint n;
void main() {
	uint i = gl_GlobalInvocationID.x;
	if (i < n) o[i] = v[i].x + 2.0 * v[i].y + 4.0 * v[i].z;
}
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	const n = 100
	out, _ := gpu.NewBuffer[float32](c, n)
	defer out.Delete()
	in3 := make([][3]float32, n)
	in4 := make([][4]float32, n)
	for i := range in3 {
		in3[i] = [3]float32{1, float32(i % 2), float32(i % 3)}
		in4[i] = [4]float32{in3[i][0], in3[i][1], in3[i][2], -1}
	}
	b3, _ := gpu.NewBufferFrom(c, in3)
	defer b3.Delete()
	b4, _ := gpu.NewBufferFrom(c, in4)
	defer b4.Delete()
	run := func(v gpu.Storage) any {
		return recovered(func() {
			c.Do(func() {
				c.BindStorage(0, v)
				c.BindStorage(1, out)
				p.SetUint("n", n)
				p.DispatchInvocations(n)
			})
		})
	}
	msg := fmt.Sprint(run(b3))
	for _, want := range []string{"storage block V (binding 0)", "array stride of 16 bytes in GLSL (an array of vec3)", "elements of 12 bytes ([3]float32)"} {
		if !strings.Contains(msg, want) {
			t.Fatalf("Buffer[[3]float32] bound to vec3 v[]: recovered %q, want it to say %q", msg, want)
		}
	}
	msg = fmt.Sprint(recovered(func() { c.Do(func() { p.Bind("V", b3.Slice(0, 4)) }) }))
	if !strings.Contains(msg, "Bind V") || !strings.Contains(msg, "16 bytes") || !strings.Contains(msg, "12 bytes") {
		t.Fatalf("Bind of a Range[[3]float32] to vec3 v[]: recovered %q", msg)
	}
	if r := run(b4); r != nil {
		t.Fatal(r)
	}
	for i, x := range out.Download() {
		if want := in3[i][0] + 2*in3[i][1] + 4*in3[i][2]; x != want {
			t.Fatalf("o[%d] = %v, want %v", i, x, want)
		}
	}
}
