// Package gpu is what every GPU package of dpgl stands on: OpenGL contexts,
// typed storage buffers, compute programs built from the embedded shaders,
// GPU timestamps, and the capabilities that kernels choose their paths by.
// Nothing outside this package (and gpu/window) calls OpenGL.
//
// # Contexts and the GL thread
//
// NewHeadless makes an OpenGL 4.5 (at least 4.3) core context without any
// display through EGL: the device platform first (NVIDIA GPUs; Mesa's
// software device), then Mesa's surfaceless platform. Package gpu/window
// makes one with a GLFW window instead.
//
// A Context owns one OS thread, locked for its whole life, and every GL call
// runs there: GL state is per thread, and a call from another thread
// silently returns garbage. Context.Do runs a function on that thread and
// waits for it; Do from inside Do runs at once. Methods of Buffer and Stamp
// wrap themselves in Do and may be called from any goroutine. The calls that
// build up a dispatch (BindStorage, Program.Set*, Program.Dispatch, Barrier,
// Stamp.Record) must run inside one Do and panic when called anywhere else
// (or inside the Do of another Context than their own, which they name), so
// misuse is loud:
//
//	c.Do(func() {
//		c.BindStorage(0, src)
//		c.BindStorage(1, dst)
//		p.SetUint("n", uint32(n))
//		p.Dispatch1D(groups)
//		c.Barrier(gpu.BarrierStorage) // the next kernel reads dst
//	})
//
// A function run by Do must not wait for another goroutine that calls Do
// itself (a Buffer method, scan.Reduce): the GL thread runs one function
// at a time, so the two wait for each other for ever. Do the work in the
// function itself, where Do runs at once, or after it. Go cannot see such
// a dependency; a Do that has waited a minute for a GL thread held all that
// time by one other call says so on standard error, naming both callers
// (SetStallReport changes the delay and where the report goes).
//
// # Buffers
//
// Buffer[T] is a storage buffer of elements of a plain-data type T that
// matches its std430 layout. Buffers are zero-filled when made, refuse sizes
// beyond the driver's maximum storage block (128 MiB on llvmpipe) with an
// error, and are freed by Delete. A Range[T] is a view of part of one. Both
// satisfy Array[T], which kernels take. A deleted buffer has Len 0, and
// every other use of it panics naming it as deleted.
//
// A TexelBuffer is a buffer texture over a storage range (BindTexels):
// kernels read the same bits by texelFetch, four words a texel, which
// llvmpipe gathers for a SIMD vector's lanes at once where a storage
// block's load with lanes' own addresses is a scalar access per lane and
// word. Its reads after shader writes need BarrierTexture.
//
// Shader writes reach the GL calls that read or write memory
// (glGetBufferSubData, buffer copies and clears, texture downloads) only
// after a memory barrier. The context keeps which barrier bits no
// glMemoryBarrier has issued since the last dispatch or draw, and the
// methods of Buffer and Texture issue the bits they need themselves, once:
// callers issue only the barriers between their own kernels
// (BarrierStorage, BarrierCommand). Overlap and SameRange compare two
// storage ranges; no GL name leaves the package.
//
// Before every dispatch the struct-layout check compares each storage
// block's array stride, as the driver reports it (GL_TOP_LEVEL_ARRAY_STRIDE;
// for arrays of scalars, vectors and matrices, where Mesa reports 0, the
// std430 stride of the element's type: 16 bytes for a vec3, 24 for a
// mat3x2), with the element size of the Buffer or Range bound there: a Go
// record bound to an array of GLSL structs of another size (8 bytes against
// 12, say), or a Buffer[[3]float32] bound to vec3 v[], panics naming the
// block and both sizes, where the shader would silently read every element
// after the first from the wrong place. Sizes that divide one another are
// views and pass (a Buffer[uint32] read as uvec4s, records moved as words).
// Program.Bind binds by the block's name instead of its number, and
// Program.StorageBlocks gives the driver's whole reflection of the blocks
// (bindings, members' offsets and strides), for tests that hold Go twins of
// GLSL structs to it.
//
// # Programs
//
// Context.Program builds a compute program from a file of package shaders,
// expanding #include "file" (relative to the including file, then the shader
// root; each file once) and inserting the given #defines after #version in
// sorted order. Includes are spliced in before the driver's preprocessor
// runs, so an #include inside an #if block is spliced whichever way the
// condition goes. Programs are cached by their expanded text. Compile errors
// come back with the driver's log mapped to the original file and line, and
// leave no GL object behind. Program.Variant builds the same files with
// more defines, and Program.CopyUniforms carries the uniforms set on one
// program over to another: a library runs its users' kernels its own way
// (package balancer's strategies) without their knowing.
//
// # Kernels of one's own
//
// Context.UserProgramFile, UserProgram (an fs.FS: os.DirFS, embed.FS) and
// UserProgramSource build a user's kernel with dpgl's shaders behind the
// user's files for #include (WithShaders: the user's files first), so a
// kernel can include "include/common.glsl" or "balancer/loop.glsl". Compile
// errors name the user's file and line, or the dpgl file (ShadersPath...)
// and line.
//
// # Launching
//
// Program.DispatchInvocations runs a 1-D kernel on n invocations for any
// n: past the driver's 65,535 work groups a dimension the groups are laid
// out in two, and the kernel's dpglGlobalIndex() (from
// include/common.glsl) is the flat index. DispatchItems(n, k) does the same
// for kernels whose invocations take k items each, and
// DispatchInvocations2D(w, h) covers an image. They divide by the group
// size the shader was built with (Program.Groups), never by one the caller
// assumes, and a count beyond the driver's grid panics naming the count
// and the limits. Dispatch and Dispatch1D take group counts.
//
// # Capabilities
//
// Context.Caps holds what the driver answers (version, limits, extensions,
// GL_KHR_shader_subgroup's size and features, 64-bit integers and atomics)
// and what a probe kernel measures when the context starts (LoopLimit: where
// the driver silently ends long loops, 65535 iterations on llvmpipe, none on
// GPUs or zink). Kernels choose their paths by these, never by the
// renderer's name; Software, from the name, only tunes sizes for CPUs.
// The one exception is LockstepLanes, llvmpipe's SIMD width from its own
// renderer string: no query reports that a work group runs as one vector
// in lockstep, and no probe could show it (a race may pass by chance), so
// only llvmpipe's name, which states its width, grants it; every other
// driver gets 0 and keeps its barriers.
//
// # Timing
//
// Stamp and Timer use glQueryCounter(GL_TIMESTAMP); Ready and TryElapsed
// never stall, Nanos and Elapsed wait. GL_TIME_ELAPSED is not used: llvmpipe
// reports about 1 ns for anything.
//
// # Debugging
//
// With the build tag gldebug, or DPGL_GL_DEBUG=1 in the environment, every
// GL call of this package is followed by glGetError and a GL error panics
// naming the call; the driver's KHR_debug messages go to standard error.
//
// In every build, debug or not, setting a uniform that the program's source
// does not declare panics naming it and the uniforms it has (GL ignores it
// silently: a driver cannot tell a misspelt name from a uniform it
// optimized away, but the source can), checked once per program and name;
// and a dispatch of a user's program (UserProgram...) with a storage block
// it uses left unbound, or bound to a deleted Buffer, panics naming the
// block and binding. Both are Go-side checks of what the package recorded,
// with no GL call: the uniform's when its location is first looked up, the
// blocks' a few compares per block at each dispatch, beside the layout
// check.
// Live counts the GL objects in existence, for leak tests.
package gpu
