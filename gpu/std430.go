package gpu

import "github.com/go-gl/gl/v4.5-core/gl"

// The std430 array strides of GLSL's scalar, vector and matrix types, for
// the layout check where the driver reports none: Mesa gives
// GL_TOP_LEVEL_ARRAY_STRIDE 0 for a block's top-level array of scalars,
// vectors or matrices (the specification asks for the element's stride),
// and without a stride a Buffer[[3]float32] bound to vec3 v[] (stride 16)
// would pass.

// glslType is a GLSL scalar, vector or matrix type: cols columns of rows
// components of size bytes each (a vector has one column, a scalar one of
// one row).
type glslType struct {
	name             string
	size, cols, rows int
}

// glslTypes are the types by their GL_TYPE enum (glGetProgramResourceiv's
// GL_TYPE of a buffer variable).
var glslTypes = map[uint32]glslType{}

func init() {
	type family struct {
		prefix, scalar string
		size           int
		scalarType     uint32
		vecs           [3]uint32 // vec2, vec3, vec4
	}
	for _, f := range []family{
		{"", "float", 4, gl.FLOAT, [3]uint32{gl.FLOAT_VEC2, gl.FLOAT_VEC3, gl.FLOAT_VEC4}},
		{"d", "double", 8, gl.DOUBLE, [3]uint32{gl.DOUBLE_VEC2, gl.DOUBLE_VEC3, gl.DOUBLE_VEC4}},
		{"i", "int", 4, gl.INT, [3]uint32{gl.INT_VEC2, gl.INT_VEC3, gl.INT_VEC4}},
		{"u", "uint", 4, gl.UNSIGNED_INT, [3]uint32{gl.UNSIGNED_INT_VEC2, gl.UNSIGNED_INT_VEC3, gl.UNSIGNED_INT_VEC4}},
		{"b", "bool", 4, gl.BOOL, [3]uint32{gl.BOOL_VEC2, gl.BOOL_VEC3, gl.BOOL_VEC4}},
		{"i64", "int64_t", 8, gl.INT64_ARB, [3]uint32{gl.INT64_VEC2_ARB, gl.INT64_VEC3_ARB, gl.INT64_VEC4_ARB}},
		{"u64", "uint64_t", 8, gl.UNSIGNED_INT64_ARB, [3]uint32{gl.UNSIGNED_INT64_VEC2_ARB, gl.UNSIGNED_INT64_VEC3_ARB, gl.UNSIGNED_INT64_VEC4_ARB}},
	} {
		glslTypes[f.scalarType] = glslType{f.scalar, f.size, 1, 1}
		for i, v := range f.vecs {
			glslTypes[v] = glslType{f.prefix + "vec" + string(rune('2'+i)), f.size, 1, 2 + i}
		}
	}
	// matCxR: C columns of R rows.
	for _, m := range []struct {
		name      string
		typ, dtyp uint32
		c, r      int
	}{
		{"mat2", gl.FLOAT_MAT2, gl.DOUBLE_MAT2, 2, 2}, {"mat3", gl.FLOAT_MAT3, gl.DOUBLE_MAT3, 3, 3},
		{"mat4", gl.FLOAT_MAT4, gl.DOUBLE_MAT4, 4, 4}, {"mat2x3", gl.FLOAT_MAT2x3, gl.DOUBLE_MAT2x3, 2, 3},
		{"mat2x4", gl.FLOAT_MAT2x4, gl.DOUBLE_MAT2x4, 2, 4}, {"mat3x2", gl.FLOAT_MAT3x2, gl.DOUBLE_MAT3x2, 3, 2},
		{"mat3x4", gl.FLOAT_MAT3x4, gl.DOUBLE_MAT3x4, 3, 4}, {"mat4x2", gl.FLOAT_MAT4x2, gl.DOUBLE_MAT4x2, 4, 2},
		{"mat4x3", gl.FLOAT_MAT4x3, gl.DOUBLE_MAT4x3, 4, 3},
	} {
		glslTypes[m.typ] = glslType{m.name, 4, m.c, m.r}
		glslTypes[m.dtyp] = glslType{"d" + m.name, 8, m.c, m.r}
	}
}

// stride is t's std430 array stride. A vector of n components aligns to
// n (2) or 4 (3 and 4) components, and a vec3's stride is its alignment,
// 16 bytes of floats. A matrix is an array of its column vectors (of its
// row vectors, rowMajor), each at the vector's array stride; std430, unlike
// std140, does not round that stride up to 16 bytes, so mat3x2 has 24.
func (t glslType) stride(rowMajor bool) int {
	vec := func(n int) int {
		if n == 3 {
			n = 4
		}
		return n * t.size
	}
	if t.cols == 1 {
		return vec(t.rows)
	}
	if rowMajor {
		return t.rows * vec(t.cols)
	}
	return t.cols * vec(t.rows)
}

// padded reports whether t's std430 array elements hold padding: a
// 3-component vector, or a matrix of them (16 bytes for 12 of floats).
// The others are dense runs of components.
func (t glslType) padded(rowMajor bool) bool {
	if rowMajor && t.cols > 1 {
		return t.cols == 3
	}
	return t.rows == 3
}

// std430Elem returns the std430 array stride of the GL_TYPE typ, its GLSL
// name, its components' size and whether it holds padding, or a zero
// stride for a type not listed (an opaque type, or one of an extension
// this package does not know).
func std430Elem(typ uint32, rowMajor bool) (stride int, name string, comp int, padded bool) {
	t, ok := glslTypes[typ]
	if !ok {
		return 0, "", 0, false
	}
	return t.stride(rowMajor), t.name, t.size, t.padded(rowMajor)
}
