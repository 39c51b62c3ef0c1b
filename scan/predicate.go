package scan

import (
	"io/fs"

	"github.com/dpgl/dpgl/gpu"
)

// Predicate is a predicate written as a function in the user's own GLSL
// file, for SelectIfKernel and PartitionIfKernel: where an expression in
// a #define is too little (a table to look up, a loop, uniforms that change
// between calls). The file includes dpgl's "scan/select.glsl" right after
// its #version line and then defines scanPredicate, whose x is the
// element (uint, int or float: the GLSL type of the Go element type T)
// and i its index:
//
//	#version 450
//	#include "scan/select.glsl"
//	uniform float threshold;
//	bool scanPredicate(float x, uint i) { return x > threshold; }
//
// The Scanner builds the file as a few kernels (the scan and the reduction
// that select.glsl holds, for the tile shape and path of the call), each
// once, at the first call that needs it; compile errors come back from
// that call naming the user's file and line, as gpu.Context.UserProgram's
// do. Buffers of the file's own take bindings FirstFreeBinding and up. A
// Scanner keeps the kernels of a Predicate by its pointer: make one
// Predicate per file and reuse it, and change no field but what Bind
// reads once it has been used.
type Predicate struct {
	// FS holds the file Name and what it includes (an os.DirFS, an
	// embed.FS, ...), with dpgl's shaders behind it (gpu.WithShaders).
	// When FS is nil, Name is a path of the operating system, looked up
	// as gpu.Context.UserProgramFile does.
	FS   fs.FS
	Name string
	// Bind, if not nil, runs on the GL thread before every dispatch of a
	// kernel built from the file, to set its uniforms (p.SetFloat, ...)
	// and bind its buffers (Context.BindStorage at FirstFreeBinding and
	// up). A call may run several kernels of the file; each gets Bind.
	Bind func(p *gpu.Program)
}

func checkPredicate(fn string, pred *Predicate) {
	if pred == nil {
		panic("scan: " + fn + ": pred is nil")
	}
	if pred.Name == "" {
		panic("scan: " + fn + ": pred.Name is empty")
	}
}
