// Package shaders holds the module's GLSL compute shaders, embedded in the
// binary. The files are plain GLSL that glslangValidator lints; gpu.Expand
// turns them into what the driver compiles (includes, defines, #line).
//
// Layout: include/ has the headers shared by every kernel; each other
// folder holds the kernels of one package (copy/ for bench's copy kernel,
// scan/ for the scan package, and so on).
package shaders

import "embed"

// FS is the shader tree.
//
//go:embed include copy
var FS embed.FS
