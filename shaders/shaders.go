// Package shaders holds the module's GLSL compute shaders, embedded in the
// binary. The files are plain GLSL that glslangValidator lints; gpu.Expand
// turns them into what the driver compiles (includes, defines, #line).
//
// Layout: include/ has the headers shared by every kernel; each other
// folder holds the kernels (.comp), headers (.glsl) and graphics shaders
// (.vert, .frag) of one package: copy/ for bench's copy kernel, gpu/ for
// package gpu's probes, scan/ for package scan, and so on. A kernel lists
// the define sets it is linted with in "// lint: KEY=VALUE ..." lines; every
// define it reads has a default.
package shaders

import "embed"

// FS is the shader tree.
//
//go:embed */*.glsl */*.comp */*.vert */*.frag
var FS embed.FS
