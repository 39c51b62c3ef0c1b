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
// Stamp.Record) must run inside one Do and panic when called anywhere else,
// so misuse is loud:
//
//	c.Do(func() {
//		c.BindStorage(0, src)
//		c.BindStorage(1, dst)
//		p.SetUint("n", uint32(n))
//		p.Dispatch1D(groups)
//		c.Barrier(gpu.BarrierStorage) // the next kernel reads dst
//	})
//
// # Buffers
//
// Buffer[T] is a storage buffer of elements of a plain-data type T that
// matches its std430 layout. Buffers are zero-filled when made, refuse sizes
// beyond the driver's maximum storage block (128 MiB on llvmpipe) with an
// error, and are freed by Delete. A Range[T] is a view of part of one. Both
// satisfy Array[T], which kernels take.
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
// Live counts the GL objects in existence, for leak tests.
package gpu
