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
//
// FS is the whole tree, read-only. Go code never builds shader text beyond
// #defines: it names a file of FS (gpu.Context.Program("scan/scan.comp",
// defines)), and package gpu expands, compiles and caches it. A user's own
// kernels #include these files through gpu.WithShaders, which names them
// by gpu.ShadersPath in compile errors.
//
// Conventions every kernel keeps: a 1-D kernel finds its group with
// dpglGroupIndex() or its invocation with dpglGlobalIndex()
// (include/common.glsl), never with gl_WorkGroupID.x, so that package gpu
// may lay its groups out in two dimensions past the driver's 65,535 a
// dimension, and returns when the index is past its count (the 2-D image
// kernels use gl_GlobalInvocationID.xy); storage blocks are std430 with
// explicit bindings that the Go side binds by number or by the block's
// name (gpu.Program.Bind). TestLint runs glslangValidator on every
// shader in every variant it lists.
package shaders
